"""Cat-and-mouse observations as arrays, for learning agents (see :mod:`arena.rl`).

An array is ``float32`` with shape ``(5, rows, columns)``, values in ``[0, 1]``. Planes, in order:

0. obstacles;
1. this seat's cell;
2. the other player's cell;
3. 1 everywhere if this seat is the cat, 0 if it is the mouse;
4. everywhere, the share of its move limit the mouse has used (0 with no limit).

Actions ``U``, ``D``, ``L``, ``R`` are 0-3; the mask marks the moves that stay on the board and off the
obstacles (none when it is not the seat's turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arena.games.catmouse.rules import MOVES

if TYPE_CHECKING:
    from arena.games.catmouse.game import CatMouseObservation

PLANES = 5


def catmouse_array(obs: CatMouseObservation) -> np.ndarray:
    """A :class:`~arena.games.catmouse.game.CatMouseObservation` as planes (see the module's documentation)."""
    planes = np.zeros((PLANES, obs.height, obs.width), dtype=np.float32)
    planes[0] = np.frombuffer(obs.blocked, dtype=np.uint8).reshape(obs.height, obs.width)
    x, y = obs.position
    planes[1, y, x] = 1
    x, y = obs.opponent
    planes[2, y, x] = 1
    planes[3] = obs.role == "cat"
    if obs.max_moves:
        planes[4] = min(obs.mouse_moves / obs.max_moves, 1.0)
    return planes


def catmouse_mask(obs: CatMouseObservation) -> np.ndarray:
    """1 for each of ``U``, ``D``, ``L``, ``R`` the seat may play now."""
    legal = set(obs.legal_moves()) if obs.to_move == obs.role else set()
    return np.array([move in legal for move in MOVES], dtype=np.int8)


def closeness(obs: CatMouseObservation) -> float:
    """How near the cat is to the mouse, in ``[0, 1]`` (1: same cell), by Manhattan distance."""
    (cx, cy), (mx, my) = obs.cat, obs.mouse
    share: float = (abs(cx - mx) + abs(cy - my)) / (obs.width + obs.height)
    return 1.0 - share
