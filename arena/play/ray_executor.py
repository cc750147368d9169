"""Games on a Ray cluster, with the guarantees of the local executor.

Each Ray worker is an actor that keeps one supervised worker process of its own
(:class:`arena.play.executors.WorkerPool` of one), so per-move alarms, memory caps, the kill of a stuck
bot and the containment of a bot that kills its process work there exactly as on this machine: a bot can
take down its worker process, never the Ray worker. Games go to the actors in batches sized by how long a
game takes (a Ray call costs far more than a short game), and come back to the command, which stores them:
the database never leaves this machine.

What travels: the games themselves (each setup holds its map's text), and the files of every bot directory
the command uses beyond the shipped ones (``./bots``, ``--bots-dir``, ``$ARENA_BOTS_PATH``), put once in
the object store and unpacked by each actor; installed plugins must be installed on every node, as the
arena itself. Every batch carries the version (source hash) of each bot in it, and an actor whose bots
differ refuses it with a one-line error rather than mixing versions.

Faults: when an actor, or the node it runs on, dies, the batch it held is played again by another actor and
a replacement actor is started where the cluster has room; a game is only ever yielded once. A node that
cannot play the games as asked (``--sandbox`` where bubblewrap is missing, bots that do not load there)
refuses them in one line naming it, and no game is played until every actor is up, so that such a node stops
the command before any game is stored rather than leave the games to the others.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.play.executors import chunk_size
from arena.play.limits import Limits
from arena.play.ray_connection import connect
from arena.play.referee import MatchOutcome, MatchSetup
from arena.play.setup_queue import SetupQueue
from arena.plugins.registry import PluginConfig, Registry, bot_directories

BATCH_SECONDS = 0.2
"""About how long a batch of games takes on an actor: long enough that a Ray call is a small share of it."""
WAIT_SECONDS = 0.05
MAX_BUNDLE_BYTES = 64 * 2**20


def import_ray() -> Any:
    """The ray module, or a one-line error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ArenaError("the ray executor needs Ray: pip install -e '.[ray]'") from None
    return ray


Bundle = list[tuple[str, list[tuple[str, bytes]]]]
"""Each bot directory's path on this machine and its files (path inside it, contents)."""


