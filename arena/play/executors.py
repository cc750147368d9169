"""Where games run: in this process, or on supervised worker processes.

Workers are forked on Linux when the process starting them runs no other thread, and spawned otherwise
(:func:`start_method`); either way they rebuild the plugin registry from the same :class:`PluginConfig`, so
a game plays identically in any process. A worker dies with the process that started it, holds none of its
files (the database included) and imports nothing from the current directory
(:mod:`arena.play.worker_start`). Each worker caps its own memory,
sends bot output to ``/dev/null`` (a bot's prints never corrupt the arena's output), and interrupts
overrunning bots with :class:`arena.play.limits.MoveGuard`, and, with one worker a CPU, keeps to its own CPU
(:mod:`arena.play.worker_cpus`). The parent watches every worker: one that is
stuck past the kill deadline (a bot blocked inside C code) is killed, one that dies (a bot called
``os._exit``, aborted or crashed the interpreter) is noticed; either way the game in progress is lost
by the bot that was moving, the worker's other games (played or not; games are deterministic) go
back in the queue, and a fresh worker takes its place. Workers send finished games back at least
every ``CHUNK_SECONDS``, so progress streams while messages stay few. Each worker holds its next batch
before it finishes the current one, so it never waits while the parent stores what it sent.
"""

from __future__ import annotations

import contextlib
import faulthandler
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from typing import Any

from arena.core.exit_status import describe_exit
from arena.core.failure import Failure
from arena.play.bot_makers import bot_maker
from arena.play.limits import SLOT_FIELDS, Limits, MoveGuard, alarm_tick, apply_memory_limit
from arena.play.referee import MatchOutcome, MatchSetup, forfeit_outcome, play
from arena.play.sandbox.confine import require_sandbox
from arena.play.setup_queue import SetupQueue
from arena.play.strays import swept
from arena.play.worker_cpus import keep_to, worker_cpus
from arena.play.worker_start import open_descriptors, spawn_safely, worker_started
from arena.plugins.registry import PluginConfig, Registry, load_registry

CHUNK_SECONDS = 0.02
MAX_CHUNK = 64
POLL_SECONDS = 0.05
BATCHES_AHEAD = 2
"""Batches a worker holds at once: the one it plays and the next, sent while it plays the first."""
QUEUED_BYTES = 64 * 1024
"""A second batch goes out only if it is this small: far below a pipe's buffer, so sending it can't block on a
worker that is stuck in a move (the parent must stay free to kill it)."""


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_in_process(setups: Iterable[MatchSetup], registry: Registry) -> Iterator[MatchOutcome]:
    """Play the games one after another in this process (overrunning Python code is still interrupted)."""
    for setup in setups:
        guard = MoveGuard()
        with guard.installed(alarm_tick(setup.move_seconds())):
            outcome = swept(setup, registry, None, partial(play, setup, registry, guard=guard))
        yield outcome


def chunk_size(seconds_per_game: float, games: int, workers: int) -> int:
    """Games per message to a worker: about ``CHUNK_SECONDS`` of play, and at least four per worker."""
    by_time = int(CHUNK_SECONDS / max(seconds_per_game, 1e-6))
    by_balance = games // (workers * 4)
    return max(1, min(by_time, by_balance, MAX_CHUNK))


def start_method() -> str:
    """How to start a worker: ``fork`` on Linux from a process running no other Python thread, else ``spawn``.

    A forked worker starts in milliseconds with the arena already imported, where a spawned one imports it
    again (about a quarter of a second). Forking a process whose other threads may hold a lock (a live
    progress display, a web server) could leave that lock held for ever in the worker, so then workers are
    spawned.
    """
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _silence_output() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__  # a forked worker's may be a live display's proxies
    faulthandler.disable()  # a forked worker inherits it, writing to wherever the parent's stderr was


