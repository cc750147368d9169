"""The referee's side of the clocks: what a move may take, what it cost, and how running out of time reads.

Each bot has a :class:`arena.core.clock.Clock` for the game (handed to it in ``MatchInfo.clock``). Around
every move the referee starts the clock, measures the move with the clock's own meter (elapsed seconds, or
CPU seconds: those of the bot's processes for a bot that plays outside the referee's thread, else of the
referee's thread, which is the bot's), charges it, and stops a move that runs past its allowance plus the
grace (under the CPU clock: past :data:`arena.core.clock.CPU_WALL_FACTOR` times it, of elapsed time).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.core.bot import Bot
from arena.core.clock import CPU_WALL_FACTOR, Clock, TimeControl
from arena.core.failure import Failure


def stop_after(clock: Clock) -> float:
    """Elapsed seconds after which the move starting now is interrupted (before the grace)."""
    allowance = clock.next_allowance()
    return allowance * CPU_WALL_FACTOR if clock.cpu else allowance


def meter(bot: Bot, clock: Clock) -> Callable[[], float]:
    """The reading a move of ``bot`` is measured with: a move costs the difference of two readings."""
    if not clock.cpu:
        return time.perf_counter
    outside = bot.cpu_seconds()
    if outside is None:
        return time.thread_time
    return lambda: bot.cpu_seconds() or 0.0


def start_budget(time_limit: float | None, control: TimeControl) -> float:
    """Seconds a bot's ``start()`` (and ``finish()``) may take, never charged to its clock: the per-move limit,
    else its first move's allowance."""
    if time_limit is not None:
        return time_limit
    return (control.first_move or 0.0) + (control.bank or 0.0)


def out_of_time(clock: Clock, spent: float, where: str) -> Failure:
    """The failure of a move that took ``spent`` seconds, more than its clock allowed."""
    if clock.bank is None and clock.control.clock == "wall":
        limit = clock.allowance
        return Failure("timeout", f"took {spent:.3f} s{where}, over the {limit:g} s limit")
    measure = "of CPU time " if clock.kind == "cpu" else ""
    return Failure("timeout", f"ran out of time{where}: took {spent:.3f} s {measure}with {clock.allowance:.3f} s "
                              "left on its clock")


def add_clocks(record: dict[str, Any], time_limit: float | None, control: TimeControl,
               max_think: Sequence[float], clocks: Sequence[Mapping[int, float]]) -> None:
    """Add the optional timing fields to a game record (older records, without them, stay valid).

    Only for a game timed by more than a per-move limit: ``time_control``, its timing (with ``time_limit``
    ``null`` when there was none); ``max_think_time``, each seat's longest move; and under a bank ``clocks``,
    each turn the bank left to each seat that moved in it, keyed like ``turns``.
    """
    if control.is_plain and time_limit is not None:
        return  # a game with only a per-move limit keeps the record it always had
    record["time_control"] = {"time_limit": time_limit, **control.as_json()}
    if max_think:
        record["max_think_time"] = [round(seconds, 6) for seconds in max_think]
    if clocks:
        record["clocks"] = [{str(seat): left for seat, left in turn.items()} for turn in clocks]


def allowed_time(clock: Clock) -> str:
    """What a stopped move overran, in words: ``the time limit``, or what its clock allowed."""
    if clock.control.is_plain:
        return "the time limit"
    allowance = f"{clock.allowance:.2f} s"
    if clock.kind == "cpu":
        return f"three times the {allowance} of CPU time its clock allowed"
    return f"the {allowance} its clock allowed"
