"""How the referee times and calls one seat's moves, looked up once a game: :class:`SeatTiming`."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from arena.core.bot import Bot, FunctionBot
from arena.core.clock import Clock
from arena.play.clocks import meter, stop_after
from arena.play.limits import PERF_COUNTER_IS_MONOTONIC


class SeatTiming:
    """How the referee times and calls one seat's moves in a game, worked out once when the game starts.

    The referee reads these fields on every move, so the class has ``__slots__`` and no methods on the path of
    a move: the seat's :class:`~arena.core.clock.Clock` does the arithmetic of each move (its
    ``begin_move``/``end_move``).
    """

    __slots__ = ("clock", "reading", "own_reading", "budget", "call", "rng", "cpu", "plain")

    clock: Clock
    """The seat's clock, the one its bot reads."""
    reading: Callable[[], float]
    """What the seat's moves are measured with: a move costs the difference of two readings."""
    own_reading: bool
    """Whether ``reading`` is the clock's own, so the reading ``begin_move`` returns is the move's start."""
    budget: float | None
    """Seconds every move may run before the guard stops it (``None``: worked out before each move)."""
    call: Callable[..., Any]
    """What a move calls with the observation (and ``rng``, if not ``None``)."""
    rng: random.Random | None
    """Given: ``call`` is the policy of a function bot without parameters, called with the bot's rng directly
    (``act`` would only pass it on, and nothing but ``start()`` could have replaced it)."""
    cpu: bool
    """Whether the clock counts CPU time (a stopped move's elapsed time is then read apart)."""
    plain: bool
    """A fixed budget on the wall clock: the reading ``begin_move`` returns (of ``time.perf_counter``, which
    reads ``time.monotonic``'s clock here) also starts the move guard, whose ``run`` makes the guarded call."""

    def __init__(self, player: Bot, clock: Clock):
        self.clock = clock
        self.reading = reading = meter(player, clock)
        self.own_reading = own = reading is clock.reading
        self.budget = budget = player.move_budget(stop_after(clock)) if clock.fixed else None
        self.cpu = clock.cpu
        self.plain = own and budget is not None and PERF_COUNTER_IS_MONOTONIC and reading is time.perf_counter
        self.call = player.act
        self.rng = None
        params = getattr(player, "params", None)  # missing if a subclass's __init__ skipped FunctionBot's: then
        if type(player).act is FunctionBot.act and params is not None and not params:  # act() fails, as its crash
            self.call, self.rng = type(player).policy, player.rng  # type: ignore[attr-defined]

    def move_budget(self, player: Bot) -> float:
        """Seconds the next move of ``player`` (this seat's bot) may run before the guard stops it."""
        budget = self.budget
        return player.move_budget(stop_after(self.clock)) if budget is None else budget