def _worker_main(conn: Connection, config: PluginConfig, limits: Limits, slots: Any, slot: int, parent: int,
                 inherited: frozenset[int] = frozenset(), cpu: int | None = None) -> None:
    worker_started(parent, inherited)  # dies with the command, holds none of its files, imports nothing from "."
    keep_to(cpu)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _silence_output()
    apply_memory_limit(limits.memory_limit)
    registry = load_registry(config)
    guard = MoveGuard(slots, slot, limits.grace)
    make_bot = bot_maker(config, limits)
    tick = None
    installed = None
    while True:
        try:
            batch = conn.recv()
        except EOFError:
            return
        if batch is None:
            if make_bot is not None:
                make_bot.close()
            conn.close()
            if not multiprocessing.active_children():  # a bot's own worker processes are left to the usual exit
                os._exit(0)  # nothing else to clean up: skip tearing the interpreter down, which takes longer
            return
        finished: list[MatchOutcome] = []
        last_sent = time.monotonic()
        for setup in batch:
            if tick != alarm_tick(setup.move_seconds()):
                if installed is not None:
                    installed.__exit__(None, None, None)
                tick = alarm_tick(setup.move_seconds())
                installed = guard.installed(tick)
                installed.__enter__()
            finished.append(_play_safely(setup, registry, guard, make_bot))
            if time.monotonic() - last_sent >= CHUNK_SECONDS:
                conn.send(finished)
                finished, last_sent = [], time.monotonic()
        if finished:
            conn.send(finished)


def _play_safely(setup: MatchSetup, registry: Registry, guard: MoveGuard, make_bot: Any = None) -> MatchOutcome:
    return swept(setup, registry, make_bot, partial(_play_guarded, setup, registry, guard, make_bot))


def _play_guarded(setup: MatchSetup, registry: Registry, guard: MoveGuard, make_bot: Any) -> MatchOutcome:
    try:
        return play(setup, registry, guard=guard, make_bot=make_bot)
    except MemoryError:
        # The referee itself ran out of memory, most likely still held by a bot: nobody is to blame.
        return forfeit_outcome(setup, registry, None,
                               Failure("memory", "the worker ran out of memory between bot calls"))


@dataclass
class _Worker:
    slot: int
    process: Any
    conn: Connection
    in_flight: deque[MatchSetup] = field(default_factory=deque)
    batches: deque[int] = field(default_factory=deque)
    """Games still to come back from each batch sent, oldest first."""

    def send(self, batch: list[MatchSetup], message: bytes | memoryview) -> None:
        """Send a batch (``message``: the batch pickled) to play after the ones it holds.

        If the worker has just died, the batch stays in hand: it goes back in the queue once the death is seen.
        """
        self.in_flight.extend(batch)
        self.batches.append(len(batch))
        with contextlib.suppress(OSError):
            self.conn.send_bytes(message)

    def can_take(self, batch_bytes: int) -> bool:
        """Whether to send it another batch now: it holds none, or one and the new one is small."""
        return not self.batches or (len(self.batches) < BATCHES_AHEAD and batch_bytes <= QUEUED_BYTES)

    def returned(self) -> MatchSetup:
        """Account for one game that came back; return its setup."""
        self.batches[0] -= 1
        if not self.batches[0]:
            self.batches.popleft()
        return self.in_flight.popleft()


