"""Starting a process inside bubblewrap: the command line, the hard limits and the unprivileged user.

The confinement is built from well-kept system tools: bubblewrap (Debian's ``bubblewrap``) makes the
namespaces (user, PID, network, IPC, UTS, cgroup) and the mounts; the kernel's resource limits, set hard
before bubblewrap starts, cap what the bot may use. When the arena runs as root, the bot runs as an unprivileged
uid of its own (no other process has it), so the kernel counts the bot's processes
against ``RLIMIT_NPROC`` (root is exempt from it) and the bot owns none of root's files; bubblewrap itself
stays root while it sets the mounts up, so a folder below a private home (a venv under ``$HOME``) can be
bound although that unprivileged user could not walk to it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.play.sandbox.limits import SandboxLimits
from arena.plugins.programs.output import CappedOutput, drain

BWRAP = "bwrap"
SETPRIV = "/usr/bin/setpriv"
PRLIMIT = "/usr/bin/prlimit"
INFO_WAIT = 10.0
"""At most how long bubblewrap may take to say which process runs the sandbox."""
PACKAGE = "bubblewrap"
SCRATCH = "/tmp"
"""Where the sandbox's private scratch folder is mounted (also its HOME and TMPDIR)."""
SANDBOX_UID = 65534
"""The uid and gid a bot has inside its sandbox ("nobody")."""
OUTSIDE_UID_BASE = 1_500_000_000
"""Where the unprivileged uids the arena gives its sandboxes start (when it runs as root)."""
PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games"
"""The sandbox's PATH, Debian's default: games and engines packaged for it (``stockfish``) live in /usr/games."""
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")
ETC_ENTRIES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "java-17-openjdk",
               "java-21-openjdk", "ssl/openssl.cnf", "nsswitch.conf", "passwd", "group", "mime.types")
"""What of /etc a program may need (the dynamic loader's cache, the alternatives links of java and node);
nothing else of /etc is visible."""

PLAIN_UIDS = 44
"""How many outside uids a process's sandboxes started for one run take in turn."""
ZYGOTE_UIDS = 20
"""How many outside uids a process keeps for its zygotes (:mod:`arena.play.sandbox.zygotes`), one each."""
_uids = itertools.count()


