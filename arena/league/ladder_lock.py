"""One ladder per league folder: ``ladder.lock`` in the folder, held while a ladder plays.

The lock is an ``flock`` on its own file, never on ``arena.db`` (SQLite's own locks on the database are
POSIX locks, which any other descriptor of the file closing in the same process would drop). The kernel
releases it when its holder dies, however it dies (``kill -9`` included), so a stale file never blocks a
new ladder. The holder writes its pid, what it is and its address into the file for the refusal's message.

A forked child would share the lock's open file (and keep it held after its parent's death), so a child
closes its copy right after the fork; a started program never gets it (the descriptor closes on exec).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from arena.core.errors import ArenaError

LOCK_FILE = "ladder.lock"

_held: set[int] = set()
"""The descriptors of the locks this process holds (closed in a forked child)."""


def _close_in_child() -> None:
    for fd in list(_held):
        with contextlib.suppress(OSError):
            os.close(fd)  # only this process's copy: the lock stays with the parent
    _held.clear()


os.register_at_fork(after_in_child=_close_in_child)


class LadderLock:
    """The held lock of one league folder's ladder: :meth:`take` it, :meth:`release` it (or ``with``)."""

    def __init__(self, folder: Path, fd: int, holder: str):
        self.folder = folder
        self._fd: int | None = fd
        self._holder = holder

    @classmethod
    def take(cls, folder: str | Path, holder: str) -> LadderLock:
        """Lock the ladder of the league in ``folder`` for ``holder`` (what this process is, as
        ``arena serve``); an :class:`ArenaError` naming the running ladder if another process has it."""
        folder = Path(folder)
        path = folder / LOCK_FILE
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise ArenaError(f"{path}: cannot open the ladder's lock ({exc.strerror or exc})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise ArenaError(f"{path}: cannot lock the ladder ({exc.strerror or exc})") from None
            raise ArenaError(f"{folder}: {running_ladder(folder)} plays its ladder already; "
                             "one ladder plays a league at a time") from None
        _held.add(fd)
        lock = cls(folder, fd, holder)
        lock.note()
        return lock

    def note(self, address: str | None = None) -> None:
        """Write who holds the lock (and ``address``, where it serves) into the lock file."""
        if self._fd is None:
            return
        text = f"{self._holder} (pid {os.getpid()}" + (f", at {address}" if address else "") + ")\n"
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, text.encode(), 0)

    @property
    def held(self) -> bool:
        """Whether this lock is still held."""
        return self._fd is not None

    def release(self) -> None:
        """Let another ladder play the league (the file stays: removing it could race a new holder)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            _held.discard(fd)
            os.ftruncate(fd, 0)
            os.close(fd)  # closing the only descriptor of the open file releases the flock

    def __enter__(self) -> LadderLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def running_ladder(folder: str | Path) -> str:
    """What the holder of ``folder``'s ladder lock wrote about itself (as ``arena serve (pid 12, at URL)``)."""
    try:
        text = (Path(folder) / LOCK_FILE).read_text(errors="replace").strip()
    except OSError:
        text = ""
    return " ".join(text.split())[:200] or "a process that has not said which yet"
