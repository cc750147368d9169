"""An exact index for the CLA's matching rule: the first table entry of highest cosine similarity to a state.

A scan of every entry costs a dot product per entry per round, and tables reach 40,000 entries in 1,000
games. The index is a k-d tree over the entries' unit vectors: each node keeps the box (per-coordinate
minimum and maximum) of its entries, and a node whose bound ``sum(max(lo[i] * q[i], hi[i] * q[i]))`` is
below the best similarity found so far cannot hold a better entry. The bound is computed with the same
products, in the same order, as the similarity itself, and rounding is monotone, so it is never below any
similarity computed inside the box: the index returns exactly what the scan returns, ties to the earliest
entry included.

Entries added after the tree was built (a table grows after every game) form a tail that is scanned after
the tree; the table rebuilds the tree once the tail grows past a share of it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LEAF_SIZE = 16


@njit(cache=True)
def _similarity(units, entry, unit):
    total = 0.0
    for i in range(unit.shape[0]):
        total += units[entry, i] * unit[i]
    return total


@njit(cache=True)
def _bound(lo, hi, node, unit):
    total = 0.0
    for i in range(unit.shape[0]):
        low, high = lo[node, i] * unit[i], hi[node, i] * unit[i]
        total += high if high > low else low
    return total


@njit(cache=True)
def tree_rows(size):
    """The node rows a tree over ``size`` entries may need: a split node's halves hold at least
    ``LEAF_SIZE // 2`` entries each, so there are at most ``2 * size // (LEAF_SIZE // 2) + 1`` nodes."""
    return 2 * size // (LEAF_SIZE // 2) + 1


@njit(cache=True)
def build_tree(units, size, order, sorted_units, lo, hi, children, spans):
    """Build the tree over the first ``size`` rows of ``units``; return the number of nodes.

    ``order`` (at least ``size`` integers) receives the entries in leaf order, and ``sorted_units`` their
    unit vectors in that order, so a leaf's vectors lie together in memory; node ``k`` holds
    ``order[spans[k, 0]:spans[k, 1]]``, the earliest of them ``spans[k, 2]``, within the box
    ``lo[k]``..``hi[k]``, with children
    ``children[k, 0]`` and ``children[k, 1]`` (-1 for a leaf). The arrays need :func:`tree_rows` rows.
    """
    dim = units.shape[1]
    for k in range(size):
        order[k] = k
    if size == 0:
        return 0
    pending = np.empty((tree_rows(size), 3), dtype=np.int64)
    pending[0, 0], pending[0, 1], pending[0, 2] = 0, 0, size
    waiting, nodes = 1, 1
    while waiting:
        waiting -= 1
        node, start, end = pending[waiting, 0], pending[waiting, 1], pending[waiting, 2]
        earliest = size
        for k in range(start, end):
            earliest = min(earliest, order[k])
        spans[node, 0], spans[node, 1], spans[node, 2] = start, end, earliest
        widest, spread = 0, -1.0
        for i in range(dim):
            low, high = np.inf, -np.inf
            for k in range(start, end):
                value = units[order[k], i]
                low = min(low, value)
                high = max(high, value)
            lo[node, i], hi[node, i] = low, high
            if high - low > spread:
                widest, spread = i, high - low
        if end - start <= LEAF_SIZE or spread <= 0.0:
            children[node, 0] = children[node, 1] = -1
            continue
        keys = np.empty(end - start)
        for k in range(start, end):
            keys[k - start] = units[order[k], widest]
        order[start:end] = order[start:end][np.argsort(keys, kind="mergesort")]
        middle = (start + end) // 2
        children[node, 0], children[node, 1] = nodes, nodes + 1
        pending[waiting, 0], pending[waiting, 1], pending[waiting, 2] = nodes, start, middle
        pending[waiting + 1, 0], pending[waiting + 1, 1], pending[waiting + 1, 2] = nodes + 1, middle, end
        waiting += 2
        nodes += 2
    for k in range(size):
        sorted_units[k] = units[order[k]]
    return nodes


