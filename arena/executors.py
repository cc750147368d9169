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
CHUNK_SECONDS = 0.02
MAX_CHUNK = 64


def chunk_size(seconds_per_game: float, games: int, workers: int) -> int:
    """Games per task: about ``CHUNK_SECONDS`` of play, and at least four tasks per worker."""
    by_time = int(CHUNK_SECONDS / max(seconds_per_game, 1e-6))
    by_balance = games // (workers * 4)
    return max(1, min(by_time, by_balance, MAX_CHUNK))


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
        """Play ``setups``; outcomes come back in the order they finish, not the schedule's.

        The first games go out one at a time to measure how long a game takes; the rest go in
        chunks of about ``CHUNK_SECONDS`` of play, so tiny games don't drown in messaging while
        long games still come back (and show progress) one by one.
        """
        probe = list(setups[: self.workers * 2])
        durations = []
        for outcome in self._pool.imap_unordered(_play_in_worker, probe, chunksize=1):
            durations.append(outcome.duration)
            yield outcome
        rest = setups[len(probe):]
        if rest:
            # The fastest probe, because a fresh worker's first games run several times slower.
            chunk = chunk_size(min(durations), len(rest), self.workers)
            yield from self._pool.imap_unordered(_play_in_worker, rest, chunksize=chunk)

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
