"""The built-in executors and their task pools, registered through the same hook a plugin would use: ``local``
and ``ray``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.play.limits import Limits
from arena.plugins.hookspecs import hookimpl
from arena.plugins.registrars import ExecutorRegistrar
from arena.plugins.registry import PluginConfig, Registry

if TYPE_CHECKING:  # imported when a factory runs, so that loading the plugin starts no engine
    from arena.play.executor_choice import Executor
    from arena.play.task_pools import TaskPool


def local_executor(workers: int | None, config: PluginConfig, limits: Limits, registry: Registry,
                   address: str | None) -> Executor:
    """Supervised worker processes on this machine (``address`` is not used)."""
    from arena.play.executors import WorkerPool, default_workers

    return WorkerPool(workers or default_workers(), config, limits, registry)


def ray_executor(workers: int | None, config: PluginConfig, limits: Limits, registry: Registry,
                 address: str | None) -> Executor:
    """A Ray cluster (``address``, ``$RAY_ADDRESS``, or a local Ray started for the command)."""
    from arena.play.ray_executor import RayExecutor

    return RayExecutor(workers, config, limits, registry, address)


def local_tasks(workers: int | None, address: str | None) -> TaskPool:
    """Processes of this machine for an experiment's tasks (one unless ``workers`` says more)."""
    from arena.play.task_pools import LocalTaskPool

    return LocalTaskPool(workers or 1)


def ray_tasks(workers: int | None, address: str | None) -> TaskPool:
    """Ray tasks on the cluster at ``address`` (as for :func:`ray_executor`), ``workers`` (default: the
    cluster's CPUs) at once."""
    from arena.play.ray_tasks import RayTaskPool

    return RayTaskPool(workers, address)


@hookimpl
def register_executors(register: ExecutorRegistrar) -> None:
    """Register ``local`` and ``ray``, each with its task pool."""
    register("local", local_executor, tasks=local_tasks)
    register("ray", ray_executor, tasks=ray_tasks)
