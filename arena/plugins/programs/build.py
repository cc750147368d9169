"""Building a bot program: once, before its first game, off the clock, and again only when its files change.

The build runs in the bot's directory in its own process group, under its own budget. A stamp file
(``.arena-build.json``) records the hash of the sources it built, the files it made (left out of the
bot's version, which hashes its sources) and, for a failed build, its output, so that other worker processes
neither rebuild nor retry (a build that ran out of time is tried again under a bigger budget); a lock
file keeps two processes from building at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.core.failure import BotFailure
from arena.plugins.programs.manifest import LOCK, STAMP, Program, directory_hash, file_snapshot, read_stamp
from arena.plugins.programs.output import CappedOutput, drain

OUTPUT_LINES = 5
"""How many of a failed build's last output lines its failure quotes."""

Execute = Callable[[Program, Path], tuple[str, bool]]
"""Runs a build command: ``(why it failed or "", whether it ran out of time)``."""


def _up_to_date(program: Program, directory: Path, stamp: dict[str, Any]) -> bool:
    """Whether the stamp's build still stands: same sources, its files still there, and, for a build that ran
    out of time, no bigger budget now (which earns it another try)."""
    products = stamp.get("products", [])
    timed_out = stamp.get("timed_out_after")
    if isinstance(timed_out, int | float) and program.build_timeout > timed_out:
        return False
    return (stamp.get("sources") == directory_hash(directory, set(products))
            and all((directory / product).exists() for product in products))


def ensure_built(program: Program, execute: Execute | None = None) -> None:
    """Run the program's build if its sources changed since the last one; a failed build raises
    :class:`BotFailure` (``crash``) quoting the end of its output, every time it is asked for again.

    ``execute(program, directory)`` runs the build command and says why it failed (``""``: it did not) and
    whether it ran out of time; by default the command runs here, in the bot's folder.
    """
    if not program.build:
        return
    directory = Path(program.directory)
    with open(directory / LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = read_stamp(directory)
        if not _up_to_date(program, directory, stamp):
            stamp = _build(program, directory, set(stamp.get("products", [])), execute or execute_here)
    if not stamp.get("ok"):
        raise BotFailure("crash", f"its build failed: {stamp.get('error', 'no output')}", where="")


def _build(program: Program, directory: Path, earlier_products: set[str], execute: Execute) -> dict[str, Any]:
    before = file_snapshot(directory)
    for product in earlier_products:
        before.pop(product, None)  # a stale product is still a product
    sources = directory_hash(directory, earlier_products)
    error, timed_out = execute(program, directory)
    after = file_snapshot(directory)
    products = sorted(name for name, state in after.items() if before.get(name) != state) + sorted(
        earlier_products & set(after))
    stamp = {"sources": sources, "products": sorted(set(products)), "ok": not error, "error": error}
    if timed_out:
        stamp["timed_out_after"] = program.build_timeout
    (directory / STAMP).write_text(json.dumps(stamp, indent=1) + "\n")
    return stamp


def failure_line(command: tuple[str, ...], returncode: int, output: bytes) -> str:
    """Why a build failed, with the last lines of its output."""
    tail = output.decode("utf-8", "replace").strip().splitlines()[-OUTPUT_LINES:]
    return f"{' '.join(command)} ended with exit status {returncode}" + (
        ": " + " | ".join(line.strip() for line in tail) if tail else "")


def execute_here(program: Program, directory: Path) -> tuple[str, bool]:
    """Run the build command in the bot's folder, in its own process group, under its budget; its output is
    read as it comes and capped (:class:`CappedOutput`), never held whole."""
    error = ""
    timed_out = False
    try:
        process = subprocess.Popen(program.build, cwd=directory, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as exc:
        error = f"{' '.join(program.build)} could not start ({exc.strerror or exc})"
    else:
        assert process.stdout is not None
        output = CappedOutput()
        deadline = time.monotonic() + program.build_timeout
        try:
            if not drain([(process.stdout, output)], deadline):
                raise subprocess.TimeoutExpired(program.build, program.build_timeout)
            process.wait(max(0.0, deadline - time.monotonic()))
            if process.returncode != 0:
                error = failure_line(program.build, process.returncode, output.value())
        except subprocess.TimeoutExpired:
            error = f"{' '.join(program.build)} took more than its {program.build_timeout:g} s budget"
            timed_out = True
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            process.stdout.close()
    return error, timed_out
