"""Snafu games between a CLA (seat 0) and the pseudo-random opponent (seat 1), compiled with numba.

The rules are :mod:`arena.games.tron.snafu`'s on an open board: random distinct start cells and headings,
simultaneous moves, a deadly edge, both crashing in one round a tie. The opponent is the ``mindless`` bot:
straight while the cell ahead is empty, else a random turn among those onto an empty cell (``left`` listed
before ``right``), else any of the three moves. The CLA plays the table's decision when it dictates one
(:mod:`arena.engines.tron.snafu.table`) and the opponent's rule otherwise.

Randomness comes from numba's generator, seeded by :func:`seed_games`, so a sequence of games is a function
of its seed (and of nothing else the process has done, as long as nothing else draws from it in between).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from arena.engines.tron.snafu.features import FORWARD, PAPER_CODES, Cells, Codes, read_state
from arena.engines.tron.snafu.table import Scores, Vectors, decisive_entries, most_similar, select

STRAIGHT, RIGHT, LEFT = 0, 1, 2
Integers = npt.NDArray[np.int64]
"""Decisions, table entries, or the record of a game."""
TURN = np.array([0, 1, 3], dtype=np.int64)  # quarter turns clockwise for straight, right, left


@njit(cache=True)
def seed_games(seed: int) -> None:
    """Seed the generator the games draw from."""
    np.random.seed(seed)


@njit(cache=True)
def _ahead(x: int, y: int, heading: int, action: int) -> tuple[int, int, int]:
    direction = (heading + TURN[action]) % 4
    return x + FORWARD[direction, 0], y + FORWARD[direction, 1], direction


@njit(cache=True)
def _empty(cells: Cells, width: int, height: int, x: int, y: int) -> bool:
    return 0 <= x < width and 0 <= y < height and cells[(y + 1) * (width + 2) + x + 1] == 0


@njit(cache=True)
def mindless_move(cells: Cells, width: int, height: int, x: int, y: int, heading: int) -> int:
    """The pseudo-random opponent's decision (0 straight, 1 right, 2 left) at ``(x, y)`` facing ``heading``."""
    nx, ny, _ = _ahead(x, y, heading, STRAIGHT)
    if _empty(cells, width, height, nx, ny):
        return STRAIGHT
    safe = np.empty(2, dtype=np.int64)
    count = 0
    for action in (LEFT, RIGHT):  # the order of the bot's safe_moves()
        nx, ny, _ = _ahead(x, y, heading, action)
        if _empty(cells, width, height, nx, ny):
            safe[count] = action
            count += 1
    if count:
        chosen: int = safe[np.random.randint(count)]
        return chosen
    return (STRAIGHT, LEFT, RIGHT)[np.random.randint(3)]


@njit(cache=True)
def play_game(width: int, height: int, codes: Codes, units: Vectors, scores: Scores, size: int, c: float, t: float,
              states_out: Vectors, actions_out: Integers, record: Integers) -> tuple[int, int]:
    """Play one game under the paper's literal reading; return ``(outcome, rounds)`` with outcome 1 if the CLA
    won, -1 if it lost, 0 a tie.

    The CLA's state and decision of each round go to ``states_out`` and ``actions_out`` (as many rows as
    rounds). ``record`` (at least ``4 + 2 * width * height`` integers) receives the start (the two cells as
    ``y * width + x`` and the two headings) and then the opponent's decisions, so a test can replay the game.
    """
    kept = np.zeros(actions_out.shape[0], dtype=np.int64)
    return play_read_game(width, height, codes, PAPER_CODES, units, scores, size, c, t, states_out, actions_out,
                          kept, record)


@njit(cache=True)
def play_read_game(width: int, height: int, codes: Codes, reading: Codes, units: Vectors, scores: Scores, size: int,
                   c: float, t: float, states_out: Vectors, actions_out: Integers, kept_out: Integers, record: Integers
                   ) -> tuple[int, int]:
    """:func:`play_game` under the switches ``reading`` (:meth:`arena.engines.tron.snafu.reading.Reading.codes`).

    The state is read with them; with ``reading[2]`` (dictation ``safe``) a decision of the table onto an
    occupied cell is replaced by the opponent's rule. ``kept_out[i]`` says where round ``i`` goes in the table:
    -1 to the entry of exactly its state (every round; with ``reading[4] == 1``, growth ``turns``, only the
    rounds that began with the cell ahead occupied, the others get -2: nowhere), or with ``reading[4] == 2``
    (growth ``matched``) the entry it matched (the most similar one, the earliest on a tie, if that similarity
    is at least ``c``), -1 when it matched none.
    """
    cells = np.zeros((width + 2) * (height + 2), dtype=np.uint8)
    stride = width + 2
    for i in range(cells.shape[0]):
        cx, cy = i % stride, i // stride
        if cx == 0 or cy == 0 or cx == width + 1 or cy == height + 1:
            cells[i] = 2
    first = np.random.randint(width * height)
    second = np.random.randint(width * height - 1)
    if second >= first:
        second += 1
    headings = np.random.randint(0, 4, 2)
    x0, y0 = first % width, first // width
    x1, y1 = second % width, second // width
    h0, h1 = headings[0], headings[1]
    record[0], record[1], record[2], record[3] = first, second, h0, h1
    cells[(y0 + 1) * stride + x0 + 1] = 3
    cells[(y1 + 1) * stride + x1 + 1] = 4
    unit = np.zeros(states_out.shape[1])
    decisive = decisive_entries(scores, size, t)  # scores change between games, never during one
    turn = 0
    while True:
        state = states_out[turn]
        read_state(cells, width, height, x0, y0, h0, x1, y1, turn, codes, reading, state)
        action = select(units, scores, size, decisive, state, unit, c, t)
        if action >= 0 and reading[2]:
            nx, ny, _ = _ahead(x0, y0, h0, action)
            if not _empty(cells, width, height, nx, ny):
                action = -1
        if action < 0:
            action = mindless_move(cells, width, height, x0, y0, h0)
        if reading[4] == 1:
            nx, ny, _ = _ahead(x0, y0, h0, STRAIGHT)
            kept_out[turn] = -2 if _empty(cells, width, height, nx, ny) else -1
        elif reading[4] == 2:
            kept_out[turn] = most_similar(units, size, state, unit, c)
        else:
            kept_out[turn] = -1
        reply = mindless_move(cells, width, height, x1, y1, h1)
        actions_out[turn] = action
        record[4 + turn] = reply
        turn += 1
        x0, y0, h0 = _ahead(x0, y0, h0, action)
        x1, y1, h1 = _ahead(x1, y1, h1, reply)
        crash0 = not _empty(cells, width, height, x0, y0)
        crash1 = not _empty(cells, width, height, x1, y1)
        if x0 == x1 and y0 == y1:
            crash0 = crash1 = True
        if crash0 or crash1:
            if crash0 and crash1:
                return 0, turn
            return (-1 if crash0 else 1), turn
        cells[(y0 + 1) * stride + x0 + 1] = 3
        cells[(y1 + 1) * stride + x1 + 1] = 4
