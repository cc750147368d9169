"""The league's old import paths, kept for one release: the league is :mod:`arena.league` now.

``from arena.server.league import League``, ``from arena.server.ladder import LeagueLadder``,
``from arena.server.web.app import create_app`` and every other ``arena.server.*`` module of 0.1 still
import: each old name is the new module itself (:data:`MOVED` says where it went), imported only when asked
for, so importing this package imports nothing of the league. New code imports :mod:`arena.league`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

MOVED = {
    "arena.server.league": "arena.league.facade",
    "arena.server.ladder": "arena.league.league_ladder",
    "arena.server.ladder_lock": "arena.league.ladder_lock",
    "arena.server.matchmaking": "arena.league.matchmaking",
    "arena.server.models": "arena.league.models",
    "arena.server.names": "arena.league.names",
    "arena.server.ratings": "arena.league.rating_state",
    "arena.server.sandboxing": "arena.league.sandboxing",
    "arena.server.schema": "arena.league.league_schema",
    "arena.server.settings": "arena.league.settings",
    "arena.server.submissions": "arena.league.submissions",
    "arena.server.tokens": "arena.league.tokens",
    "arena.server.web": "arena.league.web",
}
"""Each old module and the module it is now; a module under ``arena.server.web`` is the one of the same name
under ``arena.league.web``."""


def new_name(old: str) -> str | None:
    """The module ``old`` (an ``arena.server`` path) is now, or ``None`` if it never was one."""
    if old in MOVED:
        return MOVED[old]
    package, _, rest = old.partition("arena.server.web.")
    if not package and rest:
        return f"arena.league.web.{rest}"
    return None


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module it is now (the same object, so its classes are the same)."""

    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran under its new name."""


class _OldPaths(importlib.abc.MetaPathFinder):
    """Finds the old ``arena.server`` modules (see :data:`MOVED`)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        moved = new_name(fullname)
        if moved is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(moved))


if not any(isinstance(finder, _OldPaths) for finder in sys.meta_path):
    sys.meta_path.insert(0, _OldPaths())
