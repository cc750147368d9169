"""Tron positions for tests, drawn as rows of text or played at random, and a plain breadth-first search to check
the engine by."""

import random

import numpy as np

from arena.core.maps import resolve_map
from arena.games.tron.game import TronGame
from arena.games.tron.observation import TronObservation
from arena.games.tron.rules import TronBoard


def board_of(rows):
    """A board from rows with ``#`` walls and the heads ``1``..``4``."""
    starts = sorted((char, x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if char in "1234")
    return TronBoard(rows, [(x, y) for _, x, y in starts])


def observe(rows, moves="simultaneous", seat=0):
    """The observation of seat ``seat`` in the position ``rows``."""
    return TronObservation(board_of(rows), seat, moves)


def bfs_distances(cells, start, stride):
    """Distances from ``start`` to every free cell it reaches on the padded grid, by a plain BFS."""
    seen, frontier = {start: 0}, [start]
    for cell in frontier:
        for neighbour in (cell - stride, cell + stride, cell - 1, cell + 1):
            if cells[neighbour] == 0 and neighbour not in seen:
                seen[neighbour] = seen[cell] + 1
                frontier.append(neighbour)
    return seen


def random_positions(count, seed=3, maps=("empty_room", "center_block", "diagonal_blocks"), turns=30):
    """Seeded positions on ``maps`` (the 13x13 ones) after fewer than ``turns`` random safe rounds (games
    that have not ended)."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = TronGame(resolve_map(rng.choice(maps)), {}, np.random.default_rng(0))
        for _ in range(rng.randrange(0, turns)):
            actions = {}
            for seat in game.to_act():
                safe = game.observe(seat).safe_moves()
                actions[seat] = rng.choice(safe) if safe else "N"
            game.apply(actions)
            if game.result is not None:
                break
        if game.result is None:
            positions.append(game.observe(0))
    return positions


FACE_TO_FACE = [".........",
                ".........",
                "...1.2...",
                ".........",
                "........."]

AHEAD = ["......#...",  # the door between the heads leads into our small side
         "......#...",
         ".....1.2..",
         "..........",
         "......#...",
         "......#..."]
BEHIND = ["#..#.....",  # the door leads into their big side
          "#..#.....",
          "#.1.2....",
          "#........",
          "#..#....."]
