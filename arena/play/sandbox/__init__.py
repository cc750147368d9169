"""The sandbox for untrusted bots: every bot of a ``--sandbox`` run plays from a bubblewrap confinement.

Inside, a bot has no network, sees a read-only system, its own files read-only and a small private scratch
folder, gets a scrubbed environment, its own user and PID namespaces, and hard limits it cannot raise.
Python bots play through a small runner inside the sandbox that speaks a line protocol, as program bots do.

Public names: :class:`SandboxLimits`, :func:`require_sandbox`, :func:`build_in_sandbox`, :class:`SandboxedBots`.
"""

from typing import Any

from arena.play.sandbox.build import BuildLog, build_in_sandbox
from arena.play.sandbox.confine import require_sandbox
from arena.play.sandbox.limits import SandboxLimits

__all__ = ["BuildLog", "SandboxLimits", "SandboxedBots", "build_in_sandbox", "require_sandbox"]


def __getattr__(name: str) -> Any:
    if name == "SandboxedBots":  # imported when asked for: it needs the referee's side, which needs the limits
        from arena.play.sandbox.players import SandboxedBots

        return SandboxedBots
    raise AttributeError(name)
