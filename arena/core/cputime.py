"""CPU seconds of a process and everything it started, read from ``/proc``.

Summing over the process tree under the process the arena started counts a bot's own work however it is
run: straight, behind a shell script, or as the child of a sandbox launcher in its own PID namespace (its
processes keep host process ids in this ``/proc``). Children that ended and were collected count in their
parent's ``cutime`` and ``cstime``, so no work is lost or counted twice.
"""

from __future__ import annotations

import os

from arena.core.child_processes import stat_fields

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_tree_cpu(root: int) -> float:
    """CPU seconds (user and system) used so far by process ``root``, its descendants and their collected children.

    ``0.0`` when the process is gone or ``/proc`` cannot be read.
    """
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0.0
    for name in names:
        if not name.isdigit():
            continue
        fields = stat_fields(name)
        if fields is None or len(fields) < 15:
            continue
        pid = int(name)
        parents[pid] = int(fields[1])
        ticks[pid] = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    total = 0
    tree = {root}
    for pid in sorted(parents):  # a child's pid may be lower than its parent's after pid wrap-around
        if _descends(pid, root, parents):
            tree.add(pid)
    for pid in tree:
        total += ticks.get(pid, 0)
    return total / _TICK


def _descends(pid: int, root: int, parents: dict[int, int]) -> bool:
    seen = 0
    while pid in parents and seen < 64:
        if pid == root:
            return True
        pid = parents[pid]
        seen += 1
    return pid == root
