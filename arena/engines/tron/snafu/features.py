"""The CLA's state features (Cloppert 2007, section 4.2), relative to the automaton's heading.

Each feature is a few numbers; a feature set (``WR``, ``PR``, ``PO``, ``POWR``, or any other string of the
letters ``P``, ``O``, ``W``, ``R`` without repeats) concatenates them in the order written:

* ``P`` (2 numbers): the free cells between the head and the board's edge straight ahead, then to the right,
  each divided by the board's dimension along that axis (height for a north or south heading);
* ``O`` (2): the opponent's offset from the head, ``x`` toward our right and ``y`` straight ahead, each divided
  by the board's dimension along that axis;
* ``W`` (3): the share of occupied cells (walls, trails and heads) in the half-planes ahead, to the left and to
  the right of the head (the head's own row or column excluded); a half-plane without cells, at the edge,
  counts as fully walled (1);
* ``R`` (1): the round number, 1 at the first move, not normalised (as in the paper).

That is the paper's literal reading (:func:`state_vector`); :func:`read_state` also takes the readings of
:mod:`.reading` that change a feature (P up to the first occupied cell, R over the board's cells, W along
rays).

The grid is the arena's padded flat Tron grid (:mod:`arena.games.tron.rules`): 0 is an empty cell, anything
else is occupied; headings are indices into ``("N", "E", "S", "W")``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from arena.core.errors import ArenaError

Cells = npt.NDArray[np.uint8]
"""The board, padded, flat: 0 for an empty cell."""
Codes = npt.NDArray[np.int64]
"""Feature codes, or the switches of a reading."""
Vector = npt.NDArray[np.float64]
"""A state vector."""

LETTERS = "POWR"
SIZES = {"P": 2, "O": 2, "W": 3, "R": 1}
# Unit steps (dx, dy) per heading, y growing southward: forward, and right (a quarter turn clockwise).
FORWARD = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], dtype=np.int64)
RIGHT = np.array([[1, 0], [0, 1], [-1, 0], [0, -1]], dtype=np.int64)


def parse_feature_set(text: str) -> np.ndarray:
    """The codes (0 P, 1 O, 2 W, 3 R) of a feature set such as ``"POWR"``; an :class:`ArenaError` otherwise."""
    letters = text.strip().upper()
    if not letters or any(letter not in LETTERS for letter in letters) or len(set(letters)) != len(letters):
        raise ArenaError(f"feature set {text!r} is not a string of distinct letters among P, O, W, R "
                         "(such as POWR)")
    return np.array([LETTERS.index(letter) for letter in letters], dtype=np.int64)


def dimension(codes: np.ndarray) -> int:
    """How many numbers the state vector of feature codes ``codes`` holds."""
    return sum(SIZES[LETTERS[int(code)]] for code in codes)


PAPER_CODES = np.zeros(6, dtype=np.int64)  # arena.engines.tron.snafu.reading.PAPER.codes()


@njit(cache=True)
def state_vector(cells: Cells, width: int, height: int, x: int, y: int, heading: int, ox: int, oy: int, turn: int,
                 codes: Codes, out: Vector) -> None:
    """Write into ``out`` the state of the player at ``(x, y)`` facing ``heading`` (0 N, 1 E, 2 S, 3 W), the
    opponent at ``(ox, oy)``, before the move of round ``turn + 1``, for the feature ``codes``, read as the
    paper writes it."""
    read_state(cells, width, height, x, y, heading, ox, oy, turn, codes, PAPER_CODES, out)


@njit(cache=True)
def read_state(cells: Cells, width: int, height: int, x: int, y: int, heading: int, ox: int, oy: int, turn: int,
               codes: Codes, reading: Codes, out: Vector) -> None:
    """:func:`state_vector` under the switches ``reading`` (:meth:`.reading.Reading.codes`): P up to the first
    occupied cell when ``reading[0]`` (perception ``trails``), R divided by the board's cells when
    ``reading[1]`` (round ``scaled``), W along rays when ``reading[3]`` (walls ``rays``)."""
    fx, fy = FORWARD[heading, 0], FORWARD[heading, 1]
    rx, ry = RIGHT[heading, 0], RIGHT[heading, 1]
    ahead_size = height if fy != 0 else width  # the board's dimension along the heading
    right_size = width if rx != 0 else height
    position = 0
    for code in codes:
        if code == 0:
            if reading[0]:
                out[position] = _to_occupied(cells, width, x, y, fx, fy) / ahead_size
                out[position + 1] = _to_occupied(cells, width, x, y, rx, ry) / right_size
            else:
                out[position] = _to_edge(x, y, fx, fy, width, height) / ahead_size
                out[position + 1] = _to_edge(x, y, rx, ry, width, height) / right_size
            position += 2
        elif code == 1:
            dx, dy = ox - x, oy - y
            out[position] = (dx * rx + dy * ry) / right_size
            out[position + 1] = (dx * fx + dy * fy) / ahead_size
            position += 2
        elif code == 2:
            if reading[3]:
                out[position] = _ray_share(cells, width, height, x, y, fx, fy)
                out[position + 1] = _ray_share(cells, width, height, x, y, -rx, -ry)
                out[position + 2] = _ray_share(cells, width, height, x, y, rx, ry)
            else:
                _wall_shares(cells, width, height, x, y, fx, fy, rx, ry, out, position)
            position += 3
        else:
            out[position] = (turn + 1.0) / (width * height) if reading[1] else turn + 1.0
            position += 1


@njit(cache=True)
def _to_occupied(cells: Cells, width: int, x: int, y: int, dx: int, dy: int) -> int:
    """Free cells between ``(x, y)`` and the first occupied cell (or the edge) in direction ``(dx, dy)``."""
    stride = width + 2
    count = 0
    cx, cy = x + dx, y + dy
    while cells[(cy + 1) * stride + cx + 1] == 0:  # the padding is occupied, so this stops at the edge
        count += 1
        cx, cy = cx + dx, cy + dy
    return count


@njit(cache=True)
def _ray_share(cells: Cells, width: int, height: int, x: int, y: int, dx: int, dy: int) -> float:
    """The occupied share of the cells from ``(x, y)`` (excluded) to the edge in direction ``(dx, dy)``; 1 when
    there are none."""
    stride = width + 2
    total = occupied = 0
    cx, cy = x + dx, y + dy
    while 0 <= cx < width and 0 <= cy < height:
        total += 1
        occupied += 1 if cells[(cy + 1) * stride + cx + 1] != 0 else 0
        cx, cy = cx + dx, cy + dy
    return occupied / total if total else 1.0


@njit(cache=True)
def _to_edge(x: int, y: int, dx: int, dy: int, width: int, height: int) -> int:
    """Free cells (of the board, walls or not) between ``(x, y)`` and the edge in direction ``(dx, dy)``."""
    if dx > 0:
        return width - 1 - x
    if dx < 0:
        return x
    if dy > 0:
        return height - 1 - y
    return y


@njit(cache=True)
def _wall_shares(cells: Cells, width: int, height: int, x: int, y: int, fx: int, fy: int, rx: int, ry: int, out: Vector,
                 position: int) -> None:
    """The occupied shares of the half-planes ahead, left and right, into ``out[position:position + 3]``."""
    stride = width + 2
    ahead = left = right = 0
    ahead_walls = left_walls = right_walls = 0
    for cy in range(height):
        base = (cy + 1) * stride + 1
        for cx in range(width):
            dx, dy = cx - x, cy - y
            forward = dx * fx + dy * fy
            side = dx * rx + dy * ry
            occupied = 1 if cells[base + cx] != 0 else 0
            if forward > 0:
                ahead += 1
                ahead_walls += occupied
            if side < 0:
                left += 1
                left_walls += occupied
            elif side > 0:
                right += 1
                right_walls += occupied
    out[position] = ahead_walls / ahead if ahead else 1.0
    out[position + 1] = left_walls / left if left else 1.0
    out[position + 2] = right_walls / right if right else 1.0