@njit(cache=True)
def indexed_best(units, size, tree, unit, hint):
    """The first of the ``size`` entries of highest similarity to ``unit`` and that similarity, searching
    ``tree`` (:attr:`MatchIndex.tree`) over the entries it holds and scanning the rest; ``(-1, 0.0)`` for an
    empty table.

    ``hint`` is an entry likely to be close (the previous round's best: the next round often matches it or
    the entry after it, the same game's next state); starting from the better of the two, the search prunes
    from the first node. Any hint gives the same answer.
    """
    indexed, order, sorted_units, lo, hi, children, spans = tree
    best, best_similarity = -1, -np.inf
    for entry in (hint, hint + 1):
        if 0 <= entry < size:
            similarity = _similarity(units, entry, unit)
            if similarity > best_similarity or (similarity == best_similarity and entry < best):
                best, best_similarity = entry, similarity
    if indexed > 0:
        stack = np.empty(128, dtype=np.int64)  # a median split halves: depth under 64, one more each level
        bounds = np.empty(128)
        stack[0], bounds[0], top = 0, np.inf, 1
        while top:
            top -= 1
            node = stack[top]
            if bounds[top] < best_similarity or (bounds[top] == best_similarity and spans[node, 2] > best):
                continue  # nothing better here, nor an earlier entry as good (many share a direction)
            first, second = children[node, 0], children[node, 1]
            if first < 0:
                for k in range(spans[node, 0], spans[node, 1]):
                    entry = order[k]
                    similarity = _similarity(sorted_units, k, unit)
                    if similarity > best_similarity or (similarity == best_similarity and entry < best):
                        best, best_similarity = entry, similarity
                continue
            first_bound, second_bound = _bound(lo, hi, first, unit), _bound(lo, hi, second, unit)
            if first_bound > second_bound:  # the more promising child is searched first: pushed last
                first, second = second, first
                first_bound, second_bound = second_bound, first_bound
            stack[top], bounds[top] = first, first_bound
            stack[top + 1], bounds[top + 1] = second, second_bound
            top += 2
    return scan_best(units, indexed, size, unit, best, best_similarity)


@njit(cache=True)
def scan_best(units, start, size, unit, best, best_similarity):
    """The rule by a scan of entries ``start``..``size - 1`` (entries before ``start`` gave ``best`` at
    ``best_similarity``): the first entry of highest similarity and that similarity, ``(-1, 0.0)`` if none."""
    for entry in range(start, size):
        similarity = _similarity(units, entry, unit)
        if similarity > best_similarity or (similarity == best_similarity and entry < best):
            best, best_similarity = entry, similarity
    if best < 0:
        return -1, 0.0
    return best, best_similarity


class MatchIndex:
    """The tree over a growing table's unit vectors, rebuilt when the entries added since outgrow
    ``1 / TAIL_SHARE`` of those it holds (and at least ``TAIL_MIN``)."""

    TAIL_MIN = 256
    TAIL_SHARE = 16

    def __init__(self, dim: int):
        self.dim = dim
        self.tree = self._arrays(0, 0)

    def _arrays(self, indexed: int, size: int) -> tuple:
        rows = tree_rows(size)
        return (indexed, np.zeros(size, dtype=np.int64), np.zeros((size, self.dim)), np.zeros((rows, self.dim)),
                np.zeros((rows, self.dim)), np.zeros((rows, 2), dtype=np.int64), np.zeros((rows, 3), dtype=np.int64))

    def refresh(self, units: np.ndarray, size: int) -> None:
        """Rebuild the tree over the first ``size`` rows of ``units`` if its tail has grown too long."""
        indexed = self.tree[0]
        if size - indexed <= max(self.TAIL_MIN, indexed // self.TAIL_SHARE):
            return
        tree = self._arrays(size, size)
        build_tree(units, size, *tree[1:])
        self.tree = tree
