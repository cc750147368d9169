"""The one place where a league asks for the sandbox: every check and build of a submission and every game
of the league go through the functions here, and all of them run the bot confined by bubblewrap
(:mod:`arena.play.sandbox`): no network, a read-only system, its own files read-only, hard limits.

A machine where the sandbox cannot run (no bubblewrap, user namespaces blocked) gets a one-line error from
:func:`require`, never an unconfined bot.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.play.limits import Limits, default_memory_limit
from arena.play.sandbox import SandboxLimits, build_in_sandbox, require_sandbox
from arena.play.sandbox.confine import Confinement, interpreter_paths, kill_sandbox
from arena.plugins.bot_modules import ImportProblem
from arena.plugins.module_check import ModuleReport
from arena.plugins.programs.manifest import Program
from arena.plugins.registry import PluginConfig
from arena.plugins.stored import StoredBot

LIMITS = SandboxLimits()
"""The hard limits of every league bot, in its builds and its games."""
PROBE_START_SECONDS = 30.0
"""What a module's check may take beyond its import time limit: Python and the arena starting."""
_PROBE = ("import json, sys; sys.path[:] = json.load(open(sys.argv[1]))['sys_path']; "
          "from arena.plugins.module_probe import main; main(sys.argv[1:])")


def require() -> None:
    """A one-line :class:`ArenaError` unless the sandbox can run on this machine."""
    require_sandbox()


def check_module(path: Path, time_limit: float) -> ModuleReport:
    """Import the Python module at ``path`` confined, within ``time_limit`` seconds: the bots it defines, or
    why it cannot be used."""
    require()
    with tempfile.TemporaryDirectory(prefix="arena-check-") as scratch:
        folder = Path(scratch)
        folder.chmod(0o777)  # the sandbox's own user writes the report here
        module = folder / path.name
        module.write_bytes(path.read_bytes())
        request, result = folder / "request.json", folder / "result.jsonl"
        request.write_text(json.dumps({"sys_path": [p for p in sys.path if p], "modules": [str(module)]}))
        result.touch()
        result.chmod(0o666)
        confinement = Confinement(LIMITS, read_only=tuple(interpreter_paths()), writable=(str(folder),),
                                  cwd=str(folder))
        records = _probe_records(confinement, [sys.executable, "-c", _PROBE, str(request), str(result)], result,
                                 time_limit)
    for record in records:
        if "done" in record:
            try:
                return ModuleReport.from_json(record)
            except ValueError:
                return ModuleReport(problem=ImportProblem("cannot be checked: its report was not readable"))
    if any("start" in record for record in records):
        return ModuleReport(problem=ImportProblem(f"still importing after {time_limit:g} s, or its import "
                                                  "ended the process (does its top level loop, wait or exit?)"))
    return ModuleReport(problem=ImportProblem("cannot be checked: the sandbox's Python did not start"))


def _probe_records(confinement: Confinement, argv: list[str], result: Path, time_limit: float) -> list[dict]:
    """Run the probe ``argv`` confined and read its records from ``result``: it has ``PROBE_START_SECONDS`` to
    start (``ready``), then ``time_limit`` seconds for the import (``done``); past that it is killed."""
    process, inner = confinement.start(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + PROBE_START_SECONDS
    ready = False
    try:
        while True:
            records = _records(result)
            if any("done" in record for record in records) or process.poll() is not None:
                return records
            if not ready and any("ready" in record for record in records):
                ready, deadline = True, time.monotonic() + time_limit
            if time.monotonic() > deadline:
                return [record for record in records if "done" not in record]
            time.sleep(0.02)
    finally:
        kill_sandbox(process, inner)


def _records(result: Path) -> list[dict]:
    """The JSON objects among the lines of the probe's result file (what the module may have written there
    too is skipped)."""
    records = []
    for line in result.read_text(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            record = json.loads(line)
            if isinstance(record, dict):
                records.append(record)
    return records


def build(program: Program, directory: Path, time_limit: float) -> tuple[bool, str]:
    """Build ``program`` in ``directory`` confined, within ``time_limit`` seconds: whether it built, and its log."""
    if not program.build:
        return True, "no build step"
    log = build_in_sandbox(directory, program.build, timeout=min(program.build_timeout, time_limit), limits=LIMITS)
    summary = f"{' '.join(program.build)} built it in {log.seconds:.1f} s" if log.ok else log.error
    return log.ok, summary + ("\n" + log.output.strip() if log.output.strip() else "")


def play_config(bots: tuple[StoredBot, ...], build_timeout: float) -> PluginConfig:
    """The plugin configuration that plays the league's ``bots`` (and nothing from the current directory or
    the environment) in every worker process."""
    return PluginConfig(use_cwd_bots=False, use_env_path=False, stored_bots=bots, build_timeout=build_timeout)


def play_limits(workers: int) -> Limits:
    """The limits the league's games are played under: every bot confined in the sandbox, the machine's
    memory shared by the workers."""
    require()
    return Limits(memory_limit=default_memory_limit(workers), sandbox=LIMITS)