def bot_bundle(config: PluginConfig) -> Bundle:
    """The files of each bot directory the command uses beyond the shipped one, in priority order."""
    bundle: Bundle = []
    total = 0
    for directory, label in bot_directories(config):
        if label == "shipped":
            continue
        files = []
        for path in sorted(directory.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                data = path.read_bytes()
                total += len(data)
                files.append((str(path.relative_to(directory)), data))
        if total > MAX_BUNDLE_BYTES:
            raise ArenaError(f"the bot directories hold more than {MAX_BUNDLE_BYTES // 2**20} MB: too much to send "
                             "to a cluster")
        bundle.append((str(directory.resolve()), files))
    return bundle


def unpack_bundle(bundle: Bundle, config: PluginConfig) -> tuple[PluginConfig, dict[str, str]]:
    """Write the bot directories into a fresh temporary folder: the config that loads them (and nothing of
    the node's own working directory or environment), and each unpacked directory's original path."""
    root = Path(tempfile.mkdtemp(prefix="arena-bots-"))
    originals = {}
    for index, (original, files) in enumerate(bundle):
        directory = root / str(index)
        directory.mkdir()
        for name, data in files:
            target = directory / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        originals[str(directory)] = original
    config = replace(config, bot_dirs=tuple(originals), use_cwd_bots=False, use_env_path=False)
    return config, originals


def with_original_paths(outcome: MatchOutcome, originals: dict[str, str]) -> MatchOutcome:
    """``outcome`` with the unpacked bot directories' paths in its reason and failures (a crashing bot's
    traceback) put back to the paths they have on the machine that runs the command."""
    def restore(text: str) -> str:
        for unpacked, original in originals.items():
            text = text.replace(unpacked, original)
        return text

    failures = {seat: replace(failure, detail=restore(failure.detail), traceback=restore(failure.traceback))
                for seat, failure in outcome.failures.items()}
    return replace(outcome, reason=restore(outcome.reason), failures=failures)


def versions_of(setups: Sequence[MatchSetup], registry: Registry) -> dict[str, str]:
    """The version of every bot (by label) the games use, as this machine's registry has it."""
    return {spec.label: registry.version_of(spec) for setup in setups for spec in setup.bots}


def this_node() -> str:
    """How a message names the Ray node it runs on: the address it has in the cluster, and its host name."""
    import ray

    node_id = ray.get_runtime_context().get_node_id()
    address = next((node["NodeManagerAddress"] for node in ray.nodes() if node["NodeID"] == node_id), "?")
    return f"the Ray node {address} ({os.uname().nodename})"


class GamePlayer:
    """The body of a Ray actor: a supervised worker process that plays batches of games.

    A node that cannot play the games as asked (``--sandbox`` where bubblewrap is missing, bots that do not
    load) keeps its one-line reason and gives it as the answer to every call, rather than dying: a dead
    actor would look like a lost node, whose games go to another actor."""

    def __init__(self, bundle: Any, config: PluginConfig, limits: Limits):
        from arena.play.executors import WorkerPool
        from arena.play.sandbox.confine import require_sandbox
        from arena.plugins.registry import load_registry

        self.refusal: str | None = None
        self.pool: WorkerPool | None = None
        try:
            if limits.sandbox is not None:
                require_sandbox(this_node())  # before the registry: its checks of bot modules run confined
            self.config, self.originals = unpack_bundle(bundle, config)
            self.registry = load_registry(self.config)
            self.pool = WorkerPool(1, self.config, limits, self.registry)
        except ArenaError as exc:
            self.refusal = str(exc)

    def ready(self) -> bool:
        """Answers once the actor is up; raises its node's refusal."""
        if self.refusal is not None:
            raise ArenaError(self.refusal)
        return True

    def stop(self) -> None:
        """Stop the worker process after its current game."""
        if self.pool is not None:
            self.pool.close()

    def play(self, setups: list[MatchSetup], versions: dict[str, str]) -> list[MatchOutcome]:
        """Play a batch, after checking that this node loaded the versions of the bots that were scheduled."""
        self.ready()
        assert self.pool is not None
        checked = set()
        for spec in (spec for setup in setups for spec in setup.bots if spec.label not in checked):
            checked.add(spec.label)
            try:
                here = self.registry.version_of(spec)
            except ArenaError:
                here = None
            if here != versions[spec.label]:
                found = "no such bot" if here is None else f"version {here}"
                raise ArenaError(f"bot {spec.label!r}: the cluster node {os.uname().nodename} has {found}, but "
                                 f"version {versions[spec.label]} was scheduled")
        return [with_original_paths(outcome, self.originals) for outcome in self.pool.run(setups)]


def notices_to_stderr() -> Any:
    """Send the notices Ray's driver prints about the cluster (a node that died) to stderr rather than stdout,
    which carries only a command's results (JSON, tables); returns what puts things back as they were."""
    try:
        from ray._private import worker
    except ImportError:  # another Ray layout: leave its printing alone
        return lambda: None
    original = getattr(worker, "print_to_stdstream", None)
    if original is None:
        return lambda: None

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        original({**data, "is_err": True}, ignore_prefix)

    worker.print_to_stdstream = to_stderr

    def restore() -> None:
        worker.print_to_stdstream = original

    return restore


class RayExecutor:
    """Plays games on the actors of a Ray cluster; ``workers`` actors (default: one per CPU of the cluster)."""

    def __init__(self, workers: int | None, config: PluginConfig, limits: Limits, registry: Registry,
                 address: str | None = None):
        self.ray = import_ray()
        self._start(workers, config, limits, registry, address)

    def _start(self, workers: int | None, config: PluginConfig, limits: Limits, registry: Registry,
               address: str | None) -> None:
        ray = self.ray
        self.started_here = connect(ray, address, workers)
        self.restore_notices = notices_to_stderr()
        self.registry = registry
        self.limits = limits
        self.config = config
        self.bundle = ray.put(bot_bundle(config))
        self.actor_class = ray.remote(num_cpus=1, max_restarts=0)(GamePlayer)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if workers is not None and workers > cpus:  # the workers past the cluster's CPUs would never start
            if self.started_here:
                ray.shutdown()
            self.restore_notices()
            raise ArenaError(f"--workers {workers}: the Ray cluster has {cpus} CPU(s) and each worker takes one; "
                             f"give --workers {cpus} or fewer, or add nodes")
        self.size = workers or max(cpus, 1)
        self.actors = [self._new_actor() for _ in range(self.size)]
        self.starting: list[Any] = []  # replacements not known to be up: one may wait for room that never comes
        self.replaced = 0
        self.all_ready = False

    def _new_actor(self) -> Any:
        return self.actor_class.remote(self.bundle, self.config, self.limits)

    def _refusal(self, exc: Exception) -> ArenaError | None:
        """The one-line refusal of a node (an :class:`ArenaError` raised on it) that a Ray error carries, if any."""
        cause = getattr(exc, "cause", None) if isinstance(exc, self.ray.exceptions.RayTaskError) else None
        return ArenaError(str(cause)) if isinstance(cause, ArenaError) else None

    def _wait_until_ready(self) -> None:
        """Wait for every actor to be up, so that a node that refuses the games stops the command in one line
        before any game is played (an actor that died starting is replaced as a lost one is, later)."""
        refusal = None
        for probe in [actor.ready.remote() for actor in self.actors]:
            try:
                self.ray.get(probe)
            except self.ray.exceptions.RayError as exc:  # every answer is taken, so Ray reports none as unhandled
                refusal = refusal or self._refusal(exc)
        if refusal is not None:
            raise refusal
        self.all_ready = True

    def run(self, setups: Iterable[MatchSetup]) -> Iterator[MatchOutcome]:
        """Play ``setups``; outcomes come back batch by batch, in the order batches finish."""
        for arrived in self.run_batches(setups):
            yield from arrived

    def run_batches(self, setups: Iterable[MatchSetup]) -> Iterator[list[MatchOutcome]]:
        """Like :meth:`run`, each finished batch's outcomes as one list (``setups`` read as games go out)."""
        ray = self.ray
        if not self.all_ready:
            self._wait_until_ready()
        queue = SetupQueue(setups)
        versions: dict[str, str] = {}
        idle = deque(self.actors)
        in_flight: dict[Any, tuple[Any, list[MatchSetup]]] = {}
        starting: dict[Any, Any] = {}  # readiness probe -> replacement actor not yet known to be up
        chunk = 1
        probes: list[Any] = []
        while queue or in_flight:
            while idle and queue:
                actor = idle.popleft()
                batch = queue.take(chunk)
                versions.update(versions_of([setup for setup in batch
                                             if any(spec.label not in versions for spec in setup.bots)],
                                            self.registry))
                in_flight[actor.play.remote(batch, versions)] = (actor, batch)
            done, _ = ray.wait(list(in_flight) + list(starting), num_returns=1, timeout=WAIT_SECONDS)
            for ref in done:
                if ref in starting:
                    actor = starting.pop(ref)
                    self.starting.remove(actor)
                    try:
                        ray.get(ref)
                        idle.append(actor)
                    except ray.exceptions.RayError as exc:
                        if (refusal := self._refusal(exc)) is not None:
                            raise refusal from None
                        # it could not start: the others go on
                    continue
                actor, batch = in_flight.pop(ref)
                try:
                    outcomes = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    if (refusal := self._refusal(exc)) is not None:
                        raise refusal from None
                    raise
                except ray.exceptions.RayError:
                    # The actor or its node died: its batch is played again, by a replacement if one starts.
                    queue.put_back(batch)
                    self.actors.remove(actor)
                    replacement = self._new_actor()
                    self.actors.append(replacement)
                    self.starting.append(replacement)
                    starting[replacement.ready.remote()] = replacement
                    self.replaced += 1
                    continue
                idle.append(actor)
                for outcome in outcomes:
                    if len(probes) < 2 * self.size:
                        probes.append(outcome.duration)
                        if len(probes) == 2 * self.size:
                            chunk = max(1, min(int(BATCH_SECONDS / max(min(probes), 1e-6)),
                                               chunk_size(min(probes), len(queue), self.size) * 16))
                yield outcomes
            if not in_flight and queue and not idle and not starting:
                raise ArenaError("every Ray worker died and none could be started again")

    def close(self, terminate: bool = False) -> None:
        """Stop the actors' worker processes and the actors (and the local Ray, if this command started it)."""
        ray = self.ray
        if not terminate:  # a replacement still starting has no game to finish: asking it would wait it out
            stopping = [actor.stop.remote() for actor in self.actors if not any(actor is s for s in self.starting)]
            ray.wait(stopping, num_returns=len(stopping), timeout=10)
        for actor in self.actors:
            with contextlib.suppress(ray.exceptions.RayError):  # already gone
                ray.kill(actor)
        if self.started_here:
            ray.shutdown()
        self.restore_notices()

    def __enter__(self) -> RayExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(terminate=exc_info[0] is not None)

