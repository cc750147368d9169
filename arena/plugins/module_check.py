"""Trying a user's bot modules in a child process before the arena imports any of them.

A module's top level may loop forever, end the interpreter (``os._exit``), crash it (a segfault) or flood
the terminal. Each bot directory's modules are therefore first imported by a child process
(:mod:`arena.plugins.module_probe`) with a time limit; it reports what each module defines, and which
module it was importing when it hung, exited or died. What it found is cached by each module's content
(:mod:`arena.plugins.check_cache`), so the next command starts without a child process at all.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.core.exit_status import describe_exit
from arena.core.numbers import finite_number
from arena.plugins.bot_modules import BotFacts, ImportProblem
from arena.plugins.check_cache import ModuleCache, module_key
from arena.plugins.module_probe import ProbeStarter, RunningProbe, start_probe

IMPORT_LIMIT_VARIABLE = "ARENA_IMPORT_TIMEOUT"
DEFAULT_IMPORT_LIMIT = 10.0
"""Seconds the modules of one bot directory may take to import, together."""

PROBE_START_SECONDS = 60.0
"""Seconds the child may take to start Python and import the arena, before the time limit of the modules."""
POLL_SECONDS = 0.01


def import_time_limit() -> float:
    """The import time limit of a bot directory: ``$ARENA_IMPORT_TIMEOUT`` seconds, else 10."""
    text = os.environ.get(IMPORT_LIMIT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_IMPORT_LIMIT
    try:
        limit = finite_number(text)
    except ValueError:
        limit = 0.0
    if limit <= 0:
        raise ArenaError(f"{IMPORT_LIMIT_VARIABLE}={text}: expected a number of seconds above 0")
    return limit


@dataclass(frozen=True)
class ModuleReport:
    """What checking one module found: the bots it defines, or the problem that keeps it out."""

    bots: tuple[BotFacts, ...] = ()
    problem: ImportProblem | None = None
    overran: float | None = None
    """The time limit the module did not finish importing within (checked again under a longer one)."""
    lasting: bool = True
    """Whether the report holds for as long as the module's content does (and so is cached)."""

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object (for the cache)."""
        if self.problem is None:
            return {"bots": [facts.to_json() for facts in self.bots]}
        return {"problem": self.problem.problem, "line": self.problem.line, "overran": self.overran}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModuleReport:
        """The report :meth:`to_json` or the probe wrote; ``ValueError`` for anything else."""
        if "bots" in data:
            if not isinstance(data["bots"], list):
                raise ValueError("bots: expected a list")
            return cls(bots=tuple(BotFacts.from_json(item) for item in data["bots"]))
        try:
            line, overran = data.get("line"), data.get("overran")
            return cls(problem=ImportProblem(str(data["problem"]), None if line is None else int(line)),
                       overran=None if overran is None else float(overran))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a module report: {exc}") from None


def check_modules(paths: list[Path], limit: float, cache: ModuleCache | None = None,
                  starter: ProbeStarter | None = None) -> dict[Path, ModuleReport]:
    """What each module at ``paths`` defines, from the cache or else found by a child process that imports
    them with ``limit`` seconds for all of them; in the order of ``paths``. ``starter`` starts that child
    (a confined one, under the sandbox; reports found confined are cached apart from the others)."""
    cache = cache or ModuleCache()
    reports: dict[Path, ModuleReport] = {}
    keys: dict[Path, str] = {}
    for path in paths:
        try:
            keys[path] = _confined_key(module_key(path.read_bytes()), starter)
        except OSError as exc:
            reports[path] = ModuleReport(problem=ImportProblem(f"cannot be read ({exc.strerror})"))
            continue
        cached = _cached_report(cache, keys[path], limit)
        if cached is not None:
            reports[path] = cached
    unchecked = [path for path in paths if path not in reports]
    for path, report in probe_modules(unchecked, limit, starter).items():
        reports[path] = report
        if report.lasting and _probed_unchanged(path, keys[path], starter):
            cache.put(keys[path], report.to_json())
    return {path: reports[path] for path in paths}


def _cached_report(cache: ModuleCache, key: str, limit: float) -> ModuleReport | None:
    record = cache.get(key)
    if record is None:
        return None
    try:
        report = ModuleReport.from_json(record)
    except ValueError:
        return None
    if report.overran is not None and report.overran < limit:
        return None  # it may import within the longer limit given now
    return report


def _confined_key(key: str, starter: ProbeStarter | None) -> str:
    """A module's cache key: a confined probe's report is kept apart (the module may behave otherwise there)."""
    return key if starter is None else f"sandbox-{key}"


def _probed_unchanged(path: Path, key: str, starter: ProbeStarter | None) -> bool:
    try:
        return _confined_key(module_key(path.read_bytes()), starter) == key
    except OSError:
        return False


def probe_modules(paths: list[Path], limit: float, starter: ProbeStarter | None = None) -> dict[Path, ModuleReport]:
    """Import the modules at ``paths`` in child processes: what each defines or why it cannot be used.

    A module still importing when a child's ``limit`` runs out is skipped if it had the child to itself;
    otherwise it gets a fresh child of its own. A module during whose import the child ended or died is
    skipped, and the modules after it are tried in a fresh child.
    """
    reports: dict[Path, ModuleReport] = {}
    pending = list(paths)
    while pending:
        records, exit_code = _run_probe(pending, limit, starter or start_probe)
        started = None
        for record in records:
            index = record.get("start", record.get("done"))
            if not isinstance(index, int) or not 0 <= index < len(pending):
                continue
            if "start" in record:
                started = index
                continue
            try:
                reports[pending[index]] = ModuleReport.from_json(record)
            except ValueError:
                continue
            started = None
        if any("end" in record for record in records):
            break
        if started is None:
            tried = sum(1 for path in pending if path in reports)
            if tried == 0:  # the child never got to the first module: nothing to blame a module for
                reason = "timed out" if exit_code is None else f"ended ({describe_exit(exit_code)})"
                for path in pending:
                    reports[path] = ModuleReport(problem=ImportProblem(
                        f"cannot be checked: the process that imports it {reason} before it started"), lasting=False)
                break
            pending = [path for path in pending if path not in reports]
            continue
        culprit = pending[started]
        if exit_code is None and started > 0:
            pending = pending[started:]  # it shared the time limit with the modules before it
            continue
        reports[culprit] = _misbehaviour(exit_code, limit)
        pending = pending[started + 1:]
    for path in paths:
        if path not in reports:  # its record was unreadable (the module wrote into the probe's file?)
            reports[path] = ModuleReport(problem=ImportProblem("cannot be checked: no report came back for it"),
                                         lasting=False)
    return reports


def _misbehaviour(exit_code: int | None, limit: float) -> ModuleReport:
    if exit_code is None:
        return ModuleReport(problem=ImportProblem(
            f"still importing after {limit:g} s (does its top level loop or wait?)"), overran=limit)
    if exit_code < 0:
        problem = f"crashed the Python process importing it ({describe_exit(exit_code)})"
    else:
        problem = f"ended the Python process importing it ({describe_exit(exit_code)})"
    return ModuleReport(problem=ImportProblem(problem))


def _run_probe(paths: list[Path], limit: float, starter: ProbeStarter) -> tuple[list[dict[str, Any]], int | None]:
    """Run one probe over ``paths``: the records it wrote, and its exit code (``None``: it was stopped at
    the time limit, which counts from when it is ready to import the first module)."""
    with tempfile.TemporaryDirectory(prefix="arena-probe-") as scratch:
        result = Path(scratch) / "result.jsonl"
        result.touch()
        process = starter(paths, result)
        try:
            exit_code = _wait(process, result, limit)
        finally:
            process.stop()
        return _read_records(result), exit_code


def _wait(process: RunningProbe, result: Path, limit: float) -> int | None:
    """Wait for the probe to end: its exit code, or ``None`` once it has had ``limit`` seconds since it said
    it was ready (or :data:`PROBE_START_SECONDS` without saying so)."""
    deadline = time.monotonic() + PROBE_START_SECONDS
    ready = False
    while True:
        exit_code = process.poll()
        if exit_code is not None:
            return exit_code
        now = time.monotonic()
        if not ready and _said_ready(result):
            ready, deadline = True, now + limit
        if now >= deadline:
            return None
        time.sleep(POLL_SECONDS)


def _said_ready(result: Path) -> bool:
    try:
        with result.open("rb") as file:
            return file.readline().startswith(b'{"ready"')
    except OSError:
        return False


def _read_records(result: Path) -> list[dict[str, Any]]:
    records = []
    try:
        lines = result.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records
