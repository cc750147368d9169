"""Which executor plays a command's games, and the small interface every executor has.

An executor takes the games of a stage and yields their outcomes as they finish (in any order), with the
guarantees of :class:`arena.play.executors.WorkerPool`: every scheduled game comes back exactly once, bots
are held to their limits, and a bot that crashes or hangs loses its game without taking anything else down.
Executors are registered by name through the ``register_executors`` hook: ``local`` (supervised worker
processes on this machine) and ``ray`` (a Ray cluster) are built in, and a plugin can add another engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, cast

from arena.play.executors import default_workers
from arena.play.limits import Limits
from arena.play.referee import MatchOutcome, MatchSetup
from arena.play.task_pools import TaskPool
from arena.plugins.registry import PluginConfig, Registry


class Executor(Protocol):
    """Plays games and yields each outcome as its game ends."""

    def run(self, setups: Iterable[MatchSetup]) -> Iterator[MatchOutcome]:
        """Play ``setups``; each outcome comes back once, as soon as its game ends.

        An executor may also have ``run_batches(setups)``, yielding lists of the outcomes that arrive
        together: a tournament then stores each list in one transaction; and ``interrupt()``, which another
        thread calls to stop its workers at once, leaving the closing to the thread that runs it.
        """
        ...

    def close(self, terminate: bool = False) -> None:
        """Stop: at once with ``terminate`` (Ctrl-C), else after the games in hand."""
        ...

    def __enter__(self) -> Executor:
        """Use it in a ``with`` block."""
        ...

    def __exit__(self, *exc_info: object) -> None:
        """Close it: at once if the block raised."""
        ...


ExecutorFactory = Callable[[int | None, PluginConfig, Limits, Registry, str | None], Executor]
"""Builds an executor from ``(workers or None for its default, plugin config, limits, registry, address)``."""


@dataclass(frozen=True)
class ExecutorChoice:
    """The executor a command asked for (``--executor``) and, for a cluster, its address (``--address``)."""

    name: str = "local"
    address: str | None = None

    def start(self, workers: int | None, config: PluginConfig, limits: Limits, registry: Registry,
              games: int | None = None) -> Executor:
        """Start the chosen executor with ``workers`` workers (``None``: its default; never more than ``games``,
        the games there are to play, if known; locally, the default is every core)."""
        if workers is None and self.name == "local":
            workers = default_workers()
        if workers is not None and games is not None:
            workers = max(min(workers, games), 1)
        # The registry keeps factories as plugins gave them; register_executors promises this signature.
        factory = cast(ExecutorFactory, registry.executor(self.name))
        return factory(workers, config, limits, registry, self.address)

    def task_pool(self, workers: int | None, registry: Registry) -> TaskPool:
        """Start the chosen executor's task pool (:mod:`arena.play.task_pools`) with ``workers`` at once
        (``None``: its default)."""
        return cast(TaskPool, registry.task_pool(self.name)(workers, self.address))  # as register_executors promises


LOCAL = ExecutorChoice()
"""Supervised worker processes on this machine: the default."""
