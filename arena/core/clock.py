"""Time controls and game clocks: how much time each bot has, and the clock a bot reads during its game.

A :class:`TimeControl` is how a game is timed, beside the per-move time limit:

- ``bank`` seconds on each bot's clock for the whole game (``--time-control BANK+INC``), gaining
  ``increment`` after each of its moves; a bot whose clock runs out loses on time;
- ``first_move``: seconds the first move has of its own, never taken from the bank (``--first-move``);
- ``clock``: what a move costs, ``wall`` (elapsed seconds) or ``cpu`` (the CPU seconds of the bot's own
  process and its children, or of its thread for a bot that plays in the referee's process).

With a per-move limit *and* a bank, the time up to the limit is free and only the time past it comes off
the bank (Kaggle's overage); with a bank and no limit every move's time comes off the bank (a chess clock).

The referee owns the clocks. A bot reads its own from :attr:`arena.core.game.MatchInfo.clock`, a
:class:`Clock` the referee keeps up to date: ``info.clock.time_left()`` during a move is how many seconds
the bot may still think before it loses on time.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from arena.core.errors import ArenaError

DEFAULT_TIME_LIMIT = 1.0
"""Seconds a move may take when neither a time limit nor a time control is given."""
CLOCKS = ("wall", "cpu")
CPU_WALL_FACTOR = 3.0
"""Under the CPU clock, a move is still stopped after this many times its allowance of elapsed time (plus the
grace), so a bot that sleeps or blocks cannot hold a game forever."""

_BANK_INC = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d*)?|\.\d+)\s*)?$")


@dataclass(frozen=True)
class TimeControl:
    """How a game is timed beyond the per-move limit: a bank with an increment, a first-move budget, a clock."""

    bank: float | None = None
    """Seconds on each bot's clock at the start of the game (``None``: no bank, only the per-move limit)."""
    increment: float = 0.0
    """Seconds added to a bot's clock after each of its moves."""
    first_move: float | None = None
    """Seconds a bot's first move has of its own, before anything comes off its bank."""
    clock: str = "wall"
    """``wall`` or ``cpu``: what a move is charged."""

    @property
    def is_plain(self) -> bool:
        """Whether this is no more than the per-move limit measured in elapsed time (the default)."""
        return self.bank is None and self.first_move is None and self.clock == "wall"

    def describe(self) -> str:
        """``10+0.1``, ``first move 3 s``, ``cpu clock``, joined with commas (empty when plain)."""
        parts = []
        if self.bank is not None:
            parts.append(f"{self.bank:g}+{self.increment:g}")
        if self.first_move is not None:
            parts.append(f"first move {self.first_move:g} s")
        if self.clock != "wall":
            parts.append(f"{self.clock} clock")
        return ", ".join(parts)

    def as_json(self) -> dict[str, Any]:
        """The fields that differ from the default, JSON-ready (for run definitions and records)."""
        data: dict[str, Any] = {}
        if self.bank is not None:
            data["bank"], data["increment"] = self.bank, self.increment
        if self.first_move is not None:
            data["first_move"] = self.first_move
        if self.clock != "wall":
            data["clock"] = self.clock
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TimeControl:
        """The time control :meth:`as_json` wrote (an empty or missing one is the default)."""
        if not data:
            return cls()
        return cls(data.get("bank"), float(data.get("increment", 0.0)), data.get("first_move"),
                   str(data.get("clock", "wall")))


def parse_bank_increment(text: str) -> tuple[float, float]:
    """Read ``BANK+INC`` (``10+0.1``, or ``60`` for no increment) into seconds; refuse any other form."""
    if "/" in text:
        raise ArenaError(f"--time-control {text!r}: moves-per-period controls (40/60+0.6) are not supported; "
                         "give BANK+INC in seconds, e.g. 60+0.6")
    match = _BANK_INC.match(text)
    if not match:
        raise ArenaError(f"--time-control {text!r} is not BANK+INC in seconds, e.g. 10+0.1")
    bank, increment = float(match.group(1)), float(match.group(2) or 0.0)
    if bank <= 0:
        raise ArenaError(f"--time-control {text!r}: the bank must be more than 0 seconds")
    return bank, increment


