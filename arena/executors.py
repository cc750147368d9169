"""Where games run: in this process, or on a pool of worker processes.

Workers are started with the ``spawn`` method and rebuild the plugin registry from the same
:class:`PluginConfig`, so a game plays identically in any process.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator, Sequence

from arena.match import MatchOutcome, MatchSetup, play
from arena.plugins import PluginConfig, Registry, load_registry

_worker_registry: Registry | None = None


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_in_process(setups: Sequence[MatchSetup], registry: Registry) -> Iterator[MatchOutcome]:
    """Play the games one after another in this process."""
    for setup in setups:
        yield play(setup, registry)


def _init_worker(config: PluginConfig) -> None:
    global _worker_registry
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _worker_registry = load_registry(config)


def _play_in_worker(setup: MatchSetup) -> MatchOutcome:
    assert _worker_registry is not None
    return play(setup, _worker_registry)


class WorkerPool:
    """A pool of worker processes that plays games and yields their outcomes as they finish."""

    def __init__(self, workers: int, config: PluginConfig):
        self.workers = workers
        self._pool = multiprocessing.get_context("spawn").Pool(workers, _init_worker, (config,))

    def run(self, setups: Sequence[MatchSetup]) -> Iterator[MatchOutcome]:
        """Play ``setups``; outcomes come back in the order they finish, not the schedule's."""
        chunk = max(1, min(32, len(setups) // (self.workers * 8)))
        yield from self._pool.imap_unordered(_play_in_worker, setups, chunksize=chunk)

    def close(self, terminate: bool = False) -> None:
        """Stop the workers: at once with ``terminate``, else after they finish."""
        if terminate:
            self._pool.terminate()
        else:
            self._pool.close()
        self._pool.join()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(terminate=exc_info[0] is not None)
