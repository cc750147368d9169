"""The built-in plugin that registers ``exec``, the bot that runs a program named in its spec."""

from __future__ import annotations

from collections.abc import Callable

from arena.plugins.hookspecs import hookimpl
from arena.plugins.programs.bot import ExecBot


@hookimpl
def register_bots(register: Callable[..., None]) -> None:
    """Register ``exec``."""
    register(ExecBot)
