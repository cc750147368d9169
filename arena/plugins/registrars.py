"""The callables the ``register_*`` hooks hand a plugin, as types a plugin's own annotations can name.

The registry stores what the plugins register without knowing the layers above it: an executor factory and a
task pool factory are described in full by :mod:`arena.play.executor_choice` and :mod:`arena.play.task_pools`,
a playability study by :class:`arena.learning.playability.PlayabilityStudy`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from arena.core.bot import Bot
from arena.core.game import Game
from arena.plugins.bot_modules import DeferredBot

ExecutorFactory = Callable[..., object]
"""``factory(workers, config, limits, registry, address)``: an executor (see :mod:`arena.play.executor_choice`)."""

TaskPoolFactory = Callable[[int | None, str | None], object]
"""``factory(workers, address)``: a task pool (see :mod:`arena.play.task_pools`)."""


class Study(Protocol):
    """A playability study as the registry sees it: the game it studies (the rest is the CLI's business)."""

    @property
    def game(self) -> str:
        """The name of the registered game the study trains learners of."""
        ...


class GameRegistrar(Protocol):
    """What ``register_games`` hands a plugin: ``register(game_class)``."""

    def __call__(self, cls: type[Game], /) -> None:
        """Register one game class."""
        ...


class BotRegistrar(Protocol):
    """What ``register_bots`` hands a plugin: ``register(bot_class, source=None)``."""

    def __call__(self, cls: type[Bot] | DeferredBot, /, source: str | None = None) -> None:
        """Register one bot class (or a bot whose module is imported when first needed), from ``source``."""
        ...


class ExecutorRegistrar(Protocol):
    """What ``register_executors`` hands a plugin: ``register(name, factory, tasks=None)``."""

    def __call__(self, name: str, factory: ExecutorFactory, /, tasks: TaskPoolFactory | None = None) -> None:
        """Register the executor ``name`` and, optionally, its task pool."""
        ...


class StudyRegistrar(Protocol):
    """What ``register_studies`` hands a plugin: ``register(study)``."""

    def __call__(self, study: Study, /) -> None:
        """Register one playability study."""
        ...
