"""Old import paths, kept so stored bots, pickles, plugin lists and users' code that name them still import.

Every module that moved is in one table, :data:`MOVED` (old name -> the name it has now). An old name
imports as the new module itself (the same object, so its classes are the same classes), and only when
asked for: an import hook on :data:`sys.meta_path`, installed when :mod:`arena` is imported, looks each
name up. A module under an old *package* is the module of the same name under the new package
(``arena.server.web.app`` is ``arena.league.web.app``). New code imports the new names.

This module imports nothing of arena, so any layer may use it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import importlib.abc

MOVED: dict[str, str] = {
    # The league left the web server's package (0.2).
    "arena.server.league": "arena.league.facade",
    "arena.server.ladder": "arena.league.ladder_loop",
    "arena.server.ladder_lock": "arena.league.ladder_lock",
    "arena.server.matchmaking": "arena.stats.ladder_rule",
    "arena.server.models": "arena.league.models",
    "arena.server.names": "arena.league.names",
    "arena.server.ratings": "arena.stats.ladder_rule",
    "arena.server.sandboxing": "arena.league.sandboxing",
    "arena.server.schema": "arena.league.league_schema",
    "arena.server.settings": "arena.league.settings",
    "arena.server.submissions": "arena.league.submissions",
    "arena.server.tokens": "arena.league.tokens",
    "arena.server.web": "arena.league.web",
    # The shipped games' plugins and commands live with the built-in plugins.
    "arena.games.tron.plugin": "arena.builtin.tron.plugin",
    "arena.games.tron.commands": "arena.builtin.tron.commands",
    "arena.games.catmouse.plugin": "arena.builtin.catmouse.plugin",
    "arena.games.catmouse.commands": "arena.builtin.catmouse.commands",
    "arena.games.pawnrace.plugin": "arena.builtin.pawnrace.plugin",
    "arena.games.pawnrace.commands": "arena.builtin.pawnrace.commands",
    # Solvers, policies and searches are engines, not rules.
    "arena.games.catmouse.solver": "arena.engines.catmouse.solver",
    "arena.games.catmouse.perfect_play": "arena.engines.catmouse.perfect_play",
    "arena.games.catmouse.policies": "arena.engines.catmouse.policies",
    "arena.games.catmouse.parity": "arena.engines.catmouse.parity",
    "arena.games.pawnrace.solver": "arena.engines.pawnrace.solver",
    "arena.games.tron.search": "arena.engines.tron.search",
    "arena.games.tron.search_bot": "arena.engines.tron.search_bot",
    "arena.games.tron.paranoid": "arena.engines.tron.paranoid",
    "arena.games.tron.endgame": "arena.engines.tron.endgame",
    "arena.games.tron.compiled": "arena.engines.tron.compiled",
    "arena.games.tron.compiled_fill": "arena.engines.tron.compiled_fill",
    "arena.learning.tron.weights": "arena.engines.tron.learned_eval",
    "arena.learning.tron.snafu.features": "arena.engines.tron.snafu.features",
    "arena.learning.tron.snafu.strategy": "arena.engines.tron.snafu.strategy",
    "arena.learning.tron.snafu.table": "arena.engines.tron.snafu.table",
    # One ladder: the league's matchmaking rule and rating path, shared with `arena ladder`.
    "arena.league.matchmaking": "arena.stats.ladder_rule",
    "arena.league.rating_state": "arena.stats.ladder_rule",
    "arena.league.league_ladder": "arena.league.ladder_loop",
    "arena.tournament.ladder": "arena.tournament.persistent_ladder",
    # Renamed to say what they are.
    "arena.games.tron.board": "arena.games.tron.rules",
    "arena.games.catmouse.board": "arena.games.catmouse.rules",
    "arena.learning.catmouse.rules": "arena.learning.catmouse.training_rules",
}
"""Each old module or package and the name it has now."""


def new_name(old: str) -> str | None:
    """The module ``old`` is now, or ``None`` if ``old`` is not an old path (nor under an old package)."""
    if old in MOVED:
        return MOVED[old]
    package, dot, rest = old.rpartition(".")
    while dot:
        if package in MOVED:
            return f"{MOVED[package]}.{rest}"
        package, dot, head = package.rpartition(".")
        rest = f"{head}.{rest}"
    return None


class _Alias:
    """Loads an old name as the module it is now (the same object, keeping its own spec). A loader by its two
    methods: deriving from :class:`importlib.abc.Loader` would import :mod:`importlib.resources` and more into
    every process that imports :mod:`arena`, a sandboxed bot's included."""

    def __init__(self, target: str):
        self.target = target
        self.own_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module ran under its new name): give it back its own spec, which the import
        system replaced by the old name's."""
        module.__spec__ = self.own_spec


class _OldPaths:
    """Finds the old modules of :data:`MOVED` (a meta path finder by its ``find_spec``)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        moved = new_name(fullname)
        if moved is None or (moved not in sys.modules and importlib.util.find_spec(moved) is None):
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("importlib.abc.Loader", _Alias(moved)))


def install() -> None:
    """Put the hook that finds old paths first on :data:`sys.meta_path` (once)."""
    if not any(isinstance(finder, _OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldPaths())


install()
