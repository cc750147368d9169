"""The space-filling endgame of :meth:`arena.engines.tron.searcher.Searcher.fill_root`, compiled with numba.

Once the players are cut off, ``chamber`` tries move sequences of its head alone to a depth and scores
what is left with :func:`~arena.engines.tron.evaluation.chamber_space`. In Python that search visits about
25,000 nodes a CPU second in open regions; this one searches exactly the same tree (the same moves in
the same order, the same node counts, the same leaf values) many times faster.

The position is a flat ``uint8`` array of the padded grid (1 for an empty cell), changed in place as
moves are made and unmade. Both the search and the leaf estimate run on explicit stacks, since numba
can't cache recursive functions on disk. ``counters`` is shared with the caller: ``[nodes, timed out,
epoch]``; the epoch numbers the marks of each region walk and flood fill, so the work arrays never need
clearing.

The leaf estimate, as :func:`~arena.engines.tron.evaluation.chamber_space` computes it: the head's region
(the free cells it reaches) minus its articulation points falls apart into *rooms* (connected
components, which no choice of path changes). From an entry (the head, or an articulation point) the
walk may enter an adjacent room, worth its parity-bounded cells, and leave it through one of the room's
other articulation points (one more move, then the best walk from there), or step straight onto an
adjacent articulation point; rooms and points used on the way are closed to the rest of the walk. The
value is the best such walk; more than 150 entries deep it counts the cells still reachable instead.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from arena.engines.tron.compiled import Board, Work, perf_clock, square_colours

NODES, TIMED_OUT, EPOCH = 0, 1, 2
CLOCK_EVERY = 63  # look at the clock when ``nodes & CLOCK_EVERY == 0``
NO_NODE_LIMIT = 1 << 62
MAX_CHAIN = 150  # past this many entries deep, chamber_space counts reachable cells instead
FRAMES = MAX_CHAIN + 2

# Rows of the ``cells`` work array.
STAMP, ORDER, LOW, LABEL, USED, STACK_CELL, STACK_NEXT, REGION, QUEUE, SEEN = range(10)
CELL_ROWS = 10
# Rows of the ``rooms`` work array (indexed by room number, 1 up).
COUNT, BLACKS, TAKEN, ADJ_START = range(4)
ROOM_ROWS = 4
# Rows of the ``frames`` work array (one column per entry of the walk).
ENTRY, VALUE, TASK_NEXT, TASK_END = range(4)
FRAME_ROWS = 4
# Rows of the ``tasks`` work array: the moves an entry can go on with (a cell, the room it passes, the moves
# counted on the way).
TASK_CELL, TASK_ROOM, TASK_ADD = range(3)
TASK_ROWS = 3


@njit(cache=True)
def _parity(count: int, blacks: int, head_colour: int) -> int:
    """:func:`~arena.engines.tron.bitboards.parity_bound` of a room of ``count`` cells, ``blacks`` of them black."""
    whites = count - blacks
    if head_colour:
        other, same = whites, blacks
    else:
        other, same = blacks, whites
    return 2 * min(other, same) + (1 if other > same else 0)


@njit(cache=True)
def _reachable(free: Board, entry: int, stride: int, epoch: int, cells: Work, rooms: Work) -> int:
    """The free cells reachable from ``entry`` (itself not counted) through rooms and points not yet used."""
    seen, queue, label, used = cells[SEEN], cells[QUEUE], cells[LABEL], cells[USED]
    taken = rooms[TAKEN]
    seen[entry] = epoch
    queue[0] = entry
    size = 1
    index = 0
    while index < size:
        cell = queue[index]
        index += 1
        for step in (-stride, 1, stride, -1):
            nxt = cell + step
            if not free[nxt] or seen[nxt] == epoch:
                continue
            room = label[nxt]
            if (room < 0 and used[nxt]) or (room > 0 and taken[room]):
                continue
            seen[nxt] = epoch
            queue[size] = nxt
            size += 1
    return size - 1


@njit(cache=True)
def _grown(tasks: Work, needed: int) -> Work:
    """``tasks`` with room for at least ``needed`` columns (a copy when it has to grow)."""
    if needed <= tasks.shape[1]:
        return tasks
    bigger = np.empty((TASK_ROWS, max(needed, 2 * tasks.shape[1])), np.int64)
    bigger[:, :tasks.shape[1]] = tasks
    return bigger


@njit(cache=True)
def chamber_space(free: Board, head: int, stride: int, colour: Work, counters: Work, cells: Work, rooms: Work,
                  adjacent: Work, frames: Work, tasks: Work) -> int:
    """The value of :func:`arena.engines.tron.evaluation.chamber_space` for the head at ``head`` (not free) in ``free``.

    Tarjan's low links from the head find the articulation points of its region; a breadth-first search
    numbers the rooms between them (``LABEL``: -1 for a point, the room's number for other cells) and
    counts their cells; each room lists the points next to it (``adjacent``, from ``rooms[ADJ_START]``);
    then the walk of the module docstring runs on an explicit stack of entries (``frames``), each with its
    list of moves to try (``tasks``).
    """
    stamp, order, low, label = cells[STAMP], cells[ORDER], cells[LOW], cells[LABEL]
    used, stack_cell, stack_next, region = cells[USED], cells[STACK_CELL], cells[STACK_NEXT], cells[REGION]
    queue = cells[QUEUE]
    steps = (-stride, 1, stride, -1)
    epoch = counters[EPOCH] + 1
    counters[EPOCH] = epoch
    # Articulation points: a non-root cell with a child whose subtree reaches nothing above it.
    stamp[head] = epoch
    order[head] = low[head] = 0
    numbered = 1
    members = 0
    top = 0
    stack_cell[0] = head
    stack_next[0] = 0
    while top >= 0:
        cell = stack_cell[top]
        direction = stack_next[top]
        if direction < 4:
            stack_next[top] = direction + 1
            nxt = cell + steps[direction]
            if not free[nxt] and nxt != head:
                continue
            if stamp[nxt] != epoch:
                stamp[nxt] = epoch
                order[nxt] = low[nxt] = numbered
                numbered += 1
                label[nxt] = 0
                region[members] = nxt
                members += 1
                top += 1
                stack_cell[top] = nxt
                stack_next[top] = 0
            elif (top == 0 or nxt != stack_cell[top - 1]) and order[nxt] < low[cell]:
                low[cell] = order[nxt]
        else:
            top -= 1
            if top >= 0:
                parent = stack_cell[top]
                if low[cell] < low[parent]:
                    low[parent] = low[cell]
                if parent != head and low[cell] >= order[parent]:
                    label[parent] = -1
    # Rooms: the connected parts of the region without its articulation points.
    count, blacks, taken, adj_start = rooms[COUNT], rooms[BLACKS], rooms[TAKEN], rooms[ADJ_START]
    room_count = 0
    for index in range(members):
        start = region[index]
        if label[start] != 0:
            continue
        room_count += 1
        label[start] = room_count
        queue[0] = start
        size = 1
        black = 0
        at = 0
        while at < size:
            cell = queue[at]
            at += 1
            black += colour[cell]
            for step in steps:
                nxt = cell + step
                if stamp[nxt] == epoch and nxt != head and label[nxt] == 0:
                    label[nxt] = room_count
                    queue[size] = nxt
                    size += 1
        count[room_count] = size
        blacks[room_count] = black
        taken[room_count] = 0
        adj_start[room_count] = 0
    # Each room's articulation points, in one array: room r's are adjacent[adj_start[r]:adj_start[r + 1]].
    adj_start[0] = 0
    adj_start[room_count + 1] = 0
    for phase in range(2):
        for index in range(members):
            point = region[index]
            if label[point] != -1:
                continue
            used[point] = 0
            for direction in range(4):
                nxt = point + steps[direction]
                if stamp[nxt] != epoch or nxt == head:
                    continue
                room = label[nxt]
                if room <= 0:
                    continue
                repeated = False
                for earlier in range(direction):
                    before = point + steps[earlier]
                    if stamp[before] == epoch and before != head and label[before] == room:
                        repeated = True
                if repeated:
                    continue
                if phase == 0:
                    adj_start[room + 1] += 1
                else:
                    adjacent[adj_start[room]] = point
                    adj_start[room] += 1
        if phase == 0:
            for room in range(1, room_count + 2):
                adj_start[room] += adj_start[room - 1]
        else:  # filling moved each start to the next room's: move them back
            for room in range(room_count + 1, 0, -1):
                adj_start[room] = adj_start[room - 1]
            adj_start[0] = 0
    # The walk over rooms and points.
    entry_of, value_of, task_next, task_end = frames[ENTRY], frames[VALUE], frames[TASK_NEXT], frames[TASK_END]
    level = 0
    entry = head
    free_task = 0
    while True:
        # Enter ``entry`` at ``level``: list the moves it can go on with.
        entry_of[level] = entry
        task_next[level] = free_task
        value = 0
        if level > MAX_CHAIN:
            counters[EPOCH] += 1
            value = _reachable(free, entry, stride, counters[EPOCH], cells, rooms)
        else:
            tasks = _grown(tasks, free_task + 4 * members + 8)
            entry_colour = colour[entry]
            first_room = -1
            second_room = -1
            third_room = -1
            for step in steps:
                nxt = entry + step
                if stamp[nxt] != epoch or nxt == head:
                    continue
                room = label[nxt]
                if room < 0:
                    continue
                if taken[room] or room == first_room or room == second_room or room == third_room:  # noqa: SIM109 - numba
                    continue
                if first_room < 0:
                    first_room = room
                elif second_room < 0:
                    second_room = room
                else:
                    third_room = room
                inner = _parity(count[room], blacks[room], entry_colour)
                if inner > value:
                    value = inner
                for index in range(adj_start[room], adj_start[room + 1]):
                    point = adjacent[index]
                    if not used[point]:
                        tasks[TASK_CELL, free_task] = point
                        tasks[TASK_ROOM, free_task] = room
                        tasks[TASK_ADD, free_task] = inner + 1
                        free_task += 1
            for step in steps:
                nxt = entry + step
                if stamp[nxt] == epoch and nxt != head and label[nxt] < 0 and not used[nxt]:
                    tasks[TASK_CELL, free_task] = nxt
                    tasks[TASK_ROOM, free_task] = 0
                    tasks[TASK_ADD, free_task] = 1
                    free_task += 1
        value_of[level] = value
        task_end[level] = free_task
        # Go on with the next move of the deepest entry that has one, closing entries that have none.
        while True:
            if task_next[level] < task_end[level]:
                task = task_next[level]
                task_next[level] = task + 1
                entry = tasks[TASK_CELL, task]
                room = tasks[TASK_ROOM, task]
                if room > 0:
                    taken[room] = 1
                used[entry] = 1
                level += 1
                break
            done: int = value_of[level]
            if level == 0:
                return done
            free_task = task_end[level - 1]
            level -= 1
            task = task_next[level] - 1
            used[tasks[TASK_CELL, task]] = 0
            room = tasks[TASK_ROOM, task]
            if room > 0:
                taken[room] = 0
            if tasks[TASK_ADD, task] + done > value_of[level]:
                value_of[level] = tasks[TASK_ADD, task] + done


@njit(cache=True)
def fill(free: Board, me: int, depth: int, stride: int, colour: Work, counters: Work, deadline: float, node_limit: int,
         cells: Work, rooms: Work, adjacent: Work, frames: Work, tasks: Work) -> int:
    """The value of ``Searcher.fill(free, me, depth)``: the most moves the head at ``me`` makes alone, searched
    ``depth`` moves (N, E, S, W) and then estimated by :func:`chamber_space`.

    Every call of the Python search is a node here too. If the search enters a node past its first
    ``node_limit`` or the clock passes ``deadline``, ``counters[TIMED_OUT]`` is set, ``free`` is restored and
    the value returned is 0.
    """
    steps = (-stride, 1, stride, -1)
    at_cell = np.empty(depth + 2, np.int64)
    at_direction = np.empty(depth + 2, np.int64)
    at_best = np.empty(depth + 2, np.int64)
    level = 0
    at_cell[0] = me
    entering = True
    value = 0
    while True:
        if entering:
            counters[NODES] += 1
            if counters[NODES] > node_limit or (counters[NODES] & CLOCK_EVERY == 0 and perf_clock() > deadline):
                counters[TIMED_OUT] = 1
                for below in range(1, level + 1):
                    free[at_cell[below]] = 1
                return 0
            entering = False
            if level < depth:
                at_direction[level] = 0
                at_best[level] = 0
                continue
            value = chamber_space(free, at_cell[level], stride, colour, counters, cells, rooms, adjacent, frames,
                                  tasks)  # a leaf
        elif at_direction[level] < 4:
            target = at_cell[level] + steps[at_direction[level]]
            at_direction[level] += 1
            if free[target]:
                free[target] = 0
                level += 1
                at_cell[level] = target
                entering = True
            continue
        else:
            value = at_best[level]  # every move from here tried
        # hand the value back to the level above
        if level == 0:
            return value
        level -= 1
        free[at_cell[level + 1]] = 1
        if value + 1 > at_best[level]:
            at_best[level] = value + 1


class CompiledFill:
    """The compiled space-filling search for one grid, with its work arrays."""

    def __init__(self, stride: int, size: int):
        self.stride, self.size = stride, size
        self.colour = square_colours(stride, size)
        self.counters = np.zeros(3, np.int64)
        self.cells = np.zeros((CELL_ROWS, size), np.int64)
        self.rooms = np.zeros((ROOM_ROWS, size + 2), np.int64)
        self.adjacent = np.zeros(4 * size, np.int64)
        self.frames = np.zeros((FRAME_ROWS, FRAMES + 1), np.int64)
        self.tasks = np.zeros((TASK_ROWS, 8 * size + 64), np.int64)
        self.nbytes = (size + 7) // 8

    def board(self, free: int) -> np.ndarray:
        """The bitboard ``free`` as a writable array with 1 for each empty cell."""
        packed = np.frombuffer(free.to_bytes(self.nbytes, "little"), np.uint8)
        return np.unpackbits(packed, count=self.size, bitorder="little")

    def chamber_space(self, board: np.ndarray, head: int) -> int:
        """:func:`arena.engines.tron.evaluation.chamber_space` of the head at ``head`` on ``board`` (:meth:`board`)."""
        return int(chamber_space(board, head, self.stride, self.colour, self.counters, self.cells, self.rooms,
                                 self.adjacent, self.frames, self.tasks))

    def fill(self, board: np.ndarray, me: int, depth: int, deadline: float,
             node_limit: int | None = None) -> tuple[int, int, bool]:
        """``Searcher.fill`` from the head at ``me`` on ``board``: ``(value, nodes, timed out)``; it stops at the
        clock's ``deadline`` or on entering a node past the first ``node_limit`` (``None``: none)."""
        counters = self.counters
        counters[NODES] = counters[TIMED_OUT] = 0
        limit = NO_NODE_LIMIT if node_limit is None else int(node_limit)
        value = fill(board, me, depth, self.stride, self.colour, counters, float(deadline), limit, self.cells,
                     self.rooms, self.adjacent, self.frames, self.tasks)
        return int(value), int(counters[NODES]), bool(counters[TIMED_OUT])


def warm_up() -> int:
    """Load the compiled fill search (compiling it the first time on a machine), so that no move pays for it.
    Returns the nodes the warm-up search visited."""
    stride, size = 8, 64  # a 6x6 room with a wall across it and a door
    cells = {y * stride + x for y in range(1, 7) for x in range(1, 7)} - {3 * stride + x for x in range(1, 6)}
    engine = CompiledFill(stride, size)
    board = engine.board(sum(1 << cell for cell in cells))
    me = stride + 1
    board[me] = 0
    _, nodes, _ = engine.fill(board, me, 4, time.perf_counter() + 60)
    return nodes
