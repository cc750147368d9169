"""One run of a bot program: its own process group, lines over its stdin and stdout, its stderr kept.

Every read and write has a deadline (``select`` on the pipes), a line longer than the cap is refused, and
:meth:`ProgramProcess.kill` kills the whole process group, so nothing the program started outlives it.
Faults raise :class:`arena.core.failure.BotFailure` with the failure kind and a precise detail.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence

from arena.core.capped_log import LOG_CAP, CappedLog
from arena.core.exit_status import describe_exit
from arena.core.failure import BotFailure
from arena.plugins.programs.survivors import MARK, kill_marked, new_mark

MAX_LINE = 1 << 20
"""The longest line a program may write (bytes): a Tron turn in JSON is a few kilobytes."""
STDERR_CAP = LOG_CAP
"""How much of a program's stderr is kept with the game: its first quarter from the start, the rest from the end
(where a crash's message is)."""
EXIT_WAIT = 0.5
"""How long a program that met end of input may take to exit before it is killed."""

GROUP_WAIT = 1.0
"""At most how long to wait for the processes of a killed group to be gone."""

_live: weakref.WeakSet[ProgramProcess] = weakref.WeakSet()


def describe_status(code: int | None) -> str:
    """How a program ended (``exit status 3``, ``signal SIGSEGV``), or ``still running``."""
    return "still running" if code is None else describe_exit(code)


class ProgramProcess:
    """A started program; lines go in through :meth:`send` and come out through :meth:`receive`."""

    def __init__(self, argv: Sequence[str], cwd: str, max_line: int = MAX_LINE, stderr_cap: int = STDERR_CAP):
        self.argv = list(argv)
        self.max_line = max_line
        self.stderr_cap = stderr_cap
        self._stderr = CappedLog(stderr_cap, "stderr")
        self._pending = bytearray()
        self.mark: str | None = None
        self.survivors = 0
        """How many processes the program started outlived its group's kill (and were killed then)."""
        try:
            self.process = self._spawn(cwd)
        except OSError as exc:
            raise BotFailure("crash", f"could not start {self.argv[0]!r} in {cwd} ({exc.strerror or exc})") from None
        self.pid = self.process.pid
        self.killed = False
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self._in, self._out, self._err = (self.process.stdin.fileno(), self.process.stdout.fileno(),
                                          self.process.stderr.fileno())
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._err_open = True
        _live.add(self)

    def _spawn(self, cwd: str) -> subprocess.Popen[bytes]:
        """Start the program with its pipes, in a session of its own, its environment marked so that what it
        starts can be found (a sandbox overrides this)."""
        self.mark = new_mark()
        return subprocess.Popen(self.argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, bufsize=0, start_new_session=True, close_fds=True,
                                env={**os.environ, MARK: self.mark})

    def _stderr_fds(self) -> list[int]:
        return [self._err] if self._err_open else []

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` to the program's stdin by ``deadline`` (``time.monotonic``)."""
        view = memoryview(data)
        try:
            view = view[os.write(self._in, view):]  # a turn usually fits the pipe at once: no select needed
        except BlockingIOError:
            pass
        except (BrokenPipeError, ConnectionResetError):
            raise self._ended("closed its stdin") from None
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFailure("timeout", "did not read its input in time")
            readable, writable, _ = select.select(self._stderr_fds(), [self._in], [], remaining)
            if readable:
                self._drain_stderr()
            if writable:
                try:
                    written = os.write(self._in, view)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise self._ended("closed its stdin") from None
                view = view[written:]

    def receive(self, deadline: float) -> bytes | None:
        """The next line the program writes (without its newline), or ``None`` if ``deadline`` passes first.

        A program that ends or closes stdout is a crash; a line longer than the cap is illegal.
        """
        while True:
            newline = self._pending.find(b"\n")
            if newline >= 0:
                line = bytes(self._pending[:newline])
                del self._pending[:newline + 1]
                return line.rstrip(b"\r")
            if len(self._pending) > self.max_line:
                raise BotFailure("illegal", f"wrote more than {self.max_line} bytes without a newline")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([self._out, *self._stderr_fds()], [], [], remaining)
            if self._err in readable:
                self._drain_stderr()
            if self._out in readable:
                try:
                    chunk = os.read(self._out, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self._ended("closed its stdout")
                self._pending += chunk

    def unread(self) -> bytes:
        """Output the program wrote that no :meth:`receive` has taken yet."""
        return bytes(self._pending)

    def _drain_stderr(self) -> None:
        while self._err_open:
            try:
                chunk = os.read(self._err, 1 << 16)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                self._err_open = False
                return
            self._stderr.add(chunk)

    def _ended(self, how: str) -> BotFailure:
        try:
            code = self.process.wait(EXIT_WAIT)
        except subprocess.TimeoutExpired:
            code = None
        self._drain_stderr()
        self.kill()
        return BotFailure("crash", f"exited ({describe_status(code)})" if code is not None else f"{how} and was killed")

    def stderr_text(self) -> str:
        """Everything kept of the program's stderr (its start and its end), with a note of how much was dropped
        between them past the cap."""
        return self._stderr.text()

    def close(self, wait: float = EXIT_WAIT) -> str:
        """Close the program's stdin, give it ``wait`` seconds to exit, then kill its process group.

        Returns how it ended.
        """
        if self.killed:
            return describe_status(self.process.returncode)
        try:
            assert self.process.stdin is not None  # started with pipes
            self.process.stdin.close()
        except OSError:
            pass
        deadline = time.monotonic() + wait
        while self.process.poll() is None and time.monotonic() < deadline:
            pause = max(0.0, min(0.01, deadline - time.monotonic()))
            readable, _, _ = select.select(self._stderr_fds(), [], [], pause)
            if readable:
                self._drain_stderr()
        self.kill()
        return describe_status(self.process.returncode)

    def kill(self) -> None:
        """Kill the program and everything it started (its process group), and collect it."""
        if self.killed:
            return
        self.killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        self.process.wait()
        _wait_for_group_gone(self.pid)
        if self.mark is not None:
            self.survivors = kill_marked(self.mark)  # what left the group (a setsid double-fork)
        self._drain_stderr()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                if stream is not None:  # always, as it was started with pipes
                    stream.close()
            except OSError:
                pass
        _live.discard(self)

    def __del__(self) -> None:
        if not getattr(self, "killed", True):
            self.kill()


def _wait_for_group_gone(pgid: int, seconds: float = GROUP_WAIT) -> None:
    """Wait until the killed group's last process (a child the program forked) is gone, so none outlives its game."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(0.001)


def kill_all() -> None:
    """Kill every program still running in this process (the arena is exiting or was interrupted)."""
    for program in list(_live):
        program.kill()


atexit.register(kill_all)
