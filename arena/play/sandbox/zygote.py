"""The zygote: a trusted server inside a Python bot's bubblewrap sandbox that forks one confined child a game.

Started once per worker and bot version (see :mod:`arena.play.sandbox.zygotes`), it imports the runner and the
standard library pieces the runner needs, never the bot's files, and then, for each game the worker asks for
over its control socket (the game's stdin, stdout and stderr passed with ``SCM_RIGHTS``), forks the game's bot
straight into new namespaces (``clone``), where it isolates itself before any bot code runs:

* new user, mount, PID, IPC, network and UTS namespaces, its uid and gid mapped to themselves;
* a fresh size-capped tmpfs as its scratch folder (and as ``/dev/shm``), so nothing written in one game is
  seen in the next; the rest of the file system stays read-only as bubblewrap left it;
* every capability dropped (bounding set and sets), ``no_new_privs`` kept from the sandbox's start;
* the bot's process is pid 1 of its PID namespace: when it exits, the kernel kills every process it started
  and waits for them to be gone, so nothing it did outlives its game.

Isolated, the child hands the worker a pidfd of itself, closes the control socket and plays. The zygote waits
for it and reports its exit status, which comes only once its whole PID namespace is gone; it forks the next
game only then, so no bot ever runs beside a child still setting itself up. The bot starts with a fresh random
state and the game's pipes as its standard streams, and nothing else of the zygote's. The zygote is not
dumpable, so a bot (the same uid) can neither trace it nor read its memory or descriptors through ``/proc``;
its PID namespace leaves it no pid of the zygote's to signal.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import io
import json
import os
import signal
import socket
import sys
from typing import Any, NoReturn

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
GAME_NAMESPACES = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 1 << 14, 1 << 18
PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_GET_TID_ADDRESS = 4, 24, 40
CLONE_CHILD_CLEARTID, CLONE_CHILD_SETTID = 0x00200000, 0x01000000
CAPSET = {"x86_64": 126, "aarch64": 91}
"""The ``capset`` system call's number by machine."""
CLONE = {"x86_64": 56, "aarch64": 220}
"""The ``clone`` system call's number by machine."""
SCRATCH = "/tmp"
SHM = "/dev/shm"
PRELOAD = ("arena.core.game", "arena.core.clock", "arena.plugins.bot_modules", "arena.play.bot_traceback",
           "arena.play.sandbox.bytecode", "inspect", "random", "threading", "atexit")
"""What the runner imports for nearly every game (the arena's and the standard library's, never a bot's)."""

_libc = ctypes.CDLL(None, use_errno=True)
_libc_holding_gil = ctypes.PyDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as out:
        out.write(text)


def clone_into_namespaces(flags: int = GAME_NAMESPACES) -> int:
    """Fork this process as :func:`os.fork` does, the child in new namespaces (``flags``): 0 in the child (pid 1
    of its PID namespace if ``flags`` has one), the child's pid in the parent.

    Python's own fork cannot take namespaces, and a process that unshares a PID namespace must fork again to
    enter it: one process a game instead of two. The child's thread id is set where the C library keeps it
    (``CLONE_CHILD_SETTID``), as the C library's own fork does, so what the library records of its thread (a
    mutex's owner, say) is the child's own.
    """
    number = CLONE.get(os.uname().machine)
    if number is None:
        raise OSError(errno.ENOSYS, f"clone: unknown machine {os.uname().machine}")
    tid = ctypes.c_void_p()
    _check(_libc.prctl(PR_GET_TID_ADDRESS, ctypes.byref(tid), 0, 0, 0), "finding the thread id's address")
    flags |= CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | signal.SIGCHLD
    ctypes.pythonapi.PyOS_BeforeFork()
    # the child's tid pointer is the 4th argument on x86_64 and the 5th on most others; what is not it there is
    # the TLS, read only with CLONE_SETTLS
    pid = _libc_holding_gil.syscall(ctypes.c_long(number), ctypes.c_ulong(flags), None, None, tid, tid)
    if pid == 0:
        ctypes.pythonapi.PyOS_AfterFork_Child()
        return 0
    code = ctypes.get_errno()
    ctypes.pythonapi.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(code, f"clone: {os.strerror(code)}")
    return int(pid)


