"""The one place where a league asks for the sandbox: every build of a submission and every game of the
league go through these two functions.

The sandbox (bubblewrap) is not part of this arena yet; until it is, a submitted bot's build runs as a
process of its own with a time limit, and its games run in the league's worker processes like any bot's
(the referee still holds it to its limits, but it is trusted code). ``CONFINED`` says which is the case, and
the league's pages and ``arena league`` commands say it too.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from arena.core.failure import BotFailure
from arena.play.limits import Limits, default_memory_limit
from arena.plugins.programs.build import ensure_built
from arena.plugins.programs.manifest import Program
from arena.plugins.registry import PluginConfig
from arena.plugins.stored import StoredBot

CONFINED = False
"""Whether builds and games run inside the sandbox."""


def build(program: Program, directory: Path, time_limit: float) -> tuple[bool, str]:
    """Build ``program`` in ``directory`` within ``time_limit`` seconds: whether it built, and its log."""
    if not program.build:
        return True, "no build step"
    limited = dataclasses.replace(program, directory=str(directory), build_timeout=min(program.build_timeout,
                                                                                        time_limit))
    started = time.monotonic()
    try:
        ensure_built(limited)
    except BotFailure as failure:
        return False, failure.detail
    return True, f"{' '.join(program.build)} built it in {time.monotonic() - started:.1f} s"


def play_config(bots: tuple[StoredBot, ...], build_timeout: float) -> PluginConfig:
    """The plugin configuration that plays the league's ``bots`` (and nothing from the current directory or
    the environment) in every worker process."""
    return PluginConfig(use_cwd_bots=False, use_env_path=False, stored_bots=bots, build_timeout=build_timeout)


def play_limits(workers: int) -> Limits:
    """The limits the league's games are played under: each bot in a process of its own (so a bot that
    crashes or is killed takes only its own game down), the memory of the machine shared by the workers."""
    return Limits(memory_limit=default_memory_limit(workers), isolate=True)
