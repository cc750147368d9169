"""This process's child processes as ``/proc`` shows them, and Linux's child subreaper flag.

A process that dies leaves its children to the nearest ancestor marked a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``), or to init when there is none. A process that sets the flag therefore
adopts every orphan among its descendants, a ``setsid`` double-fork's grandchild included, and finds it among
its own children. Everything here answers "nothing" where ``/proc`` or ``prctl`` is missing (not Linux).
"""

from __future__ import annotations

import ctypes
import functools
import os
import select
import signal
import time
from dataclasses import dataclass
from typing import Any

PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
PF_EXITING = 0x4
"""The kernel's flag of a process that has begun to exit (``/proc/PID/stat``, field 9)."""
_SIGKILL_BIT = 1 << (signal.SIGKILL - 1)
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Child:
    """One process as ``/proc/PID/stat`` and ``/proc/PID/status`` describe it."""

    pid: int
    started: int
    """When it started, in clock ticks after boot (with ``pid``, names it even after its pid is reused)."""
    state: str
    """Its state letter: ``R``, ``S``, ``D``, ``T``, ``Z`` (a zombie: exited, not yet collected), ..."""
    dying: bool
    """Whether it is on its way out already: exited, exiting, or a SIGKILL is pending for it."""


def children() -> list[int]:
    """The process ids of this process's children (of all its threads)."""
    pids: list[int] = []
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return []
    found = False
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children", "rb") as listing:
                pids.extend(int(pid) for pid in listing.read().split())
            found = True
        except (OSError, ValueError):
            continue
    return pids if found else _children_by_parent()


def _children_by_parent() -> list[int]:
    """The children found by scanning every process's parent (a kernel without ``/proc/PID/task/TID/children``)."""
    me = os.getpid()
    pids = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if name.isdigit():
            fields = stat_fields(name)
            if fields is not None and len(fields) > 1 and int(fields[1]) == me:
                pids.append(int(name))
    return pids


def stat_fields(pid: str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the name (the state is the first), or ``None`` if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()  # the name in parentheses may hold spaces


def child(pid: int) -> Child | None:
    """What ``/proc`` says of process ``pid``; ``None`` if it is gone."""
    fields = stat_fields(str(pid))
    if fields is None or len(fields) < 20:
        return None
    state = fields[0]
    dying = state in "ZXx" or bool(int(fields[6]) & PF_EXITING) or _kill_pending(pid)
    return Child(pid, int(fields[19]), state, dying)


def _kill_pending(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith((b"SigPnd:", b"ShdPnd:")) and int(line.split()[1], 16) & _SIGKILL_BIT:
                    return True
    except (OSError, ValueError, IndexError):
        return False
    return False


def collect(pid: int, deadline: float) -> bool:
    """Collect child ``pid`` once it has ended (it was sent SIGKILL), waiting at most until ``deadline`` (of
    :func:`time.monotonic`) for a process stuck in the kernel; whether it was collected (or was not a child)."""
    if _collected(pid):
        return True
    try:
        watched = os.pidfd_open(pid)
    except (AttributeError, OSError):  # no pidfd (before Linux 5.3): look every millisecond
        while time.monotonic() < deadline:
            time.sleep(0.001)
            if _collected(pid):
                return True
        return False
    try:
        select.select([watched], [], [], max(0.0, deadline - time.monotonic()))  # readable once it has ended
    finally:
        os.close(watched)
    return _collected(pid)


def _collected(pid: int) -> bool:
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done != 0


def ticks_now() -> int:
    """The time now in the unit of :attr:`Child.started`: clock ticks after boot."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * _TICK)


@functools.cache
def _libc() -> Any:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def is_subreaper() -> bool | None:
    """Whether this process is a child subreaper; ``None`` where the flag does not exist."""
    libc = _libc()
    flag = ctypes.c_int(0)
    if libc is None or not hasattr(libc, "prctl") or libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0):
        return None
    return bool(flag.value)


def set_subreaper(on: bool) -> bool:
    """Make this process a child subreaper (or not); whether that worked."""
    libc = _libc()
    if libc is None or not hasattr(libc, "prctl"):
        return False
    return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0)
