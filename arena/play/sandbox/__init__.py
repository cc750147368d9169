"""The sandbox for untrusted bots: every bot of a ``--sandbox`` run plays from a bubblewrap confinement.

Inside, a bot has no network, sees a read-only system, its own files read-only and a small private scratch
folder, gets a scrubbed environment, its own user and PID namespaces, and hard limits it cannot raise.
Python bots play through a small runner inside the sandbox that speaks a line protocol, as program bots do.

Public names: :class:`SandboxLimits`, :func:`require_sandbox`, :func:`build_in_sandbox`, :class:`SandboxedBots`.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.play.sandbox.build import BuildLog, build_in_sandbox
    from arena.play.sandbox.confine import require_sandbox
    from arena.play.sandbox.limits import SandboxLimits
    from arena.play.sandbox.players import SandboxedBots

__all__ = ["BuildLog", "SandboxLimits", "SandboxedBots", "build_in_sandbox", "require_sandbox"]

_DEFINED_IN = {"BuildLog": "build", "build_in_sandbox": "build", "require_sandbox": "confine",
               "SandboxLimits": "limits", "SandboxedBots": "players"}
"""The module of each public name, imported when the name is first asked for: the runner a bot plays through
inside the sandbox (:mod:`arena.play.sandbox.runner`) imports this package first, and needs none of them."""


def __getattr__(name: str) -> Any:
    module = _DEFINED_IN.get(name)
    if module is None:
        raise AttributeError(name)
    value = getattr(importlib.import_module(f"arena.play.sandbox.{module}"), name)
    globals()[name] = value
    return value