class WorkerPool:
    """Supervised worker processes that play games and yield outcomes as each game finishes."""

    def __init__(self, workers: int, config: PluginConfig, limits: Limits | None = None,
                 registry: Registry | None = None):
        self.workers = workers
        self.config = config
        self.limits = limits or Limits()
        if self.limits.sandbox is not None:
            require_sandbox()  # on this machine (a Ray node's, too), before any worker starts
        self.registry = registry or load_registry(config)
        self._slots = multiprocessing.get_context("spawn").RawArray("d", SLOT_FIELDS * workers)
        self._cpus = worker_cpus(workers)
        self._pool = [self._start(slot) for slot in range(workers)]
        self.replaced = 0
        self._interrupted = False

    def _start(self, slot: int) -> _Worker:
        for field_index in range(SLOT_FIELDS):
            self._slots[slot * SLOT_FIELDS + field_index] = 0.0
        forked = start_method() == "fork"
        context = multiprocessing.get_context("fork") if forked else multiprocessing.get_context("spawn")
        spawn_safely()
        parent, child = context.Pipe()
        # A forked worker inherits every descriptor of this process (fork ignores close-on-exec): it lets go of
        # all it had before the fork but its own end of the pipe. A spawned one inherits none.
        inherited = open_descriptors() - {child.fileno()} if forked else frozenset()
        cpu = None if self._cpus is None else self._cpus[slot]
        process = context.Process(target=_worker_main, name=f"arena-worker-{slot}",
                                  args=(child, self.config, self.limits, self._slots, slot, os.getpid(), inherited,
                                        cpu), daemon=False)
        process.start()
        child.close()
        return _Worker(slot, process, parent)

    def run(self, setups: Iterable[MatchSetup]) -> Iterator[MatchOutcome]:
        """Play ``setups``; outcomes come back in the order games finish, not the schedule's.

        The first games go out one at a time to measure how long a game takes; later ones go in
        batches of about ``CHUNK_SECONDS`` of play. Each outcome comes back as soon as its game ends.
        """
        for arrived in self.run_batches(setups):
            yield from arrived

    def run_batches(self, setups: Iterable[MatchSetup]) -> Iterator[list[MatchOutcome]]:
        """Like :meth:`run`, but yield the outcomes that arrive together (one worker's message: at most
        ``CHUNK_SECONDS`` of its games) as one list, so a caller can store them in one transaction.

        ``setups`` is read only as games are handed out (:class:`SetupQueue`), so it may be a lazy iterable
        of any length; with a length, it also sizes the batches."""
        queue = SetupQueue(setups)
        chunk = 1
        probes: list[float] = []
        while queue or any(worker.in_flight for worker in self._pool):
            for worker in self._pool:
                self._top_up(worker, queue, chunk)
            ready = wait([w.conn for w in self._pool] + [w.process.sentinel for w in self._pool], POLL_SECONDS)
            for worker in list(self._pool):
                if self._interrupted:
                    return  # no worker is replaced: the caller closes the pool
                if worker.conn in ready:
                    try:
                        while worker.conn.poll():
                            arrived = worker.conn.recv()
                            for outcome in arrived:
                                worker.returned()
                                if len(probes) < self.workers * 2:
                                    probes.append(outcome.duration)
                                    if len(probes) == self.workers * 2:
                                        # The fastest probe: a fresh worker's first games run slower.
                                        chunk = chunk_size(min(probes), len(queue), self.workers)
                            # Its next batch goes out before the caller stores these, which may take as long
                            # as the worker takes to play the batch it holds.
                            self._top_up(worker, queue, chunk)
                            yield arrived
                    except (EOFError, OSError):
                        pass  # it died: the sentinel or the exit code tells how
                if not worker.process.is_alive():
                    yield from self._replace(worker, queue, killed=False)
                elif self._overdue(worker):
                    worker.process.kill()
                    worker.process.join()
                    yield from self._replace(worker, queue, killed=True)

    @staticmethod
    def _top_up(worker: _Worker, queue: SetupQueue, chunk: int) -> None:
        """Send ``worker`` batches of ``chunk`` games from ``queue`` until it holds as many as it may."""
        while queue and len(worker.batches) < BATCHES_AHEAD:
            batch = queue.peek(chunk)
            message = ForkingPickler.dumps(batch)
            if not worker.can_take(len(message)):
                break
            queue.take(len(batch))
            worker.send(batch, message)

    def _overdue(self, worker: _Worker) -> bool:
        base = worker.slot * SLOT_FIELDS
        started: float = self._slots[base]
        limit: float = self._slots[base + 2]
        return started > 0 and time.monotonic() - started > self.limits.kill_after(limit)

    def _replace(self, worker: _Worker, queue: SetupQueue, killed: bool) -> Iterator[list[MatchOutcome]]:
        base = worker.slot * SLOT_FIELDS
        moving = self._slots[base] > 0
        seat = int(self._slots[base + 1]) if moving else None
        allowed = self._slots[base + 2]  # the move's own allowance, as its clock gave it
        worker.process.join()
        code = worker.process.exitcode
        if worker.in_flight:
            setup = worker.in_flight.popleft()
            if killed:
                failure = Failure("timeout", f"was still thinking {self.limits.kill_after(allowed):.2f} s "
                                             "after its move started, and its worker was killed")
            else:
                failure = Failure("crash", f"killed its worker process ({describe_exit(code)})")
            yield [forfeit_outcome(setup, self.registry, seat, failure)]
            queue.put_back(worker.in_flight)
        worker.conn.close()
        self._pool[self._pool.index(worker)] = self._start(worker.slot)
        self.replaced += 1

    def interrupt(self) -> None:
        """Kill the workers, from another thread or a signal handler: :meth:`run` then ends without replacing
        them or yielding the games in hand, and the thread running it closes the pool (closing it from here
        would close its pipes under that thread)."""
        self._interrupted = True
        for worker in list(self._pool):
            with contextlib.suppress(OSError, ValueError):  # gone already
                worker.process.kill()

    def close(self, terminate: bool = False) -> None:
        """Stop the workers: at once with ``terminate``, else after their current batch."""
        for worker in self._pool:
            if terminate:
                worker.process.kill()
            else:
                try:
                    worker.conn.send(None)
                except (BrokenPipeError, OSError):
                    worker.process.kill()
        for worker in self._pool:
            worker.process.join()
            worker.conn.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(terminate=exc_info[0] is not None)
