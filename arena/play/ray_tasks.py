"""Tasks on a Ray cluster: a :class:`concurrent.futures.Executor` whose tasks run as Ray tasks.

Each task runs a module-level function of the arena on whichever node has a free CPU, and is run again
elsewhere if its worker or node dies (Ray retries it), so a task's result comes back exactly once. The
arena must be installed on every node; each task carries the source hash of the arena package it was
scheduled with, and a worker whose arena differs refuses it in one line rather than run other code.
"""

from __future__ import annotations

import functools
import hashlib
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.play.ray_connection import connect
from arena.play.ray_executor import import_ray, notices_to_stderr

RETRIES = 3
"""How many times Ray runs a task again after its worker or node died."""


@functools.cache
def arena_code_version() -> str:
    """A hash of every Python source file of the arena package, as installed here."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def run_checked(version: str, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run ``fn(*args, **kwargs)`` after checking that this node's arena is the scheduled ``version``."""
    here = arena_code_version()
    if here != version:
        raise ArenaError(f"a Ray node runs arena code {here}, but {version} was scheduled: install the same "
                         "arena on every node")
    return fn(*args, **kwargs)


class RayTaskPool(Executor):
    """Ray tasks of one CPU each; ``size`` (default: the cluster's CPUs) is how many run at once."""

    def __init__(self, size: int | None, address: str | None):
        self.ray = import_ray()
        self.started_here = connect(self.ray, address)
        self.restore_notices = notices_to_stderr()
        self.size = size or max(int(self.ray.cluster_resources().get("CPU", 1)), 1)
        self.task = self.ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(run_checked)
        self.version = arena_code_version()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; a future of its result."""
        future: Future[Any] = self.task.remote(self.version, fn, args, kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Leave the cluster (stopping the local Ray, if this pool started it)."""
        if self.started_here:
            self.ray.shutdown()
        self.restore_notices()
