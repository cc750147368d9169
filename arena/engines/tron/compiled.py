"""The inner loop of :class:`arena.engines.tron.searcher.Searcher`, compiled to machine code with numba.

It searches exactly the tree the Python search does (the same moves in the same order, the same
killer moves and history scores, the same values) but about six times faster, which buys the search two to four more
plies in the same thinking time. Depth decides games on boards like center_block, where the first
few moves choose which way round the block a bot goes.

The position is a flat ``uint8`` array (1 for an empty cell) of the padded grid, changed in place
as moves are made and unmade. The search is an explicit stack rather than recursion, because numba
can't cache recursive functions on disk; the cache keeps a fresh process from compiling again
(compiling takes a few seconds, loading the cache a fraction of one).

``counters`` is shared with the caller: ``[nodes, evaluations at the depth limit, timed out,
epoch, orders]``. The epoch numbers BFS layers across evaluations, and orders the cells the
``chamber`` evaluation's depth-first searches visit, so the visit marks never need clearing.
"""

from __future__ import annotations

import time
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from numba import njit, objmode

# Module globals, so numba freezes their values into the compiled code (the on-disk cache keys on this file
# only: a change of the values in evaluation.py needs the cache cleared).
from arena.engines.tron.evaluation import DRAW, WIN

VORONOI = 0
CHAMBER = 1
# Killer moves: killers[KILLER_OFFSET + depth] at our moves, [KILLER_OFFSET - depth - 1] at theirs; by ply
# (ordering "history"), killers[ply], the root's reply being ply 0.
KILLER_OFFSET = 128
NODES, HORIZON, TIMED_OUT, EPOCH, ORDERS = 0, 1, 2, 3, 4
CLOCK_EVERY = 255  # look at the clock when ``nodes & CLOCK_EVERY == 0``
NO_NODE_LIMIT = 1 << 62

Board = npt.NDArray[np.uint8]
"""A padded grid, flat: 1 for an empty cell."""
Work = npt.NDArray[np.int64]
"""Counters, tags, killer moves, history and the other work arrays of the compiled code."""


@njit(cache=True)
def perf_clock() -> float:
    """``time.perf_counter()`` from compiled code."""
    with objmode(now="float64"):
        now = time.perf_counter()
    return now


# Rows of the ``chambers`` work array of :func:`_one_pass_territory`.
ORDER, LOW, OPEN, BRANCH, BRANCH_KEY, STACK_CELL, STACK_NEXT = range(7)
CHAMBER_ROWS = 7
# Cells, black cells and edges packed in one integer, so a block's three counts add up in one sum.
CELLS_SHIFT, BLACKS_SHIFT, FIELD = 42, 21, (1 << 21) - 1


