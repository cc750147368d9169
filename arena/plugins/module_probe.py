"""The child process that tries bot modules for :mod:`arena.plugins.module_check`.

Once started it appends ``{"ready": true}`` to its result file (the modules' time limit starts then).
It imports each module of its request in turn and appends one JSON line to its result file before each
import (``{"start": i}``) and one after it (``{"done": i, ...}``: the bots the module defines, or its
problem), then ``{"end": true}``. Whatever a module does (loop, exit, crash the interpreter) the lines
written so far tell the parent which module it was.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path
from typing import IO, Any

from arena.plugins.bot_modules import BotModuleError, bots_defined_in, describe_exception, facts_of, import_bot_module

SPARE_PROCESSES = 256
"""How many more processes (threads included) than the user runs now a probe may start, so that a fork
bomb at a module's top level fails fast instead of filling the machine."""


def main(argv: list[str]) -> None:
    """Probe the modules listed in the request file ``argv[0]``, writing results to the file ``argv[1]``."""
    request = json.loads(Path(argv[0]).read_text())
    limit_processes()
    with open(argv[1], "a", encoding="utf-8") as out:
        _write(out, {"ready": True})
        for index, path in enumerate(request["modules"]):
            _write(out, {"start": index})
            _write(out, {"done": index, **probe(Path(path))})
        _write(out, {"end": True})
    os._exit(0)  # threads or atexit handlers a module left behind must not keep the probe alive


def probe(path: Path) -> dict[str, Any]:
    """Import one module: ``{"bots": [facts...]}``, or ``{"problem": ..., "line": ...}`` saying why not."""
    try:
        module = import_bot_module(path)
    except BotModuleError as exc:
        return {"problem": exc.problem.problem, "line": exc.problem.line}
    except KeyboardInterrupt as exc:  # the probe is in its own session, so this is the module's own doing
        return {"problem": describe_exception(exc), "line": None}
    return {"bots": [facts_of(cls).to_json() for cls in bots_defined_in(module)]}


def limit_processes() -> None:
    """Cap how many processes this probe and its children may start (Linux; a no-op elsewhere)."""
    running = _processes_of_user()
    if running is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    cap = running + SPARE_PROCESSES
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft == resource.RLIM_INFINITY or cap < soft:
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
