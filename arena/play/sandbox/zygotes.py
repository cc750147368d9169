"""The worker's side of the zygotes: one long-lived sandbox per bot version that forks a confined child a game.

A Python bot's game through a zygote skips bubblewrap's start, the interpreter's and the runner's imports:
the zygote (:mod:`arena.play.sandbox.zygote`), started lazily in the same confinement a game has today, forks
a child that isolates itself in new namespaces and imports the bot. A zygote serves one game at a time;
a worker keeps at most :data:`IDLE_ZYGOTES` idle ones (the least recently used stopped first), each with an
outside uid of its own, and they die with the worker (``--die-with-parent``, and at exit). A zygote that
cannot isolate its children (nested user namespaces refused), dies or misbehaves is stopped, and the game
is played the old way, one bubblewrap sandbox for it (the reason logged once).

``ARENA_SANDBOX_ZYGOTE=0`` in the environment turns zygotes off.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from arena.play.sandbox.confine import ZYGOTE_UIDS, Confinement, kill_sandbox, zygote_uid
from arena.plugins.programs.process import EXIT_WAIT, MAX_LINE, STDERR_CAP, ProgramProcess, _live

SWITCH = "ARENA_SANDBOX_ZYGOTE"
IDLE_ZYGOTES = 8
"""The most idle zygotes a worker keeps."""
HELLO_WAIT = 30.0
"""At most how long a zygote may take to start (bubblewrap, Python, the runner's imports)."""
START_WAIT = 10.0
"""At most how long a zygote may take to fork a game's child."""
END_WAIT = 5.0
"""At most how long a zygote may take to report a killed game's bot gone."""

log = logging.getLogger(__name__)
_BOOT = ("import sys; sys.path.insert(0, {parent!r}); "
         "from arena.play.sandbox.zygote import main; main()")


class ZygoteUnavailable(Exception):
    """No zygote can serve this game: it is played the old way."""


def enabled() -> bool:
    """Whether Python bots play through zygotes (unless ``ARENA_SANDBOX_ZYGOTE=0``)."""
    return os.environ.get(SWITCH, "1") != "0"


class Zygote:
    """One zygote: bubblewrap running the trusted server, and the worker's end of its control socket."""

    def __init__(self, confinement: Confinement, args: dict[str, Any], slot: int):
        self.slot = slot
        self.busy = False
        self.imported: set[str] = set()
        """The modules this zygote was asked to import (see :meth:`preload`)."""
        self.thread = threading.current_thread()
        """The thread that started it: it dies when that thread ends (``--die-with-parent``)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock = ours
        parent = str(Path(__file__).resolve().parents[3])
        request = {"control": theirs.fileno(), "args": args, "scratch": confinement.limits.scratch}
        argv = [sys.executable, "-I", "-B", "-c", _BOOT.format(parent=parent), json.dumps(request)]
        try:
            self.process, self.inner = confinement.start(
                argv, keep_fds=(theirs.fileno(),), uid=zygote_uid(slot), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            ours.close()
            raise ZygoteUnavailable(f"bubblewrap could not start ({exc})") from None
        finally:
            theirs.close()
        hello, _ = self._receive(HELLO_WAIT)
        if hello != b"ready":
            self.stop()
            why = hello.decode("utf-8", "replace").removeprefix("unavailable ") if hello else "it did not start"
            raise ZygoteUnavailable(why)

    def _receive(self, wait: float) -> tuple[bytes, list[int]]:
        readable, _, _ = select.select([self.sock], [], [], wait)
        if not readable:
            return b"", []
        try:
            message, fds, _, _ = socket.recv_fds(self.sock, 512, 1)
        except OSError:
            return b"", []
        return message, fds

    def alive(self) -> bool:
        """Whether the zygote still runs."""
        return self.process.poll() is None

    def fork(self, stdin: int, stdout: int, stderr: int) -> ZygoteGame:
        """A game's child started with these ends of its pipes (the caller closes its copies)."""
        try:
            socket.send_fds(self.sock, [b"game"], [stdin, stdout, stderr])
        except OSError:
            raise ZygoteUnavailable("its zygote is gone") from None
        message, fds = self._receive(START_WAIT)
        if message != b"started" or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise ZygoteUnavailable(message.decode("utf-8", "replace") or "its zygote did not fork the game")
        self.busy = True
        return ZygoteGame(self, fds[0])

    def preload(self, module: str) -> None:
        """Have the zygote import ``module`` (one of the game's, which its games' bots would each import again,
        such as the module of the game's observations) for its next games; asked once. Only a module this process
        imported itself, never a bot's (``arena_bots_*``) nor a script's ``__main__``: the zygote runs no bot code."""
        if (module in self.imported or module not in sys.modules or module == "__main__"
                or module.startswith("arena_bots_") or not all(part.isidentifier() for part in module.split("."))):
            return
        self.imported.add(module)
        with contextlib.suppress(OSError):
            self.sock.send(b"import " + module.encode())

    def stop(self) -> None:
        """Stop the zygote and everything in its sandbox."""
        kill_sandbox(self.process, self.inner)
        self.sock.close()


class ZygoteGame:
    """A game's bot in its zygote, as much of :class:`subprocess.Popen` as :class:`ProgramProcess` uses: its pid
    (pid 1 of the game's PID namespace, as this process sees it), its pipes, ``poll`` and ``wait`` (its zygote
    reports its exit); killed through a pidfd."""

    def __init__(self, zygote: Zygote, pidfd: int):
        self.zygote, self.pidfd = zygote, pidfd
        self.args = ["zygote"]
        self.returncode: int | None = None
        self.pid = _fdinfo_pid(pidfd)
        self.stdin: Any = None
        self.stdout: Any = None
        self.stderr: Any = None

    def send_signal(self, number: int) -> None:
        """Signal the bot (SIGKILL takes its whole PID namespace)."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self.pidfd, number)

    def kill(self) -> None:
        """Kill the game and everything it started."""
        self.send_signal(signal.SIGKILL)

    def poll(self) -> int | None:
        """The bot's exit code once its zygote reported it, else None."""
        return self.wait(0.0, raising=False)

    def waitables(self) -> list[int]:
        """What :func:`select.select` finds readable when the game may have ended (its zygote's report)."""
        return [] if self.returncode is not None else [self.zygote.sock.fileno()]

    def wait(self, timeout: float | None = None, raising: bool = True) -> int | None:
        """Wait for the game's end: its zygote's report that the bot exited, which comes only once every process
        the bot started is gone; the bot's exit code (``-signal`` when killed)."""
        if self.returncode is not None:
            return self.returncode
        readable, _, _ = select.select(self.waitables(), [], [], timeout)
        if not readable:
            if raising:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            return None
        message, fds = self.zygote._receive(0.0)
        for fd in fds:
            os.close(fd)
        status = None
        if message.startswith(b"ended "):
            with contextlib.suppress(ValueError):
                status = os.waitstatus_to_exitcode(int(message[6:]))
        if status is None:  # its zygote is gone (and the game with its sandbox), or said what it should not
            self.zygote.stop()
        self.returncode = -signal.SIGKILL if status is None else status
        os.close(self.pidfd)
        self.zygote.busy = False
        return self.returncode


def _fdinfo_pid(pidfd: int) -> int:
    """The pid a pidfd refers to, in this process's PID namespace."""
    for text in Path(f"/proc/self/fdinfo/{pidfd}").read_text().splitlines():
        if text.startswith("Pid:"):
            return int(text.split()[1])
    raise ZygoteUnavailable("the game's pid could not be read")


class ZygotePool:
    """The zygotes of this process, by confinement and runner arguments, idle or playing.

    Every zygote it started stays in it until it is stopped: when it dies or misbehaves, when it is among the
    least recently used idle ones beyond :data:`IDLE_ZYGOTES`, when the thread that started it has ended
    (bubblewrap's ``--die-with-parent`` kills it with that *thread*, so a game only ever runs in a zygote its
    own thread started), and at :meth:`close`. Safe to use from several threads.
    """

    def __init__(self) -> None:
        self.zygotes: OrderedDict[str, list[Zygote]] = OrderedDict()
        """Every running zygote by key, the least recently used key first."""
        self.refused: dict[str, str] = {}
        self._starting: set[int] = set()
        self._lock = threading.Lock()

    def game(self, confinement: Confinement, args: dict[str, Any], pipes: Sequence[int]) -> ZygoteGame:
        """A game's child forked from an idle zygote of this bot version started by this thread (one started
        if there is none)."""
        key = json.dumps([repr(confinement), args], sort_keys=True, default=str)
        here = threading.current_thread()
        with self._lock:
            if key in self.refused:
                raise ZygoteUnavailable(self.refused[key])
            self._collect()
            zygote = next((z for z in self.zygotes.get(key, []) if not z.busy and z.thread is here), None)
            if zygote is None:
                slot = self._slot()
            else:
                zygote.busy = True  # no other thread takes it meanwhile
        if zygote is None:
            zygote = self._start(key, confinement, args, slot)
        try:
            game = zygote.fork(*pipes)
        except ZygoteUnavailable:
            with self._lock:
                self._drop(zygote)
            raise
        with self._lock:
            self.zygotes.move_to_end(key)
            self._trim()
        return game

    def _slot(self) -> int:
        """A free outside uid's slot, reserved (an idle zygote stopped to free one if need be)."""
        for _ in range(2):
            used = {z.slot for zygotes in self.zygotes.values() for z in zygotes} | self._starting
            free = [slot for slot in range(ZYGOTE_UIDS) if slot not in used]
            if free:
                self._starting.add(free[0])
                return free[0]
            self._trim(limit=sum(1 for zygotes in self.zygotes.values() for z in zygotes if not z.busy) - 1)
        raise ZygoteUnavailable("every zygote of this process is playing")

    def _start(self, key: str, confinement: Confinement, args: dict[str, Any], slot: int) -> Zygote:
        try:
            zygote = Zygote(confinement, args, slot)
        except ZygoteUnavailable as exc:
            with self._lock:
                self._starting.discard(slot)
                if not str(exc).startswith("bubblewrap"):
                    self.refused[key] = str(exc)
                    log.warning("sandboxed Python bots start a sandbox each game here: a zygote cannot confine "
                                "its games (%s)", exc)
            raise
        zygote.busy = True
        with self._lock:
            self._starting.discard(slot)
            self.zygotes.setdefault(key, []).append(zygote)
        return zygote

    def _drop(self, zygote: Zygote) -> None:
        """Stop ``zygote`` and forget it."""
        with contextlib.suppress(OSError):
            zygote.stop()
        for key, zygotes in list(self.zygotes.items()):
            if zygote in zygotes:
                zygotes.remove(zygote)
                if not zygotes:
                    del self.zygotes[key]

    def _collect(self) -> None:
        """Stop the zygotes that died, and those whose thread ended (killed with it, or about to be)."""
        for zygotes in list(self.zygotes.values()):
            for zygote in list(zygotes):
                if not zygote.thread.is_alive() or not zygote.alive():
                    self._drop(zygote)

    def _trim(self, limit: int = IDLE_ZYGOTES) -> None:
        """Stop the least recently used idle zygotes beyond ``limit`` idle ones."""
        idle = [z for zygotes in self.zygotes.values() for z in zygotes if not z.busy]
        for zygote in idle[:max(0, len(idle) - limit)]:
            self._drop(zygote)

    def running(self) -> list[Zygote]:
        """Every zygote of this process, idle or playing."""
        with self._lock:
            return [zygote for zygotes in self.zygotes.values() for zygote in zygotes]

    def close(self) -> None:
        """Stop every zygote (their games with them)."""
        with self._lock:
            for zygotes in list(self.zygotes.values()):
                for zygote in list(zygotes):
                    self._drop(zygote)


POOL = ZygotePool()
atexit.register(POOL.close)


class ZygoteProcess(ProgramProcess):
    """A :class:`ProgramProcess` whose program is a game's child forked by a zygote."""

    def __init__(self, confinement: Confinement, args: dict[str, Any], max_line: int = MAX_LINE,
                 stderr_cap: int = STDERR_CAP):
        self.confinement, self.runner_args = confinement, args
        super().__init__(["zygote"], confinement.cwd, max_line, stderr_cap)

    def _spawn(self, cwd: str) -> Any:
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        try:
            game = POOL.game(self.confinement, self.runner_args, (stdin_r, stdout_w, stderr_w))
        except BaseException:
            for fd in (stdin_w, stdout_r, stderr_r):
                os.close(fd)
            raise
        finally:
            for fd in (stdin_r, stdout_w, stderr_w):
                os.close(fd)
        game.stdin = open(stdin_w, "wb", buffering=0)  # noqa: SIM115 - closed by ProgramProcess.kill
        game.stdout = open(stdout_r, "rb", buffering=0)  # noqa: SIM115
        game.stderr = open(stderr_r, "rb", buffering=0)  # noqa: SIM115
        return game

    @property
    def game(self) -> ZygoteGame:
        """The game's bot in its zygote (what :class:`ProgramProcess` holds as its process)."""
        return cast("ZygoteGame", self.process)

    def close(self, wait: float = EXIT_WAIT) -> str:
        """Close the bot's stdin and give it ``wait`` seconds to end (woken by its zygote's report), then kill it."""
        if not self.killed:
            with contextlib.suppress(OSError):
                self.game.stdin.close()
            deadline = time.monotonic() + wait
            while self.process.poll() is None and time.monotonic() < deadline:
                readable, _, _ = select.select([*self._stderr_fds(), *self.game.waitables()], [], [],
                                               max(0.0, deadline - time.monotonic()))
                if self._err in readable:
                    self._drain_stderr()
        return super().close(0.0)

    def kill(self) -> None:
        """Kill the bot through its pidfd (its PID namespace goes with it) unless it ended, wait for its zygote's
        report, and close the pipes (no process group to kill: the game has none of its own outside)."""
        if self.killed:
            return
        self.killed = True
        self.game.kill()
        if self.game.wait(END_WAIT, raising=False) is None:
            self.game.zygote.stop()  # no report of its end: nothing of this zygote is trusted again
        self._drain_stderr()
        for stream in (self.game.stdin, self.game.stdout, self.game.stderr):
            with contextlib.suppress(OSError):
                stream.close()
        _live.discard(self)
