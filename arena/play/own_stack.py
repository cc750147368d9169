"""Calls into a bot on a stack of its own, so that the referee's frames are not on the bot's stack.

A bot from a user's directory, a plugin or the store plays in the referee's process through an
:class:`OwnStackBot`: every call into it (importing its module, constructing it, ``prepare()``, ``start()``,
each move, ``finish()``, even its budgets) runs on a greenlet of its own, a :class:`SeatStack`, which
switches back with the answer. Walking ``sys._getframe().f_back`` from the bot's code ends at that greenlet's
small loop, which holds the one call in progress: not the referee, the game, its failures or the other seats,
so a bot cannot swap another seat's moves and get it charged with a fault. The bot still runs in the
referee's thread, so the move alarm, the CPU clock (``time.thread_time``) and Ctrl-C reach it as before,
for about a microsecond a call.

This is not a sandbox. A bot in the referee's process shares its interpreter: one that sets out to can still
reach the referee through the interpreter itself (the garbage collector, the greenlet it runs on, patching a
class both use). In-process play trusts the bot; ``--sandbox`` is for code one does not trust.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import greenlet

from arena.core.bot import Bot
from arena.core.game import MatchInfo, Result

T = TypeVar("T")

_RETURNED, _RAISED = 0, 1


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
        return value


class OwnStackBot(Bot):
    """Stands in for a bot that plays in the referee's process on a :class:`SeatStack` of its own."""

    def __init__(self, bot: Bot, bot_class: type[Bot], stack: SeatStack):
        self.bot = bot
        self.bot_class = bot_class
        self.stack = stack

    @classmethod
    def build(cls, bot_class: type[Bot], params: dict[str, Any], stack: SeatStack) -> OwnStackBot:
        """Construct a ``bot_class`` on ``stack``; what its constructor raises is raised here."""
        return cls(stack.call(_construct, bot_class, params), bot_class, stack)

    def prepare_once(self, prepared: set[type[Bot]]) -> None:
        """Run the bot class's ``prepare()`` on the seat's stack, unless it already ran in this process."""
        if self.bot_class not in prepared:
            self.stack.call(self.bot_class.prepare)
            prepared.add(self.bot_class)

    def prepare_seconds(self) -> float:
        """Seconds the bot class's ``prepare()`` may take."""
        return self.stack.call(self.bot_class.prepare_budget)

    def startup_budget(self, time_limit: float) -> float:
        """The bot's own start-up budget."""
        return self.stack.call(self.bot.startup_budget, time_limit)

    def move_budget(self, time_limit: float) -> float:
        """The bot's own move budget."""
        return self.stack.call(self.bot.move_budget, time_limit)

    def cpu_seconds(self) -> float | None:
        """The bot's own reading of its processes' CPU time (``None``: it plays in this thread)."""
        return self.stack.call(self.bot.cpu_seconds)

    def start(self, info: MatchInfo) -> None:
        """Hand the bot its random source and start it."""
        self.stack.call(_start, self.bot, self.rng, info)

    def act(self, obs: Any) -> Any:
        """The bot's move."""
        return self.stack.call(self.bot.act, obs)

    def finish(self, result: Result) -> None:
        """Tell the bot how the game ended."""
        self.stack.call(self.bot.finish, result)

    @property
    def stderr_log(self) -> str:
        """What the bot's program wrote to its stderr, for a program bot."""
        log = self.stack.call(getattr, self.bot, "stderr_log", "")
        return log if isinstance(log, str) else ""


def _construct(bot_class: type[Bot], params: dict[str, Any]) -> Bot:
    return bot_class(**params)


def _start(bot: Bot, rng: Any, info: MatchInfo) -> None:
    bot.rng = rng
    bot.start(info)
