"""Pawn-race observations as arrays, for learning agents (see :mod:`arena.rl`).

Both sides see the board from white's corner: black's view is turned half a circle, so a policy learnt
for one side plays the other. An array is ``float32`` with shape ``(6, n, n)``, indexed ``[plane, y, x]``
with ``(0, 0)`` the seat's own base corner. Planes, in order:

0. this seat's pawns; 1. the other side's pawns; 2. this seat's base; 3. the other base;
4. everywhere, this seat's waiting pawns / 12; 5. everywhere, the other side's waiting pawns / 12.

Actions are numbered once per board, in the seat's own frame: for each square ``(x, y)`` row by row and
each step right, left, up, down that stays on the board, the move of a pawn from that square by that
step; then a pawn leaving the base onto each exit square. Most are never legal (a pawn never steps back
towards its base); the mask marks the legal ones.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from arena.games.pawnrace.rules import BASE, STEPS, WHITE, Setup, Square, move_name

if TYPE_CHECKING:
    from arena.games.pawnrace.game import PawnRaceObservation

PLANES = 6
MAX_PAWNS = 12


def _own(square: tuple[int, int], n: int, seat: int) -> tuple[int, int]:
    """A square in the seat's own frame (turned half a circle for black)."""
    x, y = square
    return (x, y) if seat == WHITE else (n - 1 - x, n - 1 - y)


@lru_cache(maxsize=64)
def action_table(n: int, a: int, seat: int) -> tuple[str, ...]:
    """The move each action index names for ``seat`` on an ``n x n`` board with ``a x a`` bases."""
    setup = Setup(n, a)
    moves: list[tuple[Square | str, Square]] = []
    for y in range(n):
        for x in range(n):
            for dx, dy in STEPS:
                if 0 <= x + dx < n and 0 <= y + dy < n:
                    moves.append(((x, y), (x + dx, y + dy)))
    moves += [(BASE, exit_) for exit_ in setup.exits(WHITE)]
    real = [(origin if isinstance(origin, str) else _own(origin, n, seat), _own(target, n, seat))  # str: BASE
            for origin, target in moves]
    return tuple(move_name(move) for move in real)


def pawnrace_array(obs: PawnRaceObservation) -> np.ndarray:
    """A :class:`~arena.games.pawnrace.game.PawnRaceObservation` as planes (see the module's documentation)."""
    n, a, seat = obs.n, obs.a, obs.seat
    planes = np.zeros((PLANES, n, n), dtype=np.float32)
    for plane, squares in ((0, obs.mine), (1, obs.theirs)):
        for square in squares:
            x, y = _own(square, n, seat)
            planes[plane, y, x] = 1
    planes[2, :a, :a] = 1
    planes[3, n - a:, n - a:] = 1
    planes[4] = obs.waiting / MAX_PAWNS
    planes[5] = obs.their_waiting / MAX_PAWNS
    return planes


def pawnrace_mask(obs: PawnRaceObservation) -> np.ndarray:
    """1 for each action index whose move is legal now."""
    legal = set(obs.legal)
    return np.array([move in legal for move in action_table(obs.n, obs.a, obs.seat)], dtype=np.int8)


def progress(obs: PawnRaceObservation) -> float:
    """How far the seat's most advanced pawn has come, in ``[0, 1]`` (1: in the enemy base)."""
    if not obs.mine:
        return 0.0
    nearest: int = min(obs.distance_to_goal(square) for square in obs.mine)
    return 1.0 - nearest / (2 * obs.n)
