"""Tron and Snafu observations as arrays of planes, for learning agents (see :mod:`arena.rl`).

An array is ``float32`` with shape ``(planes, rows, columns)``, every value 0 or 1 (a few planes hold one
number everywhere). Planes, in order:

0. walls: ``#`` cells, and with ``centered`` every cell off the board;
1. this seat's trail, its head included;
2. the other seats' trails, heads included;
3. this seat's head;
4. the other seats' heads.

With powerups on (``powerups = on``) eight more: 5. ``x`` barriers a trap put down; 6-9. a trap, bomb,
armor or speed powerup on the cell; 10. 1 everywhere if this seat holds armor; 11. 1 everywhere if it holds
a speed boost; 12. 1 everywhere while it is on a speed run (more than one move in a row).

Snafu adds two: 5. the cell this seat's ``straight`` leads to; 6. the cell the other seat's leads to.

``centered = False`` (the default) gives the board as it is, ``height x width``. ``centered = True`` gives
a ``(2 height - 1) x (2 width - 1)`` window with this seat's head in the middle, so the same pattern reads
the same wherever the head is; in Snafu the window also turns so that the seat's heading points up, so
``straight`` always means up, ``left`` left and ``right`` right. A seat that is out sees the window
around the board's middle.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from arena.games.tron.observation import PowerupObservation, TronObservation
from arena.games.tron.rules import BARRIER, DEAD, DIRECTIONS, EMPTY, TRAIL, WALL

if TYPE_CHECKING:
    from arena.games.tron.snafu import SnafuObservation

POWERUP_KINDS = ("trap", "bomb", "armor", "speed")
BASE_PLANES = 5
POWERUP_PLANES = 8
SNAFU_PLANES = 2


def _grid(obs: TronObservation) -> np.ndarray:
    """The cells of the board without the padding, ``height x width``."""
    cells = np.frombuffer(obs.cells, dtype=np.uint8).reshape(obs.height + 2, obs.stride)
    return cells[1:-1, 1:-1]


def _yx(obs: TronObservation, index: int) -> tuple[int, int]:
    y, x = divmod(index, obs.stride)
    return y - 1, x - 1


def board_planes(obs: TronObservation, extra: int = 0) -> np.ndarray:
    """The five base planes of a Tron observation (plus powerup planes if it has powerups), not centred,
    with ``extra`` empty planes at the end for the caller to fill."""
    grid = _grid(obs)
    powerups = isinstance(obs, PowerupObservation)
    count = BASE_PLANES + (POWERUP_PLANES if powerups else 0) + extra
    planes = np.zeros((count, obs.height, obs.width), dtype=np.float32)
    own = TRAIL + obs.seat
    planes[0] = grid == WALL
    planes[1] = grid == own
    planes[2] = (grid >= TRAIL) & (grid < BARRIER) & (grid != own)
    for seat, head in enumerate(obs.heads):
        if head != DEAD:
            planes[3 if seat == obs.seat else 4][_yx(obs, head)] = 1
    if isinstance(obs, PowerupObservation):
        planes[5] = grid == BARRIER
        for index, kind in obs.placed:
            planes[6 + POWERUP_KINDS.index(kind)][_yx(obs, index)] = 1
        planes[10] = obs.armor[obs.seat]
        planes[11] = obs.speed[obs.seat]
        planes[12] = obs.run_left > 1
    return planes


def center(planes: np.ndarray, obs: TronObservation) -> np.ndarray:
    """A ``(2 height - 1) x (2 width - 1)`` window of ``planes`` around the seat's head; off the board is wall
    (plane 0), empty on every other plane."""
    count, height, width = planes.shape
    window = np.zeros((count, 2 * height - 1, 2 * width - 1), dtype=np.float32)
    window[0] = 1
    head = obs.heads[obs.seat]
    y, x = _yx(obs, head) if head != DEAD else (height // 2, width // 2)
    top, left = height - 1 - y, width - 1 - x
    window[:, top:top + height, left:left + width] = planes
    return window


def tron_array(obs: TronObservation, centered: bool = False) -> np.ndarray:
    """A Tron observation as planes (see the module's documentation)."""
    planes = board_planes(obs)
    return center(planes, obs) if centered else planes


def snafu_array(obs: SnafuObservation, centered: bool = False) -> np.ndarray:
    """A Snafu observation as planes: Tron's five and the two cells ``straight`` leads to; centred and turned
    so that the seat's heading points up when ``centered``."""
    planes = board_planes(obs, extra=SNAFU_PLANES)
    for seat, head in enumerate(obs.heads):
        if head == DEAD:
            continue
        heading = DIRECTIONS.index(obs.headings[seat])
        step = {0: -obs.stride, 1: 1, 2: obs.stride, 3: -1}[heading]
        y, x = _yx(obs, head + step)
        if 0 <= y < obs.height and 0 <= x < obs.width:
            planes[BASE_PLANES + (0 if seat == obs.seat else 1), y, x] = 1
    if not centered:
        return planes
    window = center(planes, obs)
    turns = DIRECTIONS.index(obs.heading)
    return np.ascontiguousarray(np.rot90(window, k=turns, axes=(1, 2)))


def all_legal(count: int) -> np.ndarray:
    """A mask of ``count`` ones: in Tron every move is legal (a fatal one just crashes)."""
    return np.ones(count, dtype=np.int8)


def reachable_share(cells: bytes | bytearray, stride: int, head: int, free_cells: int) -> float:
    """The share of the board's free cells reachable from ``head`` (a flood fill through empty cells)."""
    if head == DEAD or free_cells == 0:
        return 0.0
    seen = {head}
    queue = deque([head])
    steps = (-stride, 1, stride, -1)
    while queue:
        here = queue.popleft()
        for step in steps:
            there = here + step
            if there not in seen and cells[there] == EMPTY:
                seen.add(there)
                queue.append(there)
    return (len(seen) - 1) / free_cells


def out_rank(out_turn: list[int | None], seat: int) -> int | None:
    """The final rank of a seat that is out (1 + the seats out later or still in), ``None`` while it plays."""
    mine = out_turn[seat]
    if mine is None:
        return None
    return 1 + sum(1 for other, turn in enumerate(out_turn) if other != seat and (turn is None or turn > mine))
