"""arena: a plugin-based tournament framework for game-playing bots."""

from arena.bot import Bot, BotSpec, FunctionBot, bot
from arena.errors import ArenaError, BotSpecError, MapError, UnknownGameError
from arena.game import Game, MatchInfo, Option, Result
from arena.hookspecs import hookimpl
from arena.maps import GameMap, load_map, parse_map, resolve_map

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
        from arena.match import run_match

        return run_match
    if name == "load_registry":
        from arena.plugins import load_registry

        return load_registry
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