@njit(cache=True)
def _one_pass_territory(head: int, mark: int, base: int, tags: Work, stride: int, colour: Work, cell_weight: int,
                        edge_weight: int, counters: Work, chambers: Work) -> int:
    """What the territory of cells marked ``mark`` is worth to the head at ``head`` if filled in one pass.

    The same value as :func:`arena.engines.tron.evaluation.territory_value`: a depth-first search from the
    head over the territory (Tarjan's low links) closes a block each time a cell's subtree cannot
    reach above its parent, which is then a cut vertex (or the head). A closed block is a branch: its
    cells plus the best branch hanging inside it. Each cell keeps the counts of its still-open block
    (``OPEN``) and the best branch found in it (``BRANCH``, worth ``BRANCH_KEY``; -1 for none); the
    head keeps the best of its branches. An edge is counted at its deeper end, so a dropped branch
    takes the edge to its door with it. Depth-first numbers continue from the last search's
    (``counters[ORDERS]``), so a cell is new to this search if its number is older than the first one,
    and the arrays never need clearing.
    """
    order, low, open_counts = chambers[ORDER], chambers[LOW], chambers[OPEN]
    branch, branch_key = chambers[BRANCH], chambers[BRANCH_KEY]
    stack_cell, stack_next = chambers[STACK_CELL], chambers[STACK_NEXT]
    floor = (base << 2) | 3
    first = counters[ORDERS] + 1
    order[head] = first
    branch_key[head] = -1
    top = 0
    stack_cell[0] = head
    counter = first + 1
    cell, parent, direction = head, -1, 0
    number = lowest = first
    open_count = 0
    while True:
        pushed = False
        while direction < 4:
            if direction == 0:
                nxt = cell - stride
            elif direction == 1:
                nxt = cell + 1
            elif direction == 2:
                nxt = cell + stride
            else:
                nxt = cell - 1
            direction += 1
            tag = tags[nxt]
            if tag <= floor or (tag & 3) != mark:  # the head's own cell is not in the territory
                continue
            seen = order[nxt]
            if seen < first:
                stack_next[top] = direction
                low[cell] = lowest
                open_counts[cell] = open_count
                top += 1
                stack_cell[top] = nxt
                parent, cell, direction = cell, nxt, 0
                number = lowest = counter
                order[nxt] = counter
                counter += 1
                open_count = (1 << CELLS_SHIFT) | (colour[nxt] << BLACKS_SHIFT)
                branch_key[nxt] = -1
                pushed = True
                break
            if seen < number:
                open_count += 1
                if seen < lowest and nxt != parent:
                    lowest = seen
        if pushed:
            continue
        top -= 1
        if top < 0:
            break
        up = stack_cell[top]
        up_number = order[up]
        up_low = low[up]
        if lowest >= up_number:  # the subtree's open block closes here: a branch off ``up``
            total = open_count
            if branch_key[cell] >= 0:
                total += branch[cell]
            key = cell_weight * (total >> CELLS_SHIFT) + edge_weight * (total & FIELD)
            if key > branch_key[up]:
                branch_key[up] = key
                branch[up] = total
            up_open = open_counts[up]
        else:  # the same block as the parent's
            up_open = open_counts[up] + open_count
            if branch_key[cell] > branch_key[up]:
                branch_key[up] = branch_key[cell]
                branch[up] = branch[cell]
            if lowest < up_low:
                up_low = lowest
        cell, number, lowest, open_count = up, up_number, up_low, up_open
        direction = stack_next[top]
        parent = stack_cell[top - 1] if top >= 1 else -1
    counters[ORDERS] = counter
    kept = branch[head] if branch_key[head] >= 0 else 0
    count, black, edges = kept >> CELLS_SHIFT, (kept >> BLACKS_SHIFT) & FIELD, kept & FIELD
    if colour[head]:
        other, same = count - black, black
    else:
        other, same = black, count - black
    bound = 2 * min(other, same) + (1 if other > same else 0)
    return cell_weight * bound + edge_weight * edges


@njit(cache=True)
def _next_layer(front: Work, start: int, end: int, tags: Work, mark: int, count: int) -> tuple[int, int]:
    """Move the new layer ``front[start:end]`` to the front and add its cells owned by ``mark`` to ``count``.

    Returns the layer's size and the new count.
    """
    kept = 0
    for index in range(start, end):
        cell = front[index]
        if tags[cell] & 3 == mark:
            count += 1
        front[kept] = cell
        kept += 1
    return kept, count


