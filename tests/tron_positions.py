"""Tron positions for tests, drawn as rows of text, and a plain breadth-first search to check the engine by."""

from arena.games.tron.board import TronBoard
from arena.games.tron.observation import TronObservation


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