def isolate(scratch: int, kept: list[str]) -> None:
    """Settle this process, just cloned into new namespaces, in them: its uid and gid mapped, a fresh scratch
    folder and ``/dev/shm``, and ``kept`` (what bubblewrap bound under the scratch folder) bound again."""
    uid, gid = os.getuid(), os.getgid()
    # its own /proc files are root's while it is not dumpable: dumpable just long enough to map itself (the
    # zygote's earlier games are over, whole, and no bot code has run yet)
    _check(_libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "prctl")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1\n")
    _write("/proc/self/gid_map", f"{gid} {gid} 1\n")
    _check(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "prctl")
    _check(_libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "making mounts private")
    cwd = os.getcwd()
    handles = [(path, os.open(path, os.O_PATH)) for path in kept]
    options = f"size={scratch},mode=1777".encode()
    for folder in (SCRATCH, SHM):
        if os.path.isdir(folder):
            _check(_libc.mount(b"tmpfs", folder.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options), f"tmpfs {folder}")
    for path, handle in handles:  # what bubblewrap bound under the scratch folder (the bot's files), as it was
        if os.path.isdir(f"/proc/self/fd/{handle}"):
            os.makedirs(path, 0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))
        _check(_libc.mount(f"/proc/self/fd/{handle}".encode(), path.encode(), None, MS_BIND | MS_REC, None),
               f"binding {path}")
        os.close(handle)
    made = {os.path.join(SCRATCH, path[len(SCRATCH) + 1:].split("/")[0]) for path, _ in handles} - set(kept)
    for top in sorted(made):  # the folders made to hold them stay read-only, as bubblewrap's own are
        _check(_libc.mount(top.encode(), top.encode(), None, MS_BIND | MS_REC, None), f"binding {top}")
        _check(_libc.mount(None, top.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None),
               f"making {top} read-only")
    os.chdir(cwd)  # in the new tree: nothing of the zygote's scratch folder stays reachable


def kept_under_scratch(cwd: str) -> list[str]:
    """The mount points under the scratch folder (and the working directory, when it is there) that the game
    keeps: the outermost of them, each carried over with what is mounted below it."""
    inside = [cwd] if cwd.startswith(SCRATCH + "/") else []
    with open("/proc/self/mountinfo") as table:
        for row in table:
            point = row.split()[4].replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n")
            point = point.replace("\\134", "\\")
            if point.startswith(SCRATCH + "/"):
                inside.append(point)
    inside = sorted(set(inside), key=len)
    outermost: list[str] = []
    for path in inside:
        if not any(path.startswith(top + "/") for top in outermost):
            outermost.append(path)
    return outermost


def drop_capabilities() -> None:
    """Empty the bounding set and the effective, permitted and inheritable sets (ambient ones go with them)."""
    for cap in range(64):
        if _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            if ctypes.get_errno() == errno.EINVAL:
                break
            _check(-1, "dropping the bounding set")
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    number = CAPSET.get(os.uname().machine)
    if number is None:
        raise OSError(errno.ENOSYS, f"capset: unknown machine {os.uname().machine}")
    _check(_libc.syscall(number, header, data), "capset")


def serve(control: int, args: dict[str, Any], scratch: int) -> NoReturn:
    """Answer the worker's requests on the ``control`` socket until it closes: one forked game each."""
    _check(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "prctl")
    import importlib

    from arena.play.sandbox import runner

    for name in PRELOAD:
        importlib.import_module(name)
    sock = socket.socket(fileno=control)
    kept = kept_under_scratch(os.getcwd())
    problem = _trial(scratch, kept)
    sock.send(b"ready" if problem is None else b"unavailable " + problem.encode()[:400])
    if problem is not None:
        os._exit(0)
    gc.freeze()  # what the zygote imported stays shared with its games' processes, never scanned nor copied
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 512, 3)
        except OSError:
            os._exit(0)
        if message.startswith(b"import ") and not fds:
            _preload(message[7:].decode("ascii", "replace"))
            continue
        if message != b"game" or len(fds) != 3:
            os._exit(0)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            bot = clone_into_namespaces()
        except OSError as exc:  # the worker replaces this zygote, and plays the game the old way
            with contextlib.suppress(OSError):
                sock.send(b"failed " + str(exc).encode()[:400])
            os._exit(0)
        if bot == 0:
            _start_game(sock, fds, args, scratch, kept, runner.main)
        for fd in fds:
            os.close(fd)
        sock.send(b"ended %d" % _wait_for_the_end(bot))