@njit(cache=True)
def evaluate(free: Board, me: int, op: int, stride: int, evaluation: int, colour: Work, cell_weight: int,
             edge_weight: int, counters: Work, tags: Work, scratch: Work, chambers: Work) -> int:
    """The Voronoi (or chamber) value of a position for the head at ``me`` against the head at ``op``.

    Two BFS frontiers grow a layer at a time; a cell both reach in the same layer is nobody's but
    passes its distance on to both, exactly as :func:`~arena.engines.tron.bitboards.territories`. Each cell
    reached is tagged ``layer << 2 | owner`` (owner 1 for ``me``, 2 for ``op``, 3 for nobody), one
    number to read where the layer and the owner are both needed; layers continue from the last
    evaluation's (``counters[EPOCH]``), so tags never need clearing.
    """
    base = counters[EPOCH]
    floor = (base << 2) | 3
    epoch = base
    front_a, front_b = scratch[0], scratch[1]
    front_a[0] = me
    front_b[0] = op
    size_a = size_b = 1
    mine = theirs = 0
    while size_a or size_b:
        epoch += 1
        tag = epoch << 2
        end_a = size_a
        for index in range(size_a):
            cell = front_a[index]
            for step in (-stride, 1, stride, -1):
                nxt = cell + step
                if free[nxt] and tags[nxt] <= floor:
                    tags[nxt] = tag | 1
                    front_a[end_a] = nxt
                    end_a += 1
        end_b = size_b
        for index in range(size_b):
            cell = front_b[index]
            for step in (-stride, 1, stride, -1):
                nxt = cell + step
                if free[nxt]:
                    seen = tags[nxt]
                    if seen <= floor:
                        tags[nxt] = tag | 2
                        front_b[end_b] = nxt
                        end_b += 1
                    elif seen == tag | 1:
                        tags[nxt] = tag | 3
                        front_b[end_b] = nxt
                        end_b += 1
        size_a, mine = _next_layer(front_a, size_a, end_a, tags, 1, mine)
        size_b, theirs = _next_layer(front_b, size_b, end_b, tags, 2, theirs)
    counters[EPOCH] = epoch
    if evaluation == VORONOI:
        return mine - theirs
    return (_one_pass_territory(me, 1, base, tags, stride, colour, cell_weight, edge_weight, counters, chambers)
            - _one_pass_territory(op, 2, base, tags, stride, colour, cell_weight, edge_weight, counters, chambers))


