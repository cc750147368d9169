"""Calls into a bot on a stack of its own, so that the referee's frames are not on the bot's stack.

A bot from a user's directory, a plugin or the store plays in the referee's process through an
:class:`OwnStackBot`: every call into it (importing its module, constructing it, ``prepare()``, ``start()``,
each move, ``finish()``, even its budgets) runs on a greenlet of its own, a :class:`SeatStack`, which
switches back with the answer. Walking ``sys._getframe().f_back`` from the bot's code ends at that greenlet's
small loop, which holds the one call in progress: not the referee, the game, its failures or the other seats,
so a bot cannot swap another seat's moves and get it charged with a fault. The bot still runs in the
referee's thread, so the move alarm, the CPU clock (``time.thread_time``) and Ctrl-C reach it as before,
for a few microseconds a call.

This is not a sandbox. A bot in the referee's process shares its interpreter: one that sets out to can still
reach the referee through the interpreter itself (the garbage collector, the greenlet it runs on, patching a
class both use). In-process play trusts the bot; ``--sandbox`` is for code one does not trust.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import greenlet

from arena.core.bot import Bot, BotSpec
from arena.core.game import MatchInfo, Result

T = TypeVar("T")

_RETURNED, _RAISED = 0, 1
_kept = threading.local()  # greenlets belong to the thread that started them

_HOOKS = frozenset({"prepare", "prepare_budget", "spec_version", "startup_budget", "move_budget", "cpu_seconds",
                    "finish", "stderr_log"})
"""What the referee calls or reads of a bot besides ``start()`` and its moves, which most leave to :class:`Bot`."""


def _serve(function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """The loop at the bottom of a bot's stack: run one call, switch back with its answer, wait for the next."""
    while True:
        try:
            answer: tuple[int, Any] = (_RETURNED, function(*args))
        except greenlet.GreenletExit:
            raise
        except BaseException as exc:  # the bot's own failure, raised again on the referee's side
            answer = (_RAISED, exc)
        function = args = None  # type: ignore[assignment]  # hold nothing of a finished call while waiting
        function, args = greenlet.getcurrent().parent.switch(answer)


class SeatStack:
    """A stack of its own for one seat's bot: :meth:`call` runs a function there and returns its answer."""

    def __init__(self) -> None:
        self._runner: greenlet.greenlet | None = None

    @classmethod
    def for_seat(cls, seat: int) -> SeatStack:
        """The stack of ``seat`` for games played from here (this thread, and this greenlet: a bot may play games
        of its own), kept from game to game: between calls it holds nothing, and starting a greenlet (and
        ending one) costs twenty times a call."""
        kept: dict[Any, list[SeatStack]] = _kept.__dict__.setdefault("stacks", {})
        stacks = kept.setdefault(greenlet.getcurrent(), [])
        while len(stacks) <= seat:
            stacks.append(cls())
        return stacks[seat]

    def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` run on this seat's stack; what it raises is raised here."""
        runner = self._runner
        if runner is None or runner.dead:  # an alarm that lands in the loop itself ends it: start another
            runner = self._runner = greenlet.greenlet(_serve)
        kind, value = runner.switch(function, args)
        if kind == _RAISED:
            try:
                raise value
            finally:
                value = None  # no cycle through this frame
        return cast(T, value)  # what ``function`` returned, passed back by the greenlet


class OwnStackBot(Bot):
    """Stands in for a bot that plays in the referee's process on a :class:`SeatStack` of its own.

    Only what the bot (or its class) defines itself is called on its stack; what it leaves to :class:`Bot` is
    answered here, without a switch. A bot that swaps one in later gains nothing: it gets the base behaviour.
    """

    def __init__(self, bot: Bot, bot_class: type[Bot], stack: SeatStack, own: frozenset[str] = _HOOKS):
        self.bot = bot
        self.bot_class = bot_class
        self.stack = stack
        self.own = own
        """Which of :data:`_HOOKS` the bot defines itself."""

    @classmethod
    def build(cls, bot_class: type[Bot], params: dict[str, Any], stack: SeatStack) -> OwnStackBot:
        """Construct a ``bot_class`` on ``stack``; what its constructor raises is raised here."""
        bot, own = stack.call(_construct, bot_class, params)
        return cls(bot, bot_class, stack, own)

    def prepare_once(self, prepared: set[type[Bot]]) -> None:
        """Run the bot class's ``prepare()`` on the seat's stack, unless it already ran in this process."""
        if self.bot_class not in prepared:
            if "prepare" in self.own:
                self.stack.call(self.bot_class.prepare)
            prepared.add(self.bot_class)

    def prepare_seconds(self) -> float:
        """Seconds the bot class's ``prepare()`` may take."""
        if "prepare_budget" not in self.own:
            return Bot.prepare_budget()
        return self.stack.call(self.bot_class.prepare_budget)

    def startup_budget(self, time_limit: float) -> float:
        """The bot's own start-up budget."""
        if "startup_budget" not in self.own:
            return time_limit
        return self.stack.call(self.bot.startup_budget, time_limit)

    def move_budget(self, time_limit: float) -> float:
        """The bot's own move budget."""
        if "move_budget" not in self.own:
            return time_limit
        return self.stack.call(self.bot.move_budget, time_limit)

    def cpu_seconds(self) -> float | None:
        """The bot's own reading of its processes' CPU time (``None``: it plays in this thread)."""
        if "cpu_seconds" not in self.own:
            return None
        return self.stack.call(self.bot.cpu_seconds)

    def start(self, info: MatchInfo) -> None:
        """Hand the bot its random source and start it."""
        self.stack.call(_start, self.bot, self.rng, info)

    def act(self, obs: Any) -> Any:
        """The bot's move."""
        return self.stack.call(self.bot.act, obs)

    def finish(self, result: Result) -> None:
        """Tell the bot how the game ended."""
        if "finish" in self.own:
            self.stack.call(self.bot.finish, result)

    @property
    def stderr_log(self) -> str:
        """What the bot's program wrote to its stderr, for a program bot."""
        if "stderr_log" not in self.own:
            return ""
        log = self.stack.call(getattr, self.bot, "stderr_log", "")
        return log if isinstance(log, str) else ""

    def version(self, spec: BotSpec, entry_version: str) -> str:
        """The version ``spec`` names: the entry's, unless the bot class says otherwise for these parameters."""
        if "spec_version" not in self.own:
            return entry_version
        return self.stack.call(self.bot_class.spec_version, dict(spec.params)) or entry_version


def _construct(bot_class: type[Bot], params: dict[str, Any]) -> tuple[Bot, frozenset[str]]:
    """A new bot, and which of :data:`_HOOKS` it defines itself (asked on its stack: its class is its code)."""
    bot = bot_class(**params)
    own = {name for name in _HOOKS if getattr(bot_class, name, None) != getattr(Bot, name, None)}
    return bot, frozenset(own | (_HOOKS & set(getattr(bot, "__dict__", {}))))


def _start(bot: Bot, rng: Any, info: MatchInfo) -> None:
    bot.rng = rng
    bot.start(info)
