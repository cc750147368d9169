"""Processes an in-process bot started that outlived its game: adopted, killed and counted.

A Python bot played in the arena's process (or a worker's) may fork, or start a program in a session of its
own, and leave it running. Around each game that seats such a bot (any but the bots shipped with the arena
and program bots, which sweep their own: :mod:`arena.plugins.programs.survivors`), the process playing it
becomes a child subreaper (:mod:`arena.core.child_processes`), so that the orphans of what the bot started, a
``setsid`` double-fork's grandchild included, become its children instead of init's. After the game every
child that was not there before it and started since it began is killed, one process at a time so that
each of its own children comes back to this process to be found next, and collected, until none is left.
Those that were still running are counted: on the bot's seat (its stderr log) when one seat alone can have
started them, otherwise on the game. Children that were there before the game (a Ray cluster, a browser,
worker processes) are never touched, and only the swept processes are collected (no ``waitpid(-1)``), so
``subprocess`` and ``multiprocessing`` keep their own. Games of shipped bots only pay nothing. Under
``--isolate`` a bot's own process watches each of its games the same way (:mod:`arena.play.isolation`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from arena.core.bot import BotSpec
from arena.core.child_processes import child, children, collect, is_subreaper, set_subreaper, ticks_now
from arena.core.errors import ArenaError
from arena.plugins.programs.bot import ProgramBot
from arena.plugins.programs.survivors import with_stray_note
from arena.plugins.registry import BotEntry, Registry, is_arena_code


class GameSetup(Protocol):
    """What a sweep reads of a game's setup (:class:`arena.play.referee.MatchSetup`)."""

    @property
    def bots(self) -> tuple[BotSpec, ...]:
        """The bot of each seat."""
        ...


class GameOutcome(Protocol):
    """What a sweep notes its count in (:class:`arena.play.referee.MatchOutcome`, a dataclass)."""

    @property
    def stderr(self) -> dict[int, str]:
        """Each seat's stderr log."""
        ...

    @property
    def strays(self) -> int:
        """Strays not known to be one seat's."""
        ...


Outcome = TypeVar("Outcome", bound=GameOutcome)

SWEEP_SECONDS = 5.0
"""How long a sweep waits in all for killed processes to end (one stuck in the kernel is left behind)."""
MAX_ROUNDS = 256
"""How many generations of a stray's descendants one sweep follows (a fork bomb could outrun it forever)."""


def is_swept(entry: BotEntry) -> bool:
    """Whether a game of this bot is swept: it is a Python bot (played in a Python process, not a program bot) and
    not one shipped with the arena."""
    if is_arena_code(entry):
        return False
    return not (entry.loaded is not None and issubclass(entry.loaded, ProgramBot))


def swept_seats(setup: GameSetup, registry: Registry, make_bot: Any = None) -> tuple[int, ...]:
    """The seats of ``setup`` whose bots play in this process and are not shipped: the game is swept if any."""
    if getattr(make_bot, "out_of_process", False):
        return ()
    try:
        return tuple(seat for seat, spec in enumerate(setup.bots) if is_swept(registry.bot(spec.name)))
    except ArenaError:
        return ()  # an unknown bot: the game itself reports it


class StrayWatch:
    """One game's watch: made just before the game, :meth:`sweep` just after it."""

    def __init__(self) -> None:
        self.was_subreaper = is_subreaper()
        self.adopting = self.was_subreaper is not None and set_subreaper(True)
        self.begun = ticks_now()
        self.before = {(pid, found.started) for pid in children() if (found := child(pid)) is not None}

    def _stray(self, pid: int) -> bool:
        found = child(pid)
        return found is not None and found.started >= self.begun and (pid, found.started) not in self.before

    def sweep(self) -> int:
        """Kill and collect every child the game left; how many of them were still running."""
        running = 0
        swept: set[int] = set()
        deadline = time.monotonic() + SWEEP_SECONDS
        try:
            for _ in range(MAX_ROUNDS):
                strays = [pid for pid in children() if pid not in swept and self._stray(pid)]
                if not strays:
                    break
                for pid in strays:
                    found = child(pid)
                    if found is not None and not found.dying:
                        running += 1
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                for pid in strays:  # its death hands its own children to this process, for the next round
                    collect(pid, deadline)
                    swept.add(pid)
        finally:
            if self.adopting and not self.was_subreaper:
                set_subreaper(False)
        return running


def counted(outcome: Outcome, killed: int, seats: Sequence[int]) -> Outcome:
    """``outcome`` with ``killed`` strays noted: on the one seat that can have started them, else on the game."""
    if not killed:
        return outcome
    if len(seats) == 1:
        stderr = dict(outcome.stderr)
        stderr[seats[0]] = with_stray_note(stderr.get(seats[0], ""), killed)
        return replace(outcome, stderr=stderr)  # type: ignore[type-var]
    return replace(outcome, strays=outcome.strays + killed)  # type: ignore[type-var]


def swept(setup: GameSetup, registry: Registry, make_bot: Any, game: Callable[[], Outcome]) -> Outcome:
    """Play ``game()`` (the game of ``setup``) and, if it seats a bot played here that is not shipped, kill and
    count what that bot started and left running."""
    seats = swept_seats(setup, registry, make_bot)
    if not seats or not sys.platform.startswith("linux"):
        return game()
    watch = StrayWatch()
    try:
        outcome = game()
    finally:
        killed = watch.sweep()
    return counted(outcome, killed, seats)
