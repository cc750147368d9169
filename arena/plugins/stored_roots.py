"""Where stored bot versions are unpacked: private folders, each removed once no process uses it any more.

A root is a folder ``run-XXXXXXXX`` in this user's ``arena-unpacked-<uid>`` folder of the temporary directory,
both ``0700``: no other local user can reach a team's files there. A bot's own folder inside is ``0755`` (its
files ``0644`` or ``0755``), so the sandbox, which binds that folder alone, lets its unprivileged user read it
even when the arena runs as root.

Every process that uses a root holds a shared lock on the root's ``.lock`` file. Whoever lets go last (a process
at its exit, a league's ladder when it stops) takes the lock exclusively and removes the root; a root whose
users all died (``kill -9``) is removed by the next arena process that makes a root, as the kernel released
their locks. A root is made for one process (:func:`process_root`) or one owner such as a ladder
(:func:`make_root`) and shared only with the workers it is handed to (``PluginConfig.stored_dir``), so two arena
processes never write into each other's.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from arena.core.errors import ArenaError

LOCK = ".lock"
PREFIX = "run-"
STAGING = ".new-"
STALE_STAGING_SECONDS = 3600.0
"""How old a root left half made (its maker died between two system calls) must be before it is removed."""


@dataclass
class StoredRoot:
    """A root this process uses: its folder, and the descriptor holding its shared lock."""

    path: Path
    fd: int
    pid: int

    def release(self) -> bool:
        """Let go of the root, removing it if no other process uses it; whether it was removed."""
        if self.fd < 0:
            return False
        try:
            if self.pid != os.getpid():
                return False  # a forked child's copy of its parent's descriptor: the parent's to release
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
            shutil.rmtree(self.path, ignore_errors=True)
            return True
        finally:
            if self.pid == os.getpid():
                os.close(self.fd)
            self.fd = -1
            _held.pop(str(self.path), None)


_held: dict[str, StoredRoot] = {}
_own: StoredRoot | None = None


def base_folder() -> Path:
    """This user's folder of roots in the temporary directory (``0700``), refused if it is someone else's."""
    base = Path(tempfile.gettempdir()) / f"arena-unpacked-{os.getuid()}"
    base.mkdir(mode=0o700, exist_ok=True)
    status = base.lstat()
    if base.is_symlink() or status.st_uid != os.getuid():
        raise ArenaError(f"{base} is not this user's own folder: cannot unpack stored bot versions there")
    if status.st_mode & 0o077:
        base.chmod(0o700)
    return base


def make_root() -> StoredRoot:
    """A new root of its own, locked by this process (the caller releases it); stale roots are removed first."""
    base = base_folder()
    sweep(base)
    staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=base))
    fd = os.open(staging / LOCK, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_SH)
    root = base / (PREFIX + staging.name[len(STAGING):])
    staging.rename(root)
    held = StoredRoot(root, fd, os.getpid())
    _held[str(root)] = held
    return held


def join_root(path: str | Path) -> StoredRoot | None:
    """Use the root at ``path`` (made by another process, say a ladder for its workers) until this process
    exits; ``None`` if it is no root of this user's or is gone already."""
    root = Path(path)
    held = _held.get(str(root))
    if held is not None and held.pid == os.getpid():
        return held
    if root.parent != base_folder() or not root.name.startswith(PREFIX):
        return None
    try:
        fd = os.open(root / LOCK, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return None
    fcntl.flock(fd, fcntl.LOCK_SH)  # waits while a last user removes it
    try:
        same = os.fstat(fd).st_ino == os.stat(root / LOCK, follow_symlinks=False).st_ino
    except OSError:
        same = False
    if not same:
        os.close(fd)
        return None
    held = StoredRoot(root, fd, os.getpid())
    _held[str(root)] = held
    return held


def process_root() -> Path:
    """This process's own root, made the first time it is asked for and released when the process exits."""
    global _own
    if _own is None or _own.pid != os.getpid() or _own.fd < 0 or not _own.path.is_dir():
        _own = make_root()
    return _own.path


def root_for(requested: str | None) -> Path:
    """Where to unpack: the root ``requested`` (a configuration's ``stored_dir``) while it exists, else this
    process's own."""
    if requested is not None:
        joined = join_root(requested)
        if joined is not None:
            return joined.path
    return process_root()


def sweep(base: Path) -> list[Path]:
    """Remove the roots in ``base`` no live process holds (their users died), and the half-made ones left long
    ago; the roots removed."""
    removed = []
    for entry in base.iterdir():
        if entry.name.startswith(STAGING) and entry.is_dir() and not entry.is_symlink():
            with contextlib.suppress(OSError):
                if time.time() - entry.lstat().st_mtime > STALE_STAGING_SECONDS:
                    shutil.rmtree(entry, ignore_errors=True)
                    removed.append(entry)
            continue
        if not entry.name.startswith(PREFIX) or entry.is_symlink() or not entry.is_dir():
            continue
        try:
            fd = os.open(entry / LOCK, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # in use
        shutil.rmtree(entry, ignore_errors=True)
        os.close(fd)
        removed.append(entry)
    return removed


@atexit.register
def _release_all() -> None:
    for held in list(_held.values()):
        held.release()
