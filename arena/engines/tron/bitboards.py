"""Tron positions as bitboards: flood fills, Voronoi territories and checkerboard parity.

A *bitboard* is a Python integer whose bit ``i`` stands for cell ``i`` of the padded flat grid
(:mod:`arena.games.tron.rules`). ``free`` has a bit for every empty cell. Because the grid has a border
of ``OUT`` cells that are never free, the neighbours of a set are just four shifts
(``b << 1 | b >> 1 | b << stride | b >> stride``) masked with ``free``: no edge masks are needed and
nothing wraps around a row. Python's big integers then do a whole breadth-first layer in a handful of
word-parallel operations, so a flood fill costs one step per BFS layer instead of one per cell.

* :func:`free_bits`, :func:`bit` and :func:`flood`: build and fill bitboards.
* :func:`territories`, :func:`voronoi` and :func:`voronoi_regions`: cells strictly closer to one player than
  the other, by two BFS frontiers expanding at once (cells at equal distance are nobody's).
* :func:`parity_bound`: checkerboard parity: a path alternates colours, so a region with ``a`` cells
  of one colour and ``b`` of the other can't be filled in more than about ``2 min(a, b) + 1`` moves.
* :func:`inner_edges`: the edges of a region's grid graph.
"""

from __future__ import annotations

from functools import lru_cache

_FREE_TABLE = bytes.maketrans(bytes(range(256)), b"1" + b"0" * 255)


def free_bits(cells: bytes) -> int:
    """The bitboard of the empty cells of a padded flat grid (``cells[i] == 0`` gives bit ``i``)."""
    return int(bytes(cells).translate(_FREE_TABLE)[::-1], 2)


def bit(index: int) -> int:
    """The bitboard with only cell ``index``."""
    return 1 << index


def neighbours(bits: int, stride: int) -> int:
    """Every cell next to a cell of ``bits`` (and those cells themselves), unmasked."""
    return bits | bits << 1 | bits >> 1 | bits << stride | bits >> stride


def flood(free: int, seed: int, stride: int) -> int:
    """The cells of ``free`` reachable from the cells of ``seed`` (which need not be free), ``seed`` excluded."""
    reach = seed
    mask = free | seed
    while True:
        grown = (reach | reach << 1 | reach >> 1 | reach << stride | reach >> stride) & mask
        if grown == reach:
            return reach & ~seed
        reach = grown


def voronoi(free: int, a: int, b: int, stride: int) -> tuple[int, int, bool]:
    """Voronoi territory of heads at ``a`` and ``b``: cells strictly closer to each, and whether they touch.

    Two BFS frontiers grow together, one layer per step; a cell both reach in the same layer is
    nobody's but still passes on its distance to both. Returns ``(a's cells, b's cells, connected)``,
    ``connected`` being whether any free cell is reachable from both (if not, the players are cut off
    and each count is simply the reachable area).
    """
    mine, theirs, connected = voronoi_regions(free, a, b, stride)
    return mine.bit_count(), theirs.bit_count(), connected


def voronoi_regions(free: int, a: int, b: int, stride: int) -> tuple[int, int, bool]:
    """Like :func:`voronoi`, but the territories as bitboards: ``(a's cells, b's cells, connected)``."""
    mine, theirs = territories(free, 1 << a, 1 << b, stride)
    reach_a = flood(free, 1 << a, stride) | 1 << a
    reach_b = flood(free, 1 << b, stride) | 1 << b
    return mine, theirs, bool(neighbours(reach_a, stride) & reach_b)


def territories(free: int, ours: int, theirs: int, stride: int) -> tuple[int, int]:
    """Voronoi territories of two sets of heads, given as bitboards (several heads make one side).

    Returns ``(cells our side reaches strictly first, cells their side does)``. This is the inner loop
    of every search evaluation, so it does only what the territories need: per layer, two frontier
    steps, the cells both reach at once (nobody's, but they pass their distance on to both), and the
    cells seen so far removed with an exclusive or (new frontiers are always unseen cells).
    """
    fa, fb = ours, theirs
    unseen = free
    mine = theirs = 0
    s = stride
    while fa or fb:
        fa = (fa << 1 | fa >> 1 | fa << s | fa >> s) & unseen
        fb = (fb << 1 | fb >> 1 | fb << s | fb >> s) & unseen
        both = fa & fb
        mine |= fa ^ both
        theirs |= fb ^ both
        unseen ^= fa | fb
    return mine, theirs


@lru_cache(maxsize=64)
def colour_mask(stride: int, size: int) -> int:
    """The bitboard of the "black" squares of a checkerboard over a padded grid of ``size`` cells."""
    mask = 0
    for index in range(size):
        if ((index % stride) + (index // stride)) & 1:
            mask |= 1 << index
    return mask


def parity_bound(region: int, head: int, stride: int, size: int) -> int:
    """An upper bound on the moves a head at ``head`` can make inside ``region`` (by checkerboard parity).

    Each move changes square colour. With ``other`` cells of the colour the first move lands on and
    ``same`` of the head's colour, a path has at most ``2 * min(other, same)`` moves, plus one if
    ``other`` is larger. The region's size is a bound too; this one is tighter on lopsided regions.
    """
    black = colour_mask(stride, size)
    blacks = (region & black).bit_count()
    whites = region.bit_count() - blacks
    if (head % stride + head // stride) & 1:
        other, same = whites, blacks
    else:
        other, same = blacks, whites
    return 2 * min(other, same) + (1 if other > same else 0)


def inner_edges(region: int, stride: int) -> int:
    """How many pairs of side-by-side cells both lie in ``region`` (the edges of its grid graph)."""
    return (region & region >> 1).bit_count() + (region & region >> stride).bit_count()
