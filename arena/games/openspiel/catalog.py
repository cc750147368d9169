"""What arena needs to know of OpenSpiel's games to register them, kept in a small JSON file so that loading the
registry does not import pyspiel.

Registering ``openspiel:NAME`` for every game needs each game's names, parameter defaults, player counts and a
few flags of its ``pyspiel.GameType``; reading them means importing pyspiel and walking its 100-odd game types,
which would cost every ``arena`` command and every worker process a tenth of a second. They are read once and
kept in ``$ARENA_CACHE/openspiel-games.json`` (see :func:`arena.core.paths.arena_cache_dir`), keyed by
the installed OpenSpiel (its version and its ``pyspiel`` library's path, size and time) and this module's
:data:`FORMAT`. A file that is missing, unreadable, corrupt or made for another OpenSpiel is built again (pyspiel
imported once) and replaced atomically; a cache that cannot be written leaves the facts read in memory.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import importlib.util
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from arena.core.errors import ArenaError
from arena.core.json_files import write_json_atomically
from arena.core.paths import arena_cache_dir
from arena.games.openspiel.loading import pyspiel_module

FORMAT = "openspiel-games-1"
"""Changes when the cached facts change shape, so that an old file is never misread."""
CACHE_FILE = "openspiel-games.json"

LEFT_OUT = {"crossword": "its moves are OpenSpiel action structs, not action ids"}
"""Games OpenSpiel loads that arena cannot play, and why."""


@dataclass(frozen=True)
class GameFacts:
    """One ``pyspiel.GameType``, as much of it as registering the game needs (enum fields by their names)."""

    short_name: str
    long_name: str
    defaults: dict[str, Any]
    """The game's parameters and their defaults (OpenSpiel's ``parameter_specification``)."""
    min_players: int
    max_players: int
    dynamics: str
    information: str
    reward_model: str
    default_loadable: bool
    has_text: bool
    """Whether the game provides an observation string."""
    has_tensor: bool
    """Whether the game provides an observation tensor."""

    @property
    def perfect(self) -> bool:
        """Whether the game is of perfect information."""
        return self.information == "PERFECT_INFORMATION"

    @property
    def simultaneous(self) -> bool:
        """Whether the players move together."""
        return self.dynamics == "SIMULTANEOUS"

    @property
    def playable(self) -> bool:
        """Whether arena plays the game: loadable with its default parameters, with turns or simultaneous moves
        (mean-field games are left out: they have no players to seat), and not in :data:`LEFT_OUT`."""
        return (self.default_loadable and self.dynamics in ("SEQUENTIAL", "SIMULTANEOUS")
                and self.short_name not in LEFT_OUT)

    @property
    def mcts(self) -> bool:
        """Whether OpenSpiel's MCTS plays the game: perfect information, one mover a turn, rewards at the end."""
        return self.perfect and self.dynamics == "SEQUENTIAL" and self.reward_model == "TERMINAL"


_TYPES = {"short_name": str, "long_name": str, "defaults": dict, "min_players": int, "max_players": int,
          "dynamics": str, "information": str, "reward_model": str, "default_loadable": bool, "has_text": bool,
          "has_tensor": bool}


def facts_of(kind: Any) -> GameFacts:
    """The facts of one ``pyspiel.GameType``."""
    return GameFacts(
        short_name=kind.short_name, long_name=kind.long_name, defaults=dict(kind.parameter_specification),
        min_players=int(kind.min_num_players), max_players=int(kind.max_num_players), dynamics=kind.dynamics.name,
        information=kind.information.name, reward_model=kind.reward_model.name,
        default_loadable=bool(kind.default_loadable), has_text=bool(kind.provides_observation_string),
        has_tensor=bool(kind.provides_observation_tensor))


def pyspiel_path() -> str | None:
    """Where the ``pyspiel`` library is, found without importing it; ``None`` when it cannot be found."""
    try:
        spec = importlib.util.find_spec("pyspiel")
    except (ImportError, ValueError):  # ValueError: a module in sys.modules without a spec
        return None
    return spec.origin if spec is not None else None


def available() -> bool:
    """Whether OpenSpiel is installed: pyspiel can be found (it is not imported here)."""
    return pyspiel_path() is not None


def installed_key() -> dict[str, Any] | None:
    """What the cache is keyed by: the cache's format, OpenSpiel's version and its ``pyspiel`` library's path,
    size and modification time; ``None`` when pyspiel cannot be found."""
    origin = pyspiel_path()
    if origin is None:
        return None
    try:
        stat = os.stat(origin)
    except OSError:
        return None
    try:
        version = importlib.metadata.version("open-spiel")
    except importlib.metadata.PackageNotFoundError:
        version = ""  # built from source: the library's size and time still tell one build from another
    return {"format": FORMAT, "open_spiel": version, "pyspiel": origin, "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns}


def cache_path() -> Path:
    """The cache file: ``openspiel-games.json`` in the arena's cache."""
    return arena_cache_dir() / CACHE_FILE


def read_cache(path: Path, key: dict[str, Any]) -> tuple[GameFacts, ...] | None:
    """The facts the file at ``path`` holds for ``key``; ``None`` when it is missing, unreadable, corrupt or made
    for another key."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key or not isinstance(record.get("games"), list):
        return None
    games = []
    for game in record["games"]:
        if not (isinstance(game, dict) and set(game) == set(_TYPES)
                and all(type(game[name]) is kind for name, kind in _TYPES.items())):
            return None
        games.append(GameFacts(**game))
    return tuple(games)


def write_cache(path: Path, key: dict[str, Any], games: tuple[GameFacts, ...]) -> None:
    """Store the facts under ``key`` (a reader never sees half a file); a cache that cannot be written is left as
    it is."""
    with contextlib.suppress(ArenaError):
        write_json_atomically(path, {"key": key, "games": [asdict(game) for game in games]})


@functools.cache
def all_games() -> tuple[GameFacts, ...]:
    """The facts of every game OpenSpiel registers, from the cache (pyspiel imported only to build it again), or
    :class:`~arena.core.errors.ArenaError` saying how to install OpenSpiel."""
    key = installed_key()
    path = cache_path()
    if key is not None:
        cached = read_cache(path, key)
        if cached is not None:
            return cached
    games = tuple(facts_of(kind) for kind in pyspiel_module().registered_games())
    if key is not None:
        write_cache(path, key, games)
    return games


@functools.cache
def playable_games() -> Mapping[str, GameFacts]:
    """The facts of every game arena plays (:attr:`GameFacts.playable`) by short name, in OpenSpiel's order."""
    return MappingProxyType({game.short_name: game for game in all_games() if game.playable})

