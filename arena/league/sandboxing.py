"""The one place where a league asks for the sandbox: every check and build of a submission and every game
of the league go through the functions here, and all of them run the bot confined by bubblewrap
(:mod:`arena.play.sandbox`): no network, a read-only system, its own files read-only, hard limits.

A machine where the sandbox cannot run (no bubblewrap, user namespaces blocked) gets a one-line error from
:func:`require`, never an unconfined bot.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from arena.play.limits import Limits, default_memory_limit
from arena.play.sandbox import SandboxLimits, build_in_sandbox, require_sandbox
from arena.play.sandbox.probe import SandboxProbe
from arena.plugins.module_check import ModuleReport, probe_modules
from arena.plugins.programs.manifest import Program
from arena.plugins.registry import PluginConfig
from arena.plugins.stored import StoredBot
from arena.plugins.stored_roots import process_root

LIMITS = SandboxLimits()
"""The hard limits of every league bot, in its builds and its games."""


def require() -> None:
    """A one-line :class:`ArenaError` unless the sandbox can run on this machine."""
    require_sandbox()


def check_module(path: Path, time_limit: float) -> ModuleReport:
    """Import the Python module at ``path`` confined, within ``time_limit`` seconds (counted once the sandbox's
    Python is ready): the bots it defines, or why it cannot be used."""
    require()
    with tempfile.TemporaryDirectory(prefix="arena-check-") as scratch:
        module = Path(scratch) / path.name
        module.write_bytes(path.read_bytes())
        module.chmod(0o644)  # whatever the umask: the sandbox's unprivileged user reads it
        return probe_modules([module], time_limit, SandboxProbe(LIMITS))[module]


def build_limits(build_bytes: int) -> SandboxLimits:
    """The league's limits, its builds' folders holding at most ``build_bytes`` bytes."""
    return dataclasses.replace(LIMITS, build_bytes=build_bytes)


def build(program: Program, directory: Path, time_limit: float, build_bytes: int) -> tuple[bool, str]:
    """Build ``program`` in ``directory`` confined, within ``time_limit`` seconds, its folder holding at most
    ``build_bytes`` bytes: whether it built, and its log."""
    if not program.build:
        return True, "no build step"
    log = build_in_sandbox(directory, program.build, timeout=min(program.build_timeout, time_limit),
                           limits=build_limits(build_bytes))
    summary = f"{' '.join(program.build)} built it in {log.seconds:.1f} s" if log.ok else log.error
    return log.ok, summary + ("\n" + log.output.strip() if log.output.strip() else "")


def play_config(bots: tuple[StoredBot, ...], build_timeout: float, stored_dir: Path | None = None) -> PluginConfig:
    """The plugin configuration that plays the league's ``bots`` (and nothing from the current directory or
    the environment) in every worker process, their files unpacked in ``stored_dir`` (a root of
    :mod:`arena.plugins.stored_roots`; by default this process's own)."""
    root = process_root() if stored_dir is None else stored_dir
    return PluginConfig(use_cwd_bots=False, use_env_path=False, stored_bots=bots, build_timeout=build_timeout,
                        confined=SandboxProbe(LIMITS), stored_dir=str(root))


def play_limits(workers: int, build_bytes: int) -> Limits:
    """The limits the league's games are played under: every bot confined in the sandbox (its build's folder
    holding at most ``build_bytes`` bytes), the machine's memory shared by the workers."""
    require()
    return Limits(memory_limit=default_memory_limit(workers), sandbox=build_limits(build_bytes))
