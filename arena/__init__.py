"""arena: a plugin-based tournament framework for game-playing bots."""

from arena.core.bot import Bot, BotSpec, FunctionBot, bot
from arena.core.errors import ArenaError, BotSpecError, MapError, UnknownGameError
from arena.core.game import Game, MatchInfo, Option, Result
from arena.core.maps import GameMap, load_map, parse_map, resolve_map
from arena.plugins.hookspecs import hookimpl

__version__ = "0.1.0"

__all__ = [
    "ArenaError",
    "Bot",
    "BotSpec",
    "BotSpecError",
    "FunctionBot",
    "Game",
    "GameMap",
    "MapError",
    "MatchInfo",
    "Option",
    "Result",
    "UnknownGameError",
    "bot",
    "hookimpl",
    "load_map",
    "parse_map",
    "resolve_map",
    "run_match",
    "load_registry",
]


def __getattr__(name: str):
    # Imported lazily: the referee and registry pull in every plugin, which a bot module never needs.
    if name == "run_match":
        from arena.play.referee import run_match

        return run_match
    if name == "load_registry":
        from arena.plugins.registry import load_registry

        return load_registry
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
