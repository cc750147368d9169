"""Which stand-ins a worker plays bots through: none (in process), bot processes (``--isolate``) or sandboxes."""

from __future__ import annotations

from typing import Any

from arena.play.isolation import IsolatedBots
from arena.play.limits import Limits
from arena.plugins.registry import PluginConfig


def bot_maker(config: PluginConfig, limits: Limits) -> Any:
    """The ``make_bot`` of :func:`arena.play.referee.play` that ``limits`` ask for, or ``None`` (in process)."""
    if limits.sandbox is not None:
        from arena.play.sandbox.players import SandboxedBots

        return SandboxedBots(config, limits.sandbox)
    return IsolatedBots(config, limits) if limits.isolate else None