@njit(cache=True)
def search(free: Board, me: int, op: int, depth: int, alpha: int, beta: int, ours: bool, simultaneous: bool,
           stride: int, evaluation: int, colour: Work, cell_weight: int, edge_weight: int, by_history: bool,
           killers: Work, history: Work, counters: Work, deadline: float, node_limit: int, tags: Work, scratch: Work,
           chambers: Work, draw: int) -> int:
    """Alpha-beta from a node: ours (``ours``, a max node) or the opponent's reply; returns its value.

    The node semantics are those of ``Searcher._mine`` and ``Searcher._reply``, and so is the move
    order: the killer move first, then N, E, S, W; or, ``by_history``, the killer move of the node's
    ply first, then the moves by their ``history`` score, ties in N, E, S, W order. If the clock passes
    ``deadline``, or the search enters a node past its first ``node_limit``, ``counters[TIMED_OUT]`` is set,
    ``free`` is restored, and the value returned is 0. ``draw`` is the value of a head-on draw.
    """
    levels = depth + 3
    at_me = np.empty(levels, np.int64)
    at_op = np.empty(levels, np.int64)
    at_depth = np.empty(levels, np.int64)
    at_alpha = np.empty(levels, np.int64)
    at_beta = np.empty(levels, np.int64)
    at_best = np.empty(levels, np.int64)
    at_moved = np.zeros(levels, np.bool_)
    at_moves = np.empty((levels, 4), np.int64)  # the directions (0-3: N, E, S, W) to try, in order
    at_count = np.empty(levels, np.int64)
    at_next = np.empty(levels, np.int64)
    at_direction = np.empty(levels, np.int64)
    scores = np.empty(4, np.int64)
    steps = (-stride, 1, stride, -1)
    level = 0
    at_me[0], at_op[0], at_depth[0], at_alpha[0], at_beta[0] = me, op, depth, alpha, beta
    entering = True
    value = 0
    while True:
        mover = ours ^ ((level & 1) == 1)
        remaining = at_depth[level]
        if by_history:
            killer_slot = level  # by ply: a node has the same slot in every deeper search
        elif mover:
            killer_slot = KILLER_OFFSET + remaining
        else:
            killer_slot = KILLER_OFFSET - remaining - 1
        done = False
        if entering:
            counters[NODES] += 1
            if counters[NODES] > node_limit or (counters[NODES] & CLOCK_EVERY == 0 and perf_clock() > deadline):
                counters[TIMED_OUT] = 1
                for below in range(level):  # take back the moves on the way here
                    if ours ^ ((below & 1) == 1):
                        free[at_me[below + 1]] = 1
                    else:
                        free[at_op[below + 1]] = 1
                return 0
            at_moved[level] = False
            at_next[level] = 0
            at_count[level] = 0
            if mover:
                if remaining <= 0:
                    counters[HORIZON] += 1
                    value = evaluate(free, at_me[level], at_op[level], stride, evaluation, colour, cell_weight,
                                     edge_weight, counters, tags, scratch, chambers)
                    done = True
                else:
                    at_best[level] = -2 * WIN
            else:
                at_best[level] = 2 * WIN
                gap = at_op[level] - at_me[level]
                if simultaneous and (gap == 1 or gap == -1 or gap == stride or gap == -stride):
                    # It can enter the cell we just entered: both crash, a draw.
                    at_moved[level] = True
                    at_best[level] = draw
                    if draw < at_beta[level]:
                        at_beta[level] = draw
                        if at_alpha[level] >= at_beta[level]:
                            value = draw
                            done = True
            if not done:  # order the moves: the killer first, then by history (or N, E, S, W)
                head = at_me[level] if mover else at_op[level]
                killer = killers[killer_slot]
                side = 0 if mover else 1
                count = 0
                for direction in range(4):
                    if not free[head + steps[direction]]:
                        continue
                    if steps[direction] == killer:
                        score = 1 << 62
                    elif by_history:
                        score = history[side, 4 * head + direction]
                    else:
                        score = 0
                    place = count  # insertion keeps equal scores in N, E, S, W order
                    while place > 0 and scores[place - 1] < score:
                        scores[place] = scores[place - 1]
                        at_moves[level, place] = at_moves[level, place - 1]
                        place -= 1
                    scores[place] = score
                    at_moves[level, place] = direction
                    count += 1
                at_count[level] = count
        else:
            child = level + 1
            free[at_me[child] if mover else at_op[child]] = 1
            if mover:
                if value > at_best[level]:
                    at_best[level] = value
                    if value > at_alpha[level]:
                        at_alpha[level] = value
                        done = at_alpha[level] >= at_beta[level]
            elif value < at_best[level]:
                at_best[level] = value
                if value < at_beta[level]:
                    at_beta[level] = value
                    done = at_alpha[level] >= at_beta[level]
            if done:  # a cut-off: remember the move that made it
                direction = at_direction[level]
                killers[killer_slot] = steps[direction]
                if by_history:
                    head = at_me[level] if mover else at_op[level]
                    history[0 if mover else 1, 4 * head + direction] += remaining * remaining
                value = at_best[level]
        if not done:
            if at_next[level] < at_count[level]:
                direction = at_moves[level, at_next[level]]
                at_next[level] += 1
                at_direction[level] = direction
                at_moved[level] = True
                target = (at_me[level] if mover else at_op[level]) + steps[direction]
                free[target] = 0
                child = level + 1
                at_me[child] = target if mover else at_me[level]
                at_op[child] = at_op[level] if mover else target
                at_depth[child] = remaining - 1
                at_alpha[child] = at_alpha[level]
                at_beta[child] = at_beta[level]
                level += 1
                entering = True
                continue
            if not at_moved[level]:
                if mover:
                    value = -WIN - remaining
                    if simultaneous:
                        # We crash this round; the opponent crashes too (a draw) only if it has no move either.
                        them = at_op[level]
                        if not (free[them + 1] or free[them - 1] or free[them + stride] or free[them - stride]):
                            value = draw
                else:
                    value = WIN + remaining
            else:
                value = at_best[level]
        if level == 0:
            return value
        level -= 1
        entering = False