@functools.lru_cache(maxsize=4)
def _checked(bwrap: str | None, where: str | None) -> str | None:
    """Why bubblewrap (found at ``bwrap``) cannot confine on the machine ``where`` describes (this one when
    ``None``), in one line; None when it can."""
    if bwrap is None:
        return (f"--sandbox needs bubblewrap ({BWRAP}), which is not installed on {where or os.uname().nodename}: "
                f"apt-get install {PACKAGE}")
    probe = Confinement(SandboxLimits(), read_only=(), cwd=SCRATCH)
    there = "here" if where is None else f"on {where}"
    try:
        done = probe.run(["/bin/true"], timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"--sandbox: bubblewrap could not start {there} ({exc})"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return (f"--sandbox: bubblewrap is installed but cannot create user namespaces {there} "
                "(blocked by the kernel, a container runtime or an AppArmor policy): "
                f"{why[-1] if why else 'no reason given'}")
    return None


def require_sandbox(where: str | None = None) -> None:
    """Raise a one-line :class:`ArenaError` unless bubblewrap can confine bots on this machine: not installed
    (naming the Debian package ``bubblewrap``), or user namespaces blocked. ``where`` names this machine in
    the message (say, as a node of a cluster); by default its host name, or "here"."""
    problem = _checked(shutil.which(BWRAP), where)
    if problem is not None:
        raise ArenaError(problem)


def interpreter_paths() -> list[str]:
    """What a Python runner needs to see: the interpreter's prefix, the venv, its site-packages, the arena."""
    paths = {sys.base_prefix, sys.prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths.update(sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib"))
    paths.add(str(Path(sys.executable).resolve().parent))
    paths.add(str(Path(__file__).resolve().parents[2]))  # the arena package itself (an editable install's source)
    return sorted(path for path in paths if path and Path(path).exists())


@dataclass(frozen=True)
class Confinement:
    """How one sandboxed process is confined: its limits, what it sees and where it starts.

    ``read_only`` paths are bound read-only at the same place; ``writable`` ones read-write (a build's own
    copy of a bot folder, a compile cache while it is filled); ``workspace`` is a folder mounted as an empty
    tmpfs of ``limits.build_bytes`` bytes that the sandbox's user may fill (where a build works, its files
    streamed in); ``cwd`` is where the process starts (made empty if nothing is bound there); ``env`` is added
    to the scrubbed environment.
    """

    limits: SandboxLimits
    read_only: tuple[str, ...] = ()
    writable: tuple[str, ...] = ()
    cwd: str = SCRATCH
    sources: Mapping[str, str] = field(default_factory=dict)
    """Where a writable path really is, when that is not the path it is bound at (a build's copy)."""
    env: Mapping[str, str] = field(default_factory=dict)
    workspace: str | None = None

    def command(self, argv: Sequence[str], info_fd: int, block_fd: int | None) -> list[str]:
        """The bubblewrap command line that runs ``argv`` confined. With ``block_fd`` (the arena runs as root)
        bubblewrap waits for the caller to map the sandbox's user (see :meth:`start`) and ``setpriv`` drops
        to it; otherwise bubblewrap maps the caller's own uid."""
        args = [BWRAP, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--hostname", "sandbox", "--clearenv"]
        if block_fd is None:
            args += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--cap-drop", "ALL"]
        else:
            args += ["--userns-block-fd", str(block_fd), "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        env = {"PATH": PATH, "LANG": "C.UTF-8", "HOME": SCRATCH, "TMPDIR": SCRATCH, **self.env}
        for name, value in env.items():
            args += ["--setenv", name, value]
        args += _system_binds()
        etc = _etc_entries()
        args += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(self.limits.scratch),
                 "--tmpfs", SCRATCH]
        made = () if self.workspace is None else (self.workspace,)
        bound = [text for text in dict.fromkeys((*etc, *self.read_only, *self.writable, *made, self.cwd))
                 if not _is_system(text) and text != SCRATCH]
        parents = sorted({str(parent) for text in bound for parent in Path(text).parents
                          if str(parent) not in ("/", SCRATCH) and not _is_system(str(parent))},
                         key=lambda text: text.count("/"))
        for parent in parents:  # bubblewrap would make them 0700: the bot's user could not walk through them
            args += ["--perms", "0755", "--dir", parent]
        for seen in dict.fromkeys((*etc, *self.read_only)):
            if not _is_system(seen) and Path(seen).exists():
                args += ["--ro-bind", seen, seen]
        for changed in dict.fromkeys(self.writable):
            args += ["--bind", self.sources.get(changed, changed), changed]
        for folder in made:  # in memory, capped: a build fills no disk of the host's
            args += ["--perms", "0777", "--size", str(self.limits.build_bytes), "--tmpfs", folder]
        if self.cwd not in (*self.read_only, *self.writable, *made):
            args += ["--perms", "0755", "--dir", self.cwd]
        args += ["--chdir", self.cwd, "--remount-ro", "/", "--info-fd", str(info_fd), "--"]
        if block_fd is not None:
            args += [SETPRIV, f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups",
                     "--inh-caps=-all", "--no-new-privs", "--"]
        return [*args, *argv]

    def limit_command(self) -> list[str]:
        """``prlimit`` setting every limit hard (soft = hard) before bubblewrap starts (a command rather than a
        function run after fork, so the arena can start bubblewrap with ``vfork``, at once)."""
        limits = self.limits
        processes = limits.processes if os.geteuid() == 0 else limits.processes + _processes_of(os.getuid())
        caps = (("as", limits.memory), ("nproc", processes), ("nofile", limits.open_files),
                ("fsize", limits.file_size), ("cpu", limits.cpu_seconds), ("core", 0))
        return [PRLIMIT, *(f"--{name}={value}:{value}" for name, value in caps), "--"]

    def start(self, argv: Sequence[str], keep_fds: Sequence[int] = (), uid: int | None = None,
              **kwargs: Any) -> tuple[subprocess.Popen[bytes], int | None]:
        """Start ``argv`` confined (``kwargs`` go to :class:`subprocess.Popen`: the pipes; ``keep_fds`` are
        passed in at their numbers); return bubblewrap's process and the pid of the sandbox's first process
        (killing it kills every process in the sandbox). ``uid``: the outside uid (as root), by default a fresh one.

        As root, the sandbox's user is mapped to an unprivileged uid of its own (no other process has it), so
        the kernel counts its processes against ``RLIMIT_NPROC``, from which root itself is exempt.
        """
        info_read, info_write = os.pipe()
        block_read, block_write = os.pipe() if os.geteuid() == 0 else (None, None)
        passed = (info_write,) if block_read is None else (info_write, block_read)
        try:
            process = subprocess.Popen([*self.limit_command(), *self.command(argv, info_write, block_read)],
                                       pass_fds=(*passed, *keep_fds), close_fds=True, **kwargs)
        except BaseException:
            for fd in (info_read, block_write):
                if fd is not None:
                    os.close(fd)
            raise
        finally:
            for fd in passed:
                os.close(fd)
        try:
            inner = _child_pid(info_read)
            if block_write is not None:
                if inner is not None:
                    uid = outside_uid() if uid is None else uid
                    with contextlib.suppress(OSError):
                        for name in ("uid_map", "gid_map"):
                            Path(f"/proc/{inner}/{name}").write_text(f"0 0 1\n{SANDBOX_UID} {uid} 1\n")
                os.write(block_write, b"go")
        finally:
            os.close(info_read)
            if block_write is not None:
                os.close(block_write)
        return process, inner

    def run(self, argv: Sequence[str], timeout: float) -> subprocess.CompletedProcess[bytes]:
        """Run ``argv`` confined to its end (killed with its sandbox after ``timeout`` seconds); its output is
        read as it comes and capped (:class:`CappedOutput`: the head and the tail of each stream)."""
        process, inner = self.start(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    start_new_session=True)
        assert process.stdout is not None and process.stderr is not None
        out, err = CappedOutput(), CappedOutput()
        deadline = time.monotonic() + timeout
        try:
            if not drain([(process.stdout, out), (process.stderr, err)], deadline):
                raise subprocess.TimeoutExpired(process.args, timeout)
            process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            kill_sandbox(process, inner)
            raise
        finally:
            process.stdout.close()
            process.stderr.close()
        return subprocess.CompletedProcess(process.args, process.returncode, out.value(), err.value())


def kill_sandbox(process: subprocess.Popen[bytes], inner: int | None) -> None:
    """Kill the sandbox's first process (its PID namespace goes with it), then bubblewrap, and collect it."""
    if inner is not None and process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(inner, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _child_pid(fd: int) -> int | None:
    """The pid of the sandbox's first process, from what bubblewrap writes to its info descriptor."""
    data = b""
    deadline = time.monotonic() + INFO_WAIT
    while time.monotonic() < deadline:
        readable, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not readable:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
        with contextlib.suppress(ValueError):
            pid = json.loads(data).get("child-pid")
            return int(pid) if isinstance(pid, int) else None
    return None


def outside_uid() -> int:
    """An unprivileged uid no other sandbox of this process (nor, in practice, of another) uses right now."""
    return OUTSIDE_UID_BASE + ((os.getpid() & 0xFFFFF) << 6) + next(_uids) % PLAIN_UIDS


def zygote_uid(slot: int) -> int:
    """The outside uid of this process's zygote in ``slot`` (below :data:`ZYGOTE_UIDS`): never one a sandbox
    started for a single run is given, however many of those start while the zygote lives."""
    return OUTSIDE_UID_BASE + ((os.getpid() & 0xFFFFF) << 6) + PLAIN_UIDS + slot


def _processes_of(uid: int) -> int:
    """How many processes ``uid`` has now (RLIMIT_NPROC counts them all for a user who is not root)."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    count += 1
            except OSError:
                continue
    return count


@functools.cache
def _system_layout() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The system folders bound whole (real folders) and the bubblewrap arguments that show them (a folder bound,
    a link made as a link), looked up once a process: every sandbox of every game shows the same system."""
    folders: list[str] = []
    args: list[str] = []
    for directory in SYSTEM_DIRS:
        path = Path(directory)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), directory]
        elif path.is_dir():
            folders.append(directory)
            args += ["--ro-bind", directory, directory]
    return tuple(folders), tuple(args)


def _system_binds() -> list[str]:
    """The bubblewrap arguments that show the system folders."""
    return list(_system_layout()[1])


@functools.cache
def _etc_entries() -> tuple[str, ...]:
    """The entries of :data:`ETC_ENTRIES` this machine has (looked up once a process)."""
    return tuple(str(Path("/etc") / entry) for entry in ETC_ENTRIES if (Path("/etc") / entry).exists())


def _is_system(path: str) -> bool:
    """Whether ``path`` is inside what every sandbox sees already (bound as part of the system)."""
    return any(path == directory or path.startswith(directory + "/") for directory in _system_layout()[0])
