"""The league's ladder: plays the league's queue continuously through an executor, in a background thread.

Each turn of its loop: queue the final if its deadline has passed (and a bracket final's next wave once its
games so far are played); once no ranked game is waiting, queue
the next :data:`~arena.league.facade.PLAN_AHEAD` ranked matches (:meth:`League.schedule_ranked`, by the
matchmaking rule, from the ratings after every ranked game queued before them: so the games a league plays
do not depend on the number of workers or their speed); play the waiting games in queue order (the
unrated challenges and the final with them) on the executor's workers, storing and rating each the moment
it ends (:meth:`League.record_outcome`). The workers are started again only when the versions to play
change (a new submission): they register the league's versions from the database.

Restart-safe: the queue and every finished game are committed as they happen, so a ladder killed
outright (``kill -9``) loses no finished game; the next one plays the waiting games under the same
places in the queue (same seeds), and a game stored already is never stored twice.

One ladder plays a league at a time: :meth:`LeagueLadder.run` holds the folder's ladder lock
(:mod:`arena.league.ladder_lock`) while it plays, or is given it held (``arena serve`` takes it before it
listens, so a second server is refused before anything starts).
"""

from __future__ import annotations

import os
import threading
import traceback
from collections.abc import Callable
from pathlib import Path

from arena.core.errors import ArenaError
from arena.league import sandboxing
from arena.league.facade import PLAN_AHEAD, RANKED, League
from arena.league.ladder_lock import LadderLock
from arena.league.models import WorkersInfo
from arena.play.executor_choice import LOCAL, Executor, ExecutorChoice
from arena.play.executors import default_workers
from arena.play.referee import MatchOutcome
from arena.plugins.registry import PluginConfig, load_registry
from arena.plugins.stored import prune_unpacked
from arena.plugins.stored_roots import StoredRoot, make_root
from arena.storage.store import now

IDLE_SECONDS = 1.0
"""How long the ladder waits before looking again when there is nothing to play."""
BATCH = 64
"""The most games handed to the workers at once (a new submission waits at most for these to end)."""


OUTSIDE_STOPS = tuple(f"killed its worker process (signal {name})" for name in ("SIGTERM", "SIGINT", "SIGHUP"))
"""How the executor describes a worker stopped by the machine (the server shutting down, Ctrl-C), not by a bot:
in the league's sandbox no bot can send its worker a signal."""


def stopped_from_outside(outcome: MatchOutcome) -> bool:
    """Whether ``outcome`` is a game cut short because its worker was stopped from outside: it is never stored."""
    return any(stop in outcome.reason for stop in OUTSIDE_STOPS)


