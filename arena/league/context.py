"""What every part of an open league shares: its folder, settings, store, game and maps, and its state table.

The parts of the league (:mod:`~arena.league.teams`, :mod:`~arena.league.versions`,
:mod:`~arena.league.game_queue`, :mod:`~arena.league.scheduling`, :mod:`~arena.league.rating_updates`,
:mod:`~arena.league.final`, :mod:`~arena.league.read_views`, :mod:`~arena.league.league_maps`) are functions
of a :class:`LeagueContext`; :class:`arena.league.facade.League` holds one and calls them.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.game import Game
from arena.core.maps import GameMap
from arena.league.settings import LeagueSettings
from arena.plugins.registry import PluginConfig, Registry, load_registry
from arena.storage.store import Store

RANKED, CHALLENGE, FINAL = "ranked", "challenge", "final"
"""The kinds of the league's games: rated ladder games, unrated challenges, the final."""
KINDS = (RANKED, CHALLENGE, FINAL)
READY, FAILED, DISABLED = "ready", "failed", "disabled"
"""The states of a submitted version: it built and may play, its build failed, the organiser disabled it."""


@functools.cache
def registry() -> Registry:
    """The games (a league's bots come from its database, never from a folder)."""
    return load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))


@dataclass
class LeagueContext:
    """An open league's parts (see the module's docstring)."""

    folder: Path
    settings: LeagueSettings
    store: Store
    game: type[Game]
    maps: list[GameMap]

    @property
    def conn(self) -> sqlite3.Connection:
        """The database connection (one thread's)."""
        return self.store.conn

    @property
    def players(self) -> int:
        """Players in each of the league's games."""
        return self.game.num_players(self.maps[0])

    def roles(self) -> tuple[str | None, ...]:
        """The game's roles (``(None,)`` in a game without roles)."""
        return self.game.roles or (None,)

    def get(self, key: str, default: Any = None) -> Any:
        """A value of the ``league_state`` table."""
        return get_state(self.store, key, default)

    def put(self, key: str, value: Any) -> None:
        """Set a value of the ``league_state`` table (inside a transaction)."""
        put_state(self.store, key, value)

    def names(self, version_id: int) -> tuple[str, str, int]:
        """A version's team, bot and number."""
        row = self.conn.execute("SELECT t.name, v.bot, v.number FROM league_versions v JOIN league_teams t "
                                "ON t.id = v.team_id WHERE v.id = ?", (version_id,)).fetchone()
        return row[0], row[1], row[2]


def get_state(store: Store, key: str, default: Any = None) -> Any:
    """A value of the ``league_state`` table of ``store``."""
    row = store.conn.execute("SELECT value FROM league_state WHERE key = ?", (key,)).fetchone()
    return json.loads(row[0]) if row else default


def put_state(store: Store, key: str, value: Any) -> None:
    """Set a value of the ``league_state`` table of ``store`` (inside a transaction)."""
    store.conn.execute("INSERT OR REPLACE INTO league_state VALUES (?, ?)", (key, json.dumps(value)))
