"""Exact space filling: the longest path a lone head can still make, by branch and bound.

Once the players are cut off from each other, the game is decided by who can make more moves in
their own region: the length of the longest simple path from the head through free cells. That is
NP-hard in general, but the regions left at the end of a Tron game are small, and a depth-first
search that stops whenever the moves made plus an upper bound on the moves left cannot beat the best
path found so far settles most of them in a few thousand nodes. The bound is the checkerboard parity
bound of the cells the head still reaches (:func:`~arena.engines.tron.bitboards.parity_bound`).

Used as a reference: to check the bots' space-filling search and its estimates in tests, and to say
who really had more room in recorded games (``experiments/record_analysis.py``).
"""

from __future__ import annotations

from arena.engines.tron.bitboards import flood, parity_bound


def longest_path(free: int, head: int, stride: int, node_limit: int = 0) -> tuple[int, bool]:
    """The most moves the head at ``head`` can make through the cells of ``free``, and whether it is exact.

    ``free`` is a bitboard of empty cells (the head's own cell not among them). With a ``node_limit``
    (0: none) the search may stop early; the length returned is then the longest path found, a lower
    bound, and the flag is false.
    """
    size = free.bit_length() + stride + 2
    best = 0
    nodes = 0
    steps = (-stride, 1, stride, -1)

    class Stop(Exception):
        pass

    def bound(cells: int, at: int) -> int:
        return parity_bound(flood(cells, 1 << at, stride), at, stride, size)

    def walk(cells: int, at: int, made: int) -> None:
        nonlocal best, nodes
        nodes += 1
        if node_limit and nodes > node_limit:
            raise Stop
        if made > best:
            best = made
        if made + bound(cells, at) <= best:
            return
        for step in steps:
            target = at + step
            if cells >> target & 1:
                walk(cells & ~(1 << target), target, made + 1)

    try:
        walk(free, head, 0)
    except Stop:
        return best, False
    return best, True
