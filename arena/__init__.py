"""arena: a plugin-based tournament framework for game-playing bots.

The public API, for bots, games, plugins and scripts that embed the arena:

- write bots and games: :class:`Bot`, :func:`bot`, :class:`Game`, :class:`Option`, :class:`Result`, :func:`hookimpl`;
- load plugins: :class:`PluginConfig`, :func:`load_registry`;
- play one game: :func:`run_match` gives a :class:`MatchOutcome` (a :class:`Failure` for each bot that failed),
  timed by a per-move limit and a :class:`TimeControl` (:func:`time_control` reads ``10+0.1``); a bot reads
  its :class:`Clock` from ``info.clock``;
- run a tournament: :func:`run_tournament` with a :class:`TournamentDefinition` (or a TOML file);
- read results back: :class:`Store`, :func:`run_standings`, :func:`leaderboard`, :func:`rating_history`.
"""

from __future__ import annotations

import importlib as _importlib
import typing as _typing

from arena import compat as _compat

if _typing.TYPE_CHECKING:
    from arena.core.bot import Bot, BotSpec, FunctionBot, bot
    from arena.core.clock import Clock, TimeControl, time_control
    from arena.core.errors import ArenaError, BotSpecError, MapError, UnknownGameError
    from arena.core.failure import Failure
    from arena.core.game import Game, MatchInfo, Option, Result
    from arena.core.maps import GameMap, load_map, parse_map, resolve_map
    from arena.core.version import VERSION
    from arena.play.limits import Limits
    from arena.play.referee import MatchOutcome, MatchSetup, run_match
    from arena.plugins.hookspecs import hookimpl
    from arena.plugins.registry import PluginConfig, Registry, load_registry
    from arena.stats.standings import Standings
    from arena.storage.queries import StoredRating, leaderboard, rating_history, run_standings
    from arena.storage.store import Store
    from arena.tournament.definition import TournamentDefinition, load_definition
    from arena.tournament.runner import TournamentRun, run_tournament

    __version__ = VERSION

_compat.install()  # old import paths (stored bots, plugin lists) still import: see arena.compat

_PUBLIC = {
    'ArenaError': 'arena.core.errors',
    'Bot': 'arena.core.bot',
    'bot': 'arena.core.bot',
    'BotSpec': 'arena.core.bot',
    'BotSpecError': 'arena.core.errors',
    'Clock': 'arena.core.clock',
    'Failure': 'arena.core.failure',
    'FunctionBot': 'arena.core.bot',
    'Game': 'arena.core.game',
    'GameMap': 'arena.core.maps',
    'hookimpl': 'arena.plugins.hookspecs',
    'leaderboard': 'arena.storage.queries',
    'Limits': 'arena.play.limits',
    'load_definition': 'arena.tournament.definition',
    'load_map': 'arena.core.maps',
    'load_registry': 'arena.plugins.registry',
    'MapError': 'arena.core.errors',
    'MatchInfo': 'arena.core.game',
    'MatchOutcome': 'arena.play.referee',
    'MatchSetup': 'arena.play.referee',
    'Option': 'arena.core.game',
    'parse_map': 'arena.core.maps',
    'PluginConfig': 'arena.plugins.registry',
    'rating_history': 'arena.storage.queries',
    'Registry': 'arena.plugins.registry',
    'resolve_map': 'arena.core.maps',
    'Result': 'arena.core.game',
    'run_match': 'arena.play.referee',
    'run_standings': 'arena.storage.queries',
    'run_tournament': 'arena.tournament.runner',
    'Standings': 'arena.stats.standings',
    'Store': 'arena.storage.store',
    'StoredRating': 'arena.storage.queries',
    'time_control': 'arena.core.clock',
    'TimeControl': 'arena.core.clock',
    'TournamentDefinition': 'arena.tournament.definition',
    'TournamentRun': 'arena.tournament.runner',
    'UnknownGameError': 'arena.core.errors',
    'VERSION': 'arena.core.version',
}
"""Where each public name is defined: it is imported the first time it is asked for (``arena.Store``,
``from arena import bot``), so ``import arena`` (and every ``arena.*`` module, which imports this one first)
costs only what it uses: a bot's sandbox imports the bot contract, not the storage and the tournaments."""


def __getattr__(name: str) -> _typing.Any:
    """Import a public name on first use (PEP 562); ``__version__`` reads the installed version."""
    if name == "__version__":
        from arena.core.version import VERSION

        globals()[name] = VERSION
        return VERSION
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'arena' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, the version and the module's own dunder names."""
    return sorted({*_PUBLIC, "__version__", *(name for name in globals() if name.startswith("__"))})


__all__ = [
    "ArenaError",
    "Bot",
    "BotSpec",
    "BotSpecError",
    "Clock",
    "Failure",
    "FunctionBot",
    "Game",
    "GameMap",
    "Limits",
    "MapError",
    "MatchInfo",
    "MatchOutcome",
    "MatchSetup",
    "Option",
    "PluginConfig",
    "Registry",
    "Result",
    "Standings",
    "Store",
    "StoredRating",
    "TimeControl",
    "TournamentDefinition",
    "TournamentRun",
    "UnknownGameError",
    "bot",
    "hookimpl",
    "leaderboard",
    "load_definition",
    "load_map",
    "load_registry",
    "parse_map",
    "rating_history",
    "resolve_map",
    "run_match",
    "run_standings",
    "run_tournament",
    "time_control",
]
