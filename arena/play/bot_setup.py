"""A seat's bot before and after its moves: building it, the calls into it before its first move, its version.

Every call runs under the referee's move guard (:mod:`arena.play.limits`), or under :class:`NoGuard` when
none is given; a bot whose constructor raised plays as :class:`Unconstructable`, so the failure is scored
like any other crash.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from arena.core.bot import Bot, BotSpec, FunctionBot
from arena.core.game import MatchInfo
from arena.play.limits import MoveGuard
from arena.play.own_stack import OwnStackBot, SeatStack
from arena.plugins.registry import BotEntry, Registry


class NoGuard:
    """The guard used when none is given: it only keeps the interface."""

    def begin(self, seat: int, time_limit: float, now: float | None = None) -> None:
        """Nothing to arm."""

    def end(self) -> None:
        """Nothing to disarm."""

    def run(self, seat: int, time_limit: float, now: float, function: Callable[..., Any], obs: Any,
            rng: Any = None) -> Any:
        """``function(obs)``, or ``function(obs, rng)`` given an ``rng``."""
        return function(obs) if rng is None else function(obs, rng)


_prepared: set[type[Bot]] = set()  # the bot classes whose prepare() has run in this process


def _prepare(player: Bot) -> None:
    """Run ``prepare()`` of the player's class if it hasn't run in this process yet."""
    if isinstance(player, OwnStackBot):
        player.prepare_once(_prepared)
        return
    cls = type(player)
    if cls not in _prepared:
        cls.prepare()
        _prepared.add(cls)


def _prepare_budget(player: Bot) -> float:
    return player.prepare_seconds() if isinstance(player, OwnStackBot) else type(player).prepare_budget()


def setup_calls(player: Bot, info: MatchInfo, time_limit: float) -> list[tuple[Callable[[], None], str, float]]:
    """The calls into ``player`` before its first move, each with where a failure happened and its budget: its
    class's ``prepare()``, unless it has run in this process already, then ``start()``, unless the bot keeps
    Bot's, which does nothing (a call that runs none of the bot's code needs no guard)."""
    calls: list[tuple[Callable[[], None], str, float]] = []
    if isinstance(player, OwnStackBot) or type(player) not in _prepared:
        calls.append((partial(_prepare, player), " in prepare()", _prepare_budget(player)))
    if type(player).start is not Bot.start:
        calls.append((partial(player.start, info), " in start()", player.startup_budget(time_limit)))
    return calls


class Unconstructable(Bot):
    """Stands in for a bot whose constructor raised, so the failure is scored like any other crash."""

    def __init__(self, error: BaseException):
        self.error = error

    def start(self, info: MatchInfo) -> None:
        """Fail as the constructor did."""
        raise self.error


def construct(entry: BotEntry, spec: BotSpec, seat: int, time_limit: float, guard: MoveGuard | None,
               stack: SeatStack | None) -> Bot:
    """The bot of ``entry`` for ``seat``: on a stack of its own if ``stack`` is given, else called directly."""
    cls = entry.cls if stack is None or entry.loaded else stack.call(getattr, entry, "cls")  # the import is the bot's
    if stack is None and cls.__init__ is FunctionBot.__init__ and cls.__new__ is object.__new__:
        return cls(**spec.params)  # a function bot's constructor runs none of its code: no guard needed
    timing = guard or NoGuard()
    timing.begin(seat, time_limit)
    try:
        if stack is not None:
            return OwnStackBot.build(cls, spec.params, stack)
        return cls(**spec.params)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # same rule as every other bot failure
        return Unconstructable(exc)
    finally:
        timing.end()


def seat_version(registry: Registry, spec: BotSpec, player: Bot, stack: SeatStack | None) -> str:
    """The version of the bot ``spec`` names, asked on the bot's own stack if it has one."""
    if stack is None:
        return registry.version_of(spec)
    if isinstance(player, OwnStackBot):
        return player.version(spec, registry.bot(spec.name).version)
    return stack.call(registry.version_of, spec)
