"""Task pools: where work other than games runs, such as the repetitions of a learning experiment.

A task pool is a :class:`concurrent.futures.Executor` with a ``size`` (how many tasks it runs at once).
Each executor may register one beside its game executor (``register(name, factory, tasks=...)`` in the
``register_executors`` hook): ``local`` runs tasks in processes of this machine, ``ray`` as Ray tasks.
A task is a module-level function and picklable arguments, and its result comes back to the command.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, Self

from arena.play.worker_start import spawn_safely, worker_started


class TaskPool(Protocol):
    """A :class:`concurrent.futures.Executor` that says how many tasks it runs at once."""

    size: int

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(*args, **kwargs)`` somewhere; a :class:`concurrent.futures.Future` of its result."""
        ...

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Release the pool's workers."""
        ...

    def __enter__(self) -> Self:
        """Use it in a ``with`` block."""
        ...

    def __exit__(self, *exc_info: Any) -> bool | None:
        """Shut it down, waiting for its tasks."""
        ...


def _task_worker_started(parent: int) -> None:
    worker_started(parent)  # dies with the command, imports nothing from the current directory
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the command's to handle: it stops and saves


class LocalTaskPool(ProcessPoolExecutor):
    """``size`` fresh processes of this machine (started by spawn, deaf to Ctrl-C, which the command handles,
    and killed with it: :mod:`arena.play.worker_start`)."""

    def __init__(self, size: int):
        spawn_safely()
        super().__init__(size, mp_context=multiprocessing.get_context("spawn"), initializer=_task_worker_started,
                         initargs=(os.getpid(),))
        self.size = size