def _wait_for_the_end(bot: int) -> int:
    """The wait status of the game's bot once it has exited (which, as its PID namespace's init, it does only
    once every process it started is gone). A bot that stops itself to be traced by the zygote (``PTRACE_TRACEME``)
    is killed: a stopped child is not an ended game."""
    while True:
        _, status = os.waitpid(bot, 0)
        if os.WIFEXITED(status) or os.WIFSIGNALED(status):
            return status
        os.kill(bot, signal.SIGKILL)


def _preload(module: str) -> None:
    """Import one of the game's modules the worker named (the arena's or a game plugin's, never a bot's), so its
    games' bots find it imported; one that fails to import is left for the bots to import as before."""
    import importlib

    with contextlib.suppress(Exception):
        importlib.import_module(module)
    gc.freeze()


def _trial(scratch: int, kept: list[str]) -> str | None:
    """Why a game's child cannot isolate itself here (nested namespaces refused), or None when it can."""
    read, write = os.pipe()
    try:
        child = clone_into_namespaces()
    except OSError as exc:
        os.close(read)
        os.close(write)
        return str(exc)
    if child == 0:
        os.close(read)
        try:
            os.close(_settle(scratch, kept))
        except BaseException as exc:  # the reason goes back to the worker, which plays the old way
            os.write(write, str(exc).encode()[:400] or b"failed")
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as reason:
        text = reason.read()
    _wait_for_the_end(child)
    return text.decode("utf-8", "replace") if text else None


def _settle(scratch: int, kept: list[str]) -> int:
    """A child just cloned into a game's namespaces isolated in them, no capability left, in a session of its
    own: a pidfd of itself, for the worker."""
    isolate(scratch, kept)
    drop_capabilities()
    os.setsid()
    return os.pidfd_open(os.getpid())


def _start_game(sock: socket.socket, fds: list[int], args: dict[str, Any], scratch: int, kept: list[str],
                play: Any) -> NoReturn:
    """The game's bot, just cloned into its namespaces: isolates itself, drops every capability, hands the worker
    a pidfd of itself, and only then, holding nothing of the zygote's, plays."""
    try:
        pidfd = _settle(scratch, kept)
        socket.send_fds(sock, [b"started"], [pidfd])
        os.close(pidfd)
    except BaseException as exc:  # the worker replaces this zygote, and plays the game the old way
        with contextlib.suppress(OSError):
            sock.send(b"failed " + str(exc).encode()[:400])
        os._exit(1)
    sock.close()
    _bot(fds, args, play)


def _bot(fds: list[int], args: dict[str, Any], play: Any) -> NoReturn:
    """The bot's process: the game's pipes as its standard streams and nothing else of the zygote's, a fresh
    random state (``random`` reseeds itself in a forked child), then the runner as ``python -c`` would run it
    (its exit status, its atexit functions)."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    os.closerange(3, os.sysconf("SC_OPEN_MAX") if os.sysconf("SC_OPEN_MAX") > 0 else 1024)
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), line_buffering=True, write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), line_buffering=True, write_through=True,
                                  errors="backslashreplace")
    sys.argv = ["-c", json.dumps(args)]
    code = 0
    try:
        play(args)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    try:
        import atexit
        import threading

        threading._shutdown()  # type: ignore[attr-defined]  # as the interpreter waits for the bot's threads
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # a bot's exit function failing changes nothing of its game
        code = code or 1
    os._exit(code)


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    print(exc.code, file=sys.stderr)
    return 1


def main() -> None:
    """The zygote's entry point: ``python -I -B -c BOOT ARGS`` (``ARGS``: the control descriptor, the runner's
    arguments, the scratch folder's size)."""
    request = json.loads(sys.argv[-1])
    serve(int(request["control"]), request["args"], int(request["scratch"]))
