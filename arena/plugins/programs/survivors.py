"""Processes a bot program started that outlived its game: found by a mark in their environment, and killed.

Every run of a program gets a mark of its own in its environment (:data:`MARK`), which everything it starts
inherits. A process that left the program's process group (a ``setsid`` double-fork) escapes the group's
kill, but not this sweep. It is a best effort without the sandbox: a process that starts another with an
emptied environment sheds the mark; the sandbox's PID namespace leaves no way out.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal

MARK = "ARENA_GAME_PROCESS"


def new_mark() -> str:
    """A fresh mark for one run of a program."""
    return secrets.token_hex(8)


def kill_marked(mark: str) -> int:
    """Kill every process whose environment carries ``mark``; how many there were."""
    needle = f"{MARK}={mark}".encode()
    killed = 0
    try:
        entries = os.scandir("/proc")
    except OSError:
        return 0
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/environ", "rb") as environ:
                    found = needle in environ.read().split(b"\0")
            except OSError:
                continue
            if found:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(int(entry.name), signal.SIGKILL)
                    killed += 1
    return killed


def with_stray_note(log: str, count: int) -> str:
    """A seat's stderr ``log`` with the line that says ``count`` processes its bot started outlived its game."""
    separator = "\n" if log and not log.endswith("\n") else ""
    return f"{log}{separator}[{count} process(es) it started outlived its game and were killed]\n"


def left_running(log: str) -> list[str]:
    """The lines of a seat's stderr ``log`` that say how many processes its bot left running (a program's, or an
    in-process bot's: :mod:`arena.play.strays`)."""
    return [line.strip("[]") for line in log.splitlines()
            if line.startswith("[") and line.endswith("outlived its game and were killed]")]