@lru_cache(maxsize=16)
def square_colours(stride: int, size: int) -> np.ndarray:
    """1 for the "black" squares of the checkerboard over a padded grid (as ``search.colour_mask``)."""
    index = np.arange(size)
    return ((index % stride + index // stride) & 1).astype(np.int64)


class CompiledSearch:
    """The compiled search for one grid: its scratch arrays, killer moves, history and evaluation.

    ``evaluation`` is ``"voronoi"`` or ``"chamber"`` (``cell_weight`` x parity-bounded cells plus
    ``edge_weight`` x edges of each territory); ``ordering`` is ``"killers"`` or ``"history"`` and ``draw``
    the value of a head-on draw, as for :class:`~arena.engines.tron.searcher.Searcher`. Killer moves and history
    scores carry over from one call to the next, as they do in the Python search.
    """

    def __init__(self, stride: int, size: int, evaluation: str, simultaneous: bool, cell_weight: int,
                 edge_weight: int, ordering: str = "killers", draw: int = DRAW):
        self.stride, self.size = stride, size
        self.draw = int(draw)
        self.evaluation = VORONOI if evaluation == "voronoi" else CHAMBER
        self.simultaneous = bool(simultaneous)
        self.cell_weight, self.edge_weight = int(cell_weight), int(edge_weight)
        self.by_history = ordering == "history"
        self.colour = square_colours(stride, size)
        self.killers = np.zeros(2 * KILLER_OFFSET + 2, np.int64)
        self.history = np.zeros((2, 4 * size), np.int64)
        self.counters = np.zeros(5, np.int64)
        self.tags = np.zeros(size, np.int64)
        self.scratch = np.zeros((2, size), np.int64)
        self.chambers = np.zeros((CHAMBER_ROWS, size), np.int64)
        self.nbytes = (size + 7) // 8

    def cells(self, free: int) -> np.ndarray:
        """The bitboard ``free`` as a writable array with 1 for each empty cell."""
        packed = np.frombuffer(free.to_bytes(self.nbytes, "little"), np.uint8)
        return np.unpackbits(packed, count=self.size, bitorder="little")

    def reply(self, free: int, me: int, op: int, depth: int, alpha: int, beta: int, deadline: float,
              node_limit: int | None = None) -> tuple[int, int, int, bool]:
        """Search the opponent's reply (as ``Searcher._reply``): ``(value, nodes, horizon leaves, timed out)``;
        it stops at the clock's ``deadline`` or on entering a node past the first ``node_limit`` (``None``: none)."""
        counters = self.counters
        limit = NO_NODE_LIMIT if node_limit is None else int(node_limit)
        counters[NODES] = counters[HORIZON] = counters[TIMED_OUT] = 0
        value = search(self.cells(free), me, op, depth, alpha, beta, False, self.simultaneous, self.stride,
                       self.evaluation, self.colour, self.cell_weight, self.edge_weight, self.by_history,
                       self.killers, self.history, counters, float(deadline), limit, self.tags, self.scratch,
                       self.chambers, self.draw)
        return int(value), int(counters[NODES]), int(counters[HORIZON]), bool(counters[TIMED_OUT])


def warm_up() -> int:
    """Load the compiled code (compiling it the first time on a machine: a few seconds; later, from the
    cache, a fraction of one), so that no move pays for it. Returns the fewest nodes a warm-up search
    visited.

    The searches are long enough to read the clock: the first reading runs numba's object-mode
    machinery, which otherwise costs the first real move tens of milliseconds.
    """
    stride, size = 7, 49  # a 5x5 room: every branch of the search, both evaluations and the clock
    free = sum(1 << (y * stride + x) for y in range(1, 6) for x in range(1, 6))
    me, op = stride + 1, 5 * stride + 5
    counts = []
    for evaluation, ordering in (("voronoi", "killers"), ("chamber", "history")):
        for simultaneous in (True, False):
            engine = CompiledSearch(stride, size, evaluation, simultaneous, 2, 7, ordering)
            _, nodes, _, _ = engine.reply(free & ~(1 << me) & ~(1 << op), me, op, 9, -2 * WIN, 2 * WIN,
                                          time.perf_counter() + 60)
            counts.append(nodes)
    return min(counts)