def time_control(text: str | None = None, first_move: float | None = None, clock: str | None = None) -> TimeControl:
    """The :class:`TimeControl` the command line or a tournament file gives, each part checked."""
    bank, increment = parse_bank_increment(text) if text is not None else (None, 0.0)
    if first_move is not None and not (math.isfinite(first_move) and first_move > 0):
        raise ArenaError(f"--first-move must be a positive number of seconds, not {first_move:g}")
    clock = clock or "wall"
    if clock not in CLOCKS:
        raise ArenaError(f"--clock {clock!r} is not one of: {', '.join(CLOCKS)}")
    return TimeControl(bank, increment, first_move, clock)


def check_time_limit(time_limit: float | None, control: TimeControl) -> None:
    """Refuse a game with neither a per-move limit nor a bank (a bot could then think forever)."""
    if time_limit is None and control.bank is None:
        raise ArenaError("give --time-limit, --time-control or both: a game needs a limit on thinking")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise ArenaError("--time-limit must be positive")


class Clock:
    """A bot's clock in one game, as the referee keeps it: the bot reads it, only the referee moves it.

    ``time_left()`` is the number to plan a move with: during a move, the seconds this move may still take
    before the bot loses on time (the per-move limit still free, plus what is left on the bank); between
    moves, what the next move will have. ``bank_left()`` is the bank alone.
    """

    def __init__(self, control: TimeControl | None = None, time_limit: float | None = None):
        self.control = control or TimeControl()
        self.time_limit = time_limit
        """The per-move limit (``None``: none, every move's time comes off the bank)."""
        self.bank: float | None = self.control.bank
        self.moves = 0
        """Moves this bot has made in the game so far."""
        self.fixed = self.control.bank is None and self.control.first_move is None
        """Whether every move has the same allowance (the per-move limit alone)."""
        self.cpu = self.control.clock == "cpu"
        self._now = time.thread_time if self.cpu else time.perf_counter
        self.allowance = self.next_allowance()
        """Seconds the current (or next) move may take before the bot loses on time, at its start."""
        self.started: float | None = None
        """The clock's reading when the move in progress started (``None`` between moves): set by
        :meth:`begin_move`, cleared by :meth:`end_move`."""

    @property
    def kind(self) -> str:
        """``wall`` or ``cpu``."""
        return self.control.clock

    @property
    def increment(self) -> float:
        """Seconds added to the bank after each move."""
        return self.control.increment

    def free_time(self) -> float:
        """Seconds of the next move that do not come off the bank (its own first-move budget, or the limit)."""
        if self.moves == 0 and self.control.first_move is not None:
            return self.control.first_move
        return self.time_limit or 0.0

    def next_allowance(self) -> float:
        """Seconds the next move may take before the bot loses on time."""
        return self.free_time() + (self.bank or 0.0)

    def bank_left(self) -> float | None:
        """Seconds left on the bank (``None`` when the game has no bank)."""
        return self.bank

    def now(self) -> float:
        """This clock's reading: elapsed seconds (wall) or this thread's CPU seconds (cpu)."""
        return self._now()

    def time_left(self) -> float:
        """Seconds this move may still take (between moves: what the next one will have)."""
        if self.started is None:
            return self.allowance
        return max(0.0, self.allowance - (self.now() - self.started))

    @property
    def reading(self) -> Callable[[], float]:
        """The function :meth:`now` reads: ``time.perf_counter`` (wall) or ``time.thread_time`` (cpu)."""
        return self._now

    def begin_move(self) -> float:
        """The referee starts this bot's move now (it also restarts a copy of the clock in a bot's own process);
        returns the clock's reading at the start."""
        if not self.fixed:
            self.allowance = self.next_allowance()
        self.started = started = self._now()
        return started

    def end_move(self, spent: float) -> bool:
        """Charge a move that took ``spent`` seconds; ``False`` if the bot ran out of time in it."""
        self.started = None
        if self.fixed:
            self.moves += 1
            return spent <= self.allowance
        over = spent - self.free_time()
        self.moves += 1
        if self.bank is None:
            return over <= 0
        self.bank -= max(0.0, over)
        if self.bank < 0:
            self.bank = 0.0
            return False
        self.bank += self.control.increment
        self.allowance = self.next_allowance()
        return True

    def state(self) -> tuple[float | None, int]:
        """What a copy of this clock in another process needs to follow it: the bank and the moves made."""
        return self.bank, self.moves

    def follow(self, state: tuple[float | None, int]) -> None:
        """Take the referee's :meth:`state` (in a bot's own process, before each move)."""
        self.bank, self.moves = state


PLAIN = TimeControl()
"""No time control beyond the per-move limit, measured in elapsed time: the default."""
