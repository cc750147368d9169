"""A bot's build in the sandbox: no network, the hard limits, off the clock, its log kept.

The build runs on a copy of the bot's folder, bound writable at the folder's own path; once it ends, the
regular files it made or changed are copied back (never through a link, never outside the folder), so a
build can change nothing but its own folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from arena.core.errors import ArenaError
from arena.play.sandbox.confine import Confinement, require_sandbox
from arena.play.sandbox.limits import SandboxLimits
from arena.plugins.programs.build import ensure_built, failure_line
from arena.plugins.programs.manifest import BUILD_TIMEOUT, MANIFEST, Program, read_manifest

LOG_CAP = 64 << 10
"""How much of a build's output its log keeps."""


@dataclass(frozen=True)
class BuildLog:
    """How a sandboxed build went: whether it succeeded, why not (one line), its output, how long it took."""

    ok: bool
    error: str
    output: str
    seconds: float
    timed_out: bool = False


def build_in_sandbox(bot_dir: str | Path, command: tuple[str, ...] | None = None, *,
                     timeout: float | None = None, limits: SandboxLimits | None = None) -> BuildLog:
    """Run a bot folder's build confined (its manifest's ``build`` unless ``command`` is given) within
    ``timeout`` seconds (the manifest's ``build_timeout`` by default), and return its :class:`BuildLog`.

    Raises :class:`ArenaError` when the sandbox cannot run here or the folder has no readable manifest.
    """
    require_sandbox()
    directory = Path(bot_dir).resolve()
    if command is None or timeout is None:
        program = read_manifest(directory / MANIFEST).program
        command = program.build if command is None else command
        timeout = program.build_timeout if timeout is None else timeout
    if not command:
        return BuildLog(True, "", "", 0.0)
    return _run_build(tuple(command), directory, timeout, limits or SandboxLimits())


def _run_build(command: tuple[str, ...], directory: Path, timeout: float, limits: SandboxLimits) -> BuildLog:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arena-build-") as temp:
        work = Path(temp) / "bot"
        shutil.copytree(directory, work, symlinks=True)
        _open_to_sandbox(work)
        confinement = Confinement(limits, writable=(str(directory),), cwd=str(directory),
                                  sources={str(directory): str(work)})
        argv = list(command)
        try:
            done = confinement.run(argv, timeout=timeout)
        except subprocess.TimeoutExpired:
            return BuildLog(False, f"{' '.join(command)} took more than its {timeout:g} s budget", "",
                            time.monotonic() - started, timed_out=True)
        except OSError as exc:
            raise ArenaError(f"--sandbox: bubblewrap could not start ({exc})") from None
        output = (done.stdout + done.stderr)[-LOG_CAP:]
        if done.returncode == 0:
            _copy_back(work, directory)
        error = "" if done.returncode == 0 else failure_line(command, done.returncode, output)
        return BuildLog(done.returncode == 0, error, output.decode("utf-8", "replace"), time.monotonic() - started)


def _open_to_sandbox(folder: Path) -> None:
    """Let the sandbox's unprivileged user write the build's copy."""
    for root, _, files in os.walk(folder):
        os.chmod(root, 0o777)
        for name in files:
            path = Path(root) / name
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | 0o666)


def _copy_back(work: Path, directory: Path) -> None:
    """Copy each regular file the build made or changed into the bot's folder, never through a link."""
    for root, _, files in os.walk(work):
        for name in files:
            made = Path(root) / name
            relative = made.relative_to(work)
            target = directory / relative
            if made.is_symlink() or not made.is_file():
                continue
            if not target.parent.resolve().is_relative_to(directory) or target.is_symlink():
                continue
            if target.is_file() and target.stat().st_size == made.stat().st_size and \
                    target.read_bytes() == made.read_bytes():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(made, target)
            target.chmod(0o755 if made.stat().st_mode & 0o111 else 0o644)  # the bot's user reads it, whatever the umask


def ensure_built_in_sandbox(program: Program, limits: SandboxLimits) -> None:
    """:func:`arena.plugins.programs.build.ensure_built`, the build run in the sandbox."""

    def execute(built: Program, directory: Path) -> tuple[str, bool]:
        log = _run_build(built.build, directory, built.build_timeout or BUILD_TIMEOUT, limits)
        return log.error, log.timed_out

    require_sandbox()
    ensure_built(program, execute)
