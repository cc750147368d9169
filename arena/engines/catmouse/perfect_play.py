"""Who wins a cat-and-mouse map with perfect play, under the map's options, and in how many moves."""

from __future__ import annotations

from dataclasses import dataclass

from arena.engines.catmouse.solver import cached_solution
from arena.games.catmouse.game import load_board, move_limit
from arena.games.catmouse.rules import CAT, MOUSE


@dataclass(frozen=True)
class MapVerdict:
    """The perfect-play result of one map: the winner, and the move (of both players) that catches the mouse."""

    map: str
    height: int
    width: int
    first: str
    winner: str
    moves: int | None
    mouse_move_limit: int | None


def mouse_moves_before_catch(plies: int, first: int) -> int:
    """How many moves the mouse has completed before the move ``plies`` (of both players) that catches it."""
    return (plies - 1) // 2 if first == CAT else plies // 2


def perfect_play(spec: str) -> MapVerdict:
    """Solve the map ``spec`` (a name or path) exactly, under its options (first mover, move limit)."""
    game_map, layout, options = load_board(spec)
    solution = cached_solution(layout)
    first = CAT if options["first"] == "cat" else MOUSE
    plies = solution.moves_to_catch(layout.cat_start, layout.mouse_start, first)
    limit = move_limit(options, layout)
    winner = "mouse"
    if plies is not None and (limit is None or mouse_moves_before_catch(plies, first) < limit):
        winner = "cat"
    return MapVerdict(game_map.name, layout.height, layout.width, options["first"], winner, plies, limit)
