"""Hard limits on bots: per-move deadlines enforced by a periodic alarm, and a memory cap per process.

A worker process installs a :class:`MoveGuard`. The referee calls ``begin(seat, seconds)`` before every
call into a bot and ``end()`` after it. A periodic ``SIGALRM`` checks the deadline and raises
:class:`MoveTimeout` in the bot's code once it has passed, which stops Python loops, sleeps and
lock waits. The guard also writes when the move started into shared memory, so the parent process
can kill a worker whose bot is stuck where no signal reaches (inside C code) and replace it.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator, MutableSequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from arena.core.errors import ArenaError
from arena.core.failure import BotFailure as BotFailure  # re-exported: where the referee's side looks for it
from arena.play.bot_traceback import Crash
from arena.play.sandbox.limits import SandboxLimits

DEFAULT_GRACE = 0.1
RETRY_AFTER = 0.1
"""Seconds after interrupting a move before it is interrupted again, if it still runs."""
PERF_COUNTER_IS_MONOTONIC = (time.get_clock_info("perf_counter").implementation
                            == time.get_clock_info("monotonic").implementation)
"""Whether ``time.perf_counter()`` reads the clock ``time.monotonic()`` reads (it does on Linux and macOS)."""
SLOT_FIELDS = 3  # per worker in shared memory: move start (monotonic seconds, 0 = idle), seat, limit


class MoveTimeout(BaseException):  # a BaseException so a bot's "except Exception" can't swallow it
    """Raised inside a bot that is still thinking after its deadline."""


class RemoteCrash(Exception):  # it carries a crash that happened in the bot's own process
    """An exception raised in a bot's own process, carried back to the referee as a :class:`Crash`."""

    def __init__(self, crash: Crash, where: str | None = None):
        super().__init__(crash.detail())
        self.crash = crash
        self.where = where  # where in the bot it happened, if not in the call that reports it


@dataclass(frozen=True)
class Limits:
    """How hard the arena is on bots: grace after the time limit, memory per worker, isolation, sandbox."""

    grace: float = DEFAULT_GRACE
    memory_limit: int | None = None
    isolate: bool = False
    kill_margin: float = 0.2
    sandbox: SandboxLimits | None = None
    """Every bot plays confined, with these limits (see :mod:`arena.play.sandbox`)."""

    def kill_after(self, time_limit: float) -> float:
        """Seconds after a move started when the parent kills a worker that still hasn't returned."""
        return time_limit + self.grace + self.kill_margin


def alarm_tick(time_limit: float) -> float:
    """How often the alarm checks the deadline: often enough to stop a bot soon after its grace."""
    return min(0.05, max(0.005, time_limit / 10))


class MoveGuard:
    """Tracks the move in progress; with :meth:`installed`, interrupts it once its deadline passes."""

    def __init__(self, slots: MutableSequence[float] | None = None, slot: int = 0, grace: float = DEFAULT_GRACE):
        self.deadline: float | None = None
        self.slots = _fast_view(slots)
        self.base = slot * SLOT_FIELDS
        self.grace = grace
        self._seat: int | None = None  # the seat and limit last written to the slot
        self._limit: float | None = None

    def begin(self, seat: int, time_limit: float, now: float | None = None) -> None:
        """A call into the bot in ``seat`` starts now, allowed ``time_limit`` seconds plus the grace.

        ``now`` is ``time.monotonic()`` if the caller has just read it (or ``time.perf_counter()`` where
        :data:`PERF_COUNTER_IS_MONOTONIC`), saving a second reading.
        """
        if now is None:
            now = time.monotonic()
        self.deadline = now + time_limit + self.grace
        slots = self.slots
        if slots is not None:
            base = self.base
            if seat != self._seat:  # each write to shared memory costs more than the test
                slots[base + 1] = seat
                self._seat = seat
            if time_limit != self._limit:  # most moves have the last move's limit
                slots[base + 2] = time_limit
                self._limit = time_limit
            slots[base] = now

    def run(self, seat: int, time_limit: float, now: float, function: Callable[..., Any], obs: Any,
            rng: Any = None) -> Any:
        """``function(obs)``, or ``function(obs, rng)`` given an ``rng``, as a call into the bot in ``seat`` that
        started at ``now``: :meth:`begin`, the call and :meth:`end` in one, as the referee makes every move."""
        self.deadline = now + time_limit + self.grace
        slots = self.slots
        base = self.base
        if slots is not None:  # as in begin(), spelled out: this runs on every move
            if seat != self._seat:
                slots[base + 1] = seat
                self._seat = seat
            if time_limit != self._limit:
                slots[base + 2] = time_limit
                self._limit = time_limit
            slots[base] = now
        try:
            return function(obs) if rng is None else function(obs, rng)
        finally:
            self.deadline = None
            if slots is not None:
                slots[base] = 0.0

    def end(self) -> None:
        """The call into the bot returned (or raised)."""
        self.deadline = None
        if self.slots is not None:
            self.slots[self.base] = 0.0

    def _on_alarm(self, signum: int, frame: Any) -> None:
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            # Interrupt again only after another grace: a bot that swallowed the interruption is stopped again,
            # while the referee, handling it, has time to close the move (a busy machine may delay it a tick).
            self.deadline = now + max(self.grace, RETRY_AFTER)
            raise MoveTimeout

    @contextmanager
    def installed(self, tick: float) -> Iterator[MoveGuard]:
        """Arm a periodic alarm for the duration of the block (main thread only; otherwise a no-op)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = signal.signal(signal.SIGALRM, self._on_alarm)
        signal.setitimer(signal.ITIMER_REAL, tick, tick)
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0, 0)
            signal.signal(signal.SIGALRM, previous)


def _fast_view(slots: MutableSequence[float] | None) -> MutableSequence[float] | None:
    """The slots as a ``memoryview`` of doubles when they are a shared ``RawArray`` (written twice as fast, into
    the same memory), else as given."""
    if slots is None:
        return None
    try:
        view = memoryview(slots)  # type: ignore[arg-type]
    except TypeError:
        return slots
    if view.itemsize != 8 or view.ndim != 1:
        return slots
    return view.cast("B").cast("d")  # type: ignore[return-value]


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
MIN_MEMORY_LIMIT = 512 << 20


def parse_memory(text: str) -> int:
    """Parse a size such as ``2G``, ``512M`` or ``1.5GiB`` into bytes."""
    match = _SIZE.match(text)
    if not match:
        raise ArenaError(f"--memory-limit {text!r} is not a size like 512M or 2G")
    size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if size < MIN_MEMORY_LIMIT:
        raise ArenaError(f"--memory-limit {text} is too small: a worker needs at least 512M")
    return size


def physical_memory() -> int:
    """Bytes of physical memory on this machine."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def default_memory_limit(workers: int) -> int:
    """An equal share of physical memory for each worker, keeping one share for everything else."""
    return max(MIN_MEMORY_LIMIT, physical_memory() // (workers + 1))


def apply_memory_limit(limit: int | None) -> None:
    """Cap this process's address space, so a runaway allocation raises MemoryError here.

    The limit is hard (soft = hard): a bot in this process cannot raise it again.
    """
    if limit is None:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def format_bytes(size: int) -> str:
    """A size for people: ``7.8G``, ``512M``."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):.1f}G"
    return f"{size / (1 << 20):.0f}M"
