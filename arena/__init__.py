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

from arena import compat as _compat
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
