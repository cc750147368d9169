"""The child process that tries bot modules for :mod:`arena.plugins.module_check`.

It is a fork of the arena's process when that has a single thread (so it starts at once, with the arena
imported), else a fresh Python. It has a session of its own (no Ctrl-C from the terminal; one process group
to kill with whatever it started) and no terminal: its stdin, stdout and stderr are ``/dev/null``.

Once started it appends ``{"ready": true}`` to its result file (the modules' time limit starts then).
It imports each module of its request in turn and appends one JSON line to its result file before each
import (``{"start": i}``) and one after it (``{"done": i, ...}``: the bots the module defines, or its
problem), then ``{"end": true}``. Whatever a module does (loop, exit, crash the interpreter) the lines
written so far tell the parent which module it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, NoReturn, Protocol

from arena.plugins.bot_modules import (
    BotModuleError,
    bot_module_name,
    bots_defined_in,
    describe_exception,
    facts_of,
    import_bot_module,
)

SPARE_PROCESSES = 256
"""How many more processes (threads included) than the user runs now a probe may start, so that a fork
bomb at a module's top level fails fast instead of filling the machine."""


_BOOTSTRAP = ("import json, sys; sys.path[:] = json.load(open(sys.argv[1]))['sys_path']; "
              "from arena.plugins.module_probe import main; main(sys.argv[1:])")


class RunningProbe(Protocol):
    """A probe as :mod:`arena.plugins.module_check` waits for it: its exit code once it ended, and a stop."""

    def poll(self) -> int | None:
        """The probe's exit code, or ``None`` while it runs."""
        ...

    def stop(self) -> None:
        """Kill the probe and whatever it started."""
        ...


ProbeStarter = Callable[[list[Path], Path], RunningProbe]
"""``start(paths, result)``: a probe of the modules at ``paths`` writing its records to ``result`` (the file's
folder is the probe's own, and nothing else of it is read); :func:`start_probe` starts one unconfined."""


class ProbeProcess:
    """A running probe: its exit code once it ended, and a way to stop it with all it started."""

    def __init__(self, pid: int, popen: subprocess.Popen[bytes] | None = None):
        self.pid = pid
        self.popen = popen
        self.exit_code: int | None = None

    def poll(self) -> int | None:
        """The probe's exit code (negative: the signal that killed it), or ``None`` while it runs."""
        if self.exit_code is None:
            if self.popen is not None:
                self.exit_code = self.popen.poll()
            else:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self.exit_code = os.waitstatus_to_exitcode(status)
        return self.exit_code

    def stop(self) -> None:
        """Kill the probe and whatever it started that is still in its process group."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            if self.popen is not None:
                self.exit_code = self.popen.wait()
            else:
                self.exit_code = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])


def start_probe(paths: list[Path], result: Path) -> ProbeProcess:
    """Start a probe of the modules at ``paths`` that writes its records to ``result``."""
    if hasattr(os, "fork") and threading.active_count() == 1:
        pid = os.fork()
        if pid == 0:
            _become_probe(paths, result)
        return ProbeProcess(pid)
    request = result.with_name("request.json")  # a fork would not be safe with other threads running
    request.write_text(json.dumps({"sys_path": sys.path, "modules": [str(path) for path in paths]}))
    popen = subprocess.Popen([sys.executable, "-c", _BOOTSTRAP, str(request), str(result)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    return ProbeProcess(popen.pid, popen)


def _become_probe(paths: list[Path], result: Path) -> NoReturn:
    """In a fork: leave the arena's session and terminal, then probe; never return into the arena's code."""
    try:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_DFL)
        run(paths, result)
    finally:
        os._exit(1)


def main(argv: list[str]) -> None:
    """Probe the modules listed in the request file ``argv[0]``, writing results to the file ``argv[1]``."""
    request = json.loads(Path(argv[0]).read_text())
    run([Path(path) for path in request["modules"]], Path(argv[1]))


def run(paths: list[Path], result: Path) -> NoReturn:
    """Import the modules at ``paths`` in turn, appending the records of each to ``result``, and exit."""
    limit_processes()
    with open(result, "a", encoding="utf-8") as out:
        _write(out, {"ready": True})
        for index, path in enumerate(paths):
            _write(out, {"start": index})
            _write(out, {"done": index, **probe(path)})
        _write(out, {"end": True})
    os._exit(0)  # threads or atexit handlers a module left behind must not keep the probe alive


def probe(path: Path) -> dict[str, Any]:
    """Import one module: ``{"bots": [facts...]}``, or ``{"problem": ..., "line": ...}`` saying why not."""
    sys.modules.pop(bot_module_name(path), None)  # a fork's copy of an earlier import may be out of date
    try:
        module = import_bot_module(path)
    except BotModuleError as exc:
        return {"problem": exc.problem.problem, "line": exc.problem.line}
    except KeyboardInterrupt as exc:  # the probe is in its own session, so this is the module's own doing
        return {"problem": describe_exception(exc), "line": None}
    try:
        return {"bots": [facts_of(cls).to_json() for cls in bots_defined_in(module)]}
    except Exception as exc:  # a module whose contents defy inspection
        return {"problem": f"its bots cannot be listed: {describe_exception(exc)}", "line": None}


def limit_processes() -> None:
    """Cap how many processes this probe and its children may start (Linux; a no-op elsewhere)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return
    running = _processes_of_user()
    if running is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    cap = running + SPARE_PROCESSES
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft == resource.RLIM_INFINITY or cap < soft:
        # a limit that cannot be set leaves the time limit to stop a fork bomb
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_NPROC, (cap, hard))


def _processes_of_user() -> int | None:
    """How many threads the current user runs (what ``RLIMIT_NPROC`` counts), or ``None`` if unknown."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    uid, count = os.getuid(), 0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("Uid", "").split()[:1] == [str(uid)]:
            count += int(fields.get("Threads", "1").strip() or 1)
    return count


def _write(out: IO[str], record: dict[str, Any]) -> None:
    out.write(json.dumps(record) + "\n")
    out.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
