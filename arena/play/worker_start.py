"""What a process the arena starts for its own work (a game worker, a bot's own process, a task) does first.

- It dies with the process that started it: the kernel sends it SIGKILL when its parent ends
  (``prctl(PR_SET_PDEATHSIG)``, on Linux), whatever it is doing, and a parent that ended before that was set
  is noticed by its process id. The parent is the *thread* that started it, so a pool's workers live as long
  as the thread that started them.
- A forked one lets go of every file descriptor it inherited but does not use (:func:`release_inherited`):
  the other ends of its own and its siblings' pipes, so that a read sees the end of the file when the parent
  is gone, and the parent's database, which a forked process must never hold (SQLite's documentation).
- It never imports from the current directory: a ``random.py`` or ``org.py`` (which :mod:`pickle` looks for)
  in the folder a command was started from would otherwise shadow the module of that name. Spawned processes
  start Python with ``-P`` (:func:`spawn_safely`), and each one drops the directory from ``sys.path``
  (:func:`forget_current_directory`) where the command's own ``python -m`` put it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable, Iterable
from multiprocessing import util

PR_SET_PDEATHSIG = 1
_SPAWN_FLAG = "-P"
"""Python's flag (3.11+) that keeps the script's directory, or the current one for ``-c``, off ``sys.path``."""


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent ends; end now if ``parent`` is gone already.

    ``parent`` is the process id of the process that started this one, taken before it did: if the parent
    died before the death signal was set, this process has a new parent already."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the check below and the end of the pipe still stop a worker whose parent is gone
    if os.getppid() != parent:
        os._exit(1)


def open_descriptors() -> frozenset[int]:
    """The file descriptors this process has open (empty where ``/proc`` or ``/dev/fd`` is missing)."""
    for listing in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(listing)
        except OSError:
            continue
        found = set()
        for name in names:
            try:
                fd = int(name)
                os.fstat(fd)  # the listing's own descriptor is closed by now
            except (ValueError, OSError):
                continue
            found.add(fd)
        return frozenset(found)
    return frozenset()


def release_inherited(inherited: Iterable[int]) -> None:
    """Let go of the descriptors ``inherited`` from the parent (all but the standard streams).

    Each becomes ``/dev/null`` (closed on exec) rather than closed: an object of the parent that still names
    the number (a database connection, a pipe end) then never closes a file this process opens later under it.
    """
    devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    try:
        for fd in inherited:
            if fd > 2 and fd != devnull:
                try:
                    os.dup2(devnull, fd, inheritable=False)
                except OSError:
                    continue
    finally:
        os.close(devnull)


def forget_current_directory() -> None:
    """Drop the current directory (``''``, ``.`` or its path) from ``sys.path``."""
    here = os.path.realpath(os.getcwd())
    sys.path[:] = [entry for entry in sys.path
                   if entry not in ("", ".") and os.path.realpath(entry) != here]


def worker_started(parent: int, inherited: Iterable[int] = ()) -> None:
    """All of the above, for a process started by ``parent``: the first thing it does."""
    die_with_parent(parent)
    release_inherited(inherited)
    forget_current_directory()


def _with_safe_path(original: Callable[[], list[str]]) -> Callable[[], list[str]]:
    def interpreter_flags() -> list[str]:
        flags = original()
        return flags if _SPAWN_FLAG in flags else [*flags, _SPAWN_FLAG]

    interpreter_flags.arena_safe = True  # type: ignore[attr-defined]
    return interpreter_flags


def spawn_safely() -> None:
    """Start every Python that :mod:`multiprocessing` starts from now on (spawned processes, its resource
    tracker) with Python's ``-P``.

    Such a process runs ``python -c ...``, which puts the current directory first on ``sys.path`` before
    anything else runs: the imports of :mod:`multiprocessing` itself (:mod:`pickle` tries ``org``) would then
    load whatever file of that name the command was started beside, and a ``random.py`` there would shadow
    the standard library's. :mod:`multiprocessing` builds those command lines from this process's own flags
    (``util._args_from_interpreter_flags``), so ``-P`` is added there."""
    flags = getattr(util, "_args_from_interpreter_flags", None)
    if flags is not None and not getattr(flags, "arena_safe", False):
        setattr(util, "_args_from_interpreter_flags", _with_safe_path(flags))  # noqa: B010 (private to typeshed)