class LeagueLadder:
    """Plays a league's games until stopped (see the module's docstring).

    ``start()`` runs it in a background thread, ``stop()`` ends it cleanly (the games in hand are
    abandoned, not stored: they are played again by the next ladder); ``run()`` runs it in the calling
    thread until ``stop()`` or ``max_games`` stored games. ``lock``: the folder's ladder lock, held
    already (else ``run()`` takes it, and refuses to play if another process holds it).
    """

    def __init__(self, folder: str | Path, executor: ExecutorChoice = LOCAL, workers: int | None = None,
                 max_games: int | None = None, on_game: Callable[[int], None] | None = None,
                 lock: LadderLock | None = None):
        self.folder = Path(folder)
        self.lock = lock
        self.executor = executor
        self.workers = workers or (default_workers() if executor.name == "local" else 1)
        self.max_games = max_games
        self.on_game = on_game
        self.games_played = 0
        self.error: str | None = None
        """Why the ladder stopped on its own, if it did."""
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool: Executor | None = None
        self._pool_bots: frozenset[tuple[str, str]] = frozenset()
        self._root: StoredRoot | None = None
        self._started = now()

    # --- running ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Run the ladder in a background thread."""
        if self._thread is not None:
            raise ArenaError("the ladder is running already")
        self._thread = threading.Thread(target=self._run_logged, name="league-ladder", daemon=True)
        self._thread.start()

    def stop(self, timeout: float | None = 30.0) -> None:
        """Stop the ladder: no new game starts, the workers are stopped, the thread ends.

        Safe from another thread and from a signal handler: the workers are only killed here; the thread
        that plays closes its executor itself.
        """
        self._stopping.set()
        pool = self._pool
        if pool is not None:
            interrupt = getattr(pool, "interrupt", None)
            if interrupt is not None:
                interrupt()
            else:  # an executor that cannot be interrupted from outside
                pool.close(terminate=True)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        """Whether the background thread is running."""
        return self._thread is not None and self._thread.is_alive()

    def _run_logged(self) -> None:
        try:
            self.run()
        except Exception as exc:  # the server shows it; the thread must not die silently
            self.error = f"{type(exc).__name__}: {exc}"
            traceback.print_exc()

    def run(self) -> None:
        """Play until :meth:`stop` (or ``max_games`` stored games); an :class:`ArenaError` if another ladder
        plays the league. The versions' files are unpacked in a root of the ladder's own, removed when it stops."""
        if self.lock is not None and self.lock.held:
            self._play()
            return
        with LadderLock.take(self.folder, "a ladder"):
            self._play()

    def _play(self) -> None:
        self._root = make_root()
        try:
            with League.open(self.folder) as league:
                try:
                    while not self._stopping.is_set() and not self._enough():
                        if not self._turn(league):
                            self._report(league, "paused" if league.paused else "waiting")
                            self._stopping.wait(IDLE_SECONDS)
                finally:
                    self._close_pool()
                    self._report(league, "stopped")
        finally:
            self._root.release()

    def _enough(self) -> bool:
        return self.max_games is not None and self.games_played >= self.max_games

    def _turn(self, league: League) -> bool:
        """Play one batch of waiting games; ``False`` if there was nothing to play."""
        if league.final_due():
            league.start_final()
        league.advance_final()
        if not league.waiting((RANKED,)):
            league.schedule_ranked(PLAN_AHEAD)
        batch = league.waiting()[:BATCH]
        if not batch:
            return False
        if self.max_games is not None:
            batch = batch[:self.max_games - self.games_played]
        pool = self._pool_for(league, batch)
        if self._stopping.is_set():
            return True
        self._report(league, "playing")
        setups = {setup.index: setup for setup in league.setups(batch)}
        try:
            # read as games are handed out: one dropped meanwhile (a pause, a disabled version) is not played
            for outcome in pool.run(setups[i] for i in batch if i in league.waiting()):
                if self._stopping.is_set() or stopped_from_outside(outcome):
                    break  # the game is played again by the next ladder
                if league.record_outcome(setups[outcome.index], outcome):
                    self.games_played += 1
                    if self.on_game is not None:
                        self.on_game(outcome.index)
        except Exception:
            if not self._stopping.is_set():
                raise  # stopping closes the workers under the loop: what that raises is expected
        return True

    # --- the workers --------------------------------------------------------------------------------

    def _pool_for(self, league: League, batch: list[int]) -> Executor:
        """The running executor if its workers know every version ``batch`` plays, else a new one that knows
        them and every active version."""
        needed = league.play_bots(batch)
        if self._pool is not None and {(b.name, b.version) for b in needed} <= self._pool_bots:
            return self._pool
        self._close_pool()
        everyone = {(b.name, b.version): b for b in (*league.play_bots(league.waiting(), active=True), *needed)}
        assert self._root is not None  # made by run()
        prune_unpacked(self._root.path, everyone.values())  # the versions no longer played
        config: PluginConfig = sandboxing.play_config(tuple(everyone.values()), league.settings.build_timeout,
                                                      self._root.path)
        registry = load_registry(config)
        limits = sandboxing.play_limits(self.workers, league.settings.build_bytes)
        self._pool = self.executor.start(self.workers, config, limits, registry)
        self._pool_bots = frozenset(everyone)
        return self._pool

    def _close_pool(self) -> None:
        if self._pool is not None:
            self._pool.close(terminate=True)
            self._pool = None
            self._pool_bots = frozenset()

    def _report(self, league: League, state: str) -> None:
        league.report_workers(WorkersInfo(self.executor.name, self.workers, state, self._started, now(),
                                          self.games_played, os.getpid()))
