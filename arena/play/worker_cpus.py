"""Which CPU each local worker keeps to.

With as many workers as the CPUs the command may use (the default), worker ``k`` keeps to the ``k``-th of them,
and so does everything it starts: its out-of-process bots (a sandboxed bot's zygote and every game it forks, an
``--isolate`` process, a program). A game's worker and its bots then pass each move to each other on one
CPU, with no wake-up of another CPU, and no bot's threads or processes take CPU time from another worker's
games. With fewer workers than CPUs the workers are left to the scheduler (there is room to balance), and
``ARENA_WORKER_AFFINITY=0`` in the environment leaves them to it always.
"""

from __future__ import annotations

import contextlib
import os

SWITCH = "ARENA_WORKER_AFFINITY"


def worker_cpus(workers: int) -> list[int] | None:
    """The CPU of each worker slot (``None``: workers are not kept to one): the CPUs this process may use, when
    ``workers`` is their number and more than one."""
    if os.environ.get(SWITCH, "1") == "0" or not hasattr(os, "sched_getaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    return allowed if workers > 1 and workers == len(allowed) else None


def keep_to(cpu: int | None) -> None:
    """Keep this process (and what it starts from now on) to ``cpu``; ``None``: leave it as it is."""
    if cpu is not None:
        with contextlib.suppress(OSError):  # the CPU went offline meanwhile: the scheduler's choice, as before
            os.sched_setaffinity(0, {cpu})
