"""SQLite storage: runs, bots and their versions, games with full records, and rating snapshots.

``arena.db`` in the current directory unless ``--db`` or ``ARENA_DB`` says otherwise. WAL mode; every
finished game is committed on its own, so a killed arena loses no finished game. A file that is not an
arena database, is corrupt, or was written by a newer arena is refused before anything is written to it;
an older one is migrated forward when opened (:mod:`arena.storage.migrations`). Game records are stored
compressed (:mod:`arena.storage.codec`).
Commands that only read open the file read-only (:meth:`Store.__init__` with ``read_only``), so a database
in a read-only directory or file can still be read; opening one to write there says so in one line.

:class:`Store` is made of one class per part, each in its own module: the connection and its transactions
(:mod:`arena.storage.connection`), bots and their sources (:mod:`arena.storage.bot_rows`), runs
(:mod:`arena.storage.run_rows`), games (:mod:`arena.storage.game_rows`), ratings, leaderboards and the
ladder (:mod:`arena.storage.rating_rows`), and what other tables ask of the stored games
(:mod:`arena.storage.game_lookups`). The names they define are importable from here too.
"""

from __future__ import annotations

from arena.storage.bot_rows import BotRows
from arena.storage.connection import (
    DB_VARIABLE,
    DEFAULT_DB,
    LOCK_WAIT_SECONDS,
    StoreConnection,
    StoreError,
    connect_read_only,
    default_db_path,
    now,
    read_only_reason,
)
from arena.storage.game_lookups import GameLookups, GameOutline
from arena.storage.game_rows import GameResult, GameRow, GameRows, NewGameRow
from arena.storage.rating_rows import LadderRow, LeaderboardRow, RatingRow, RatingRows, SnapshotRow
from arena.storage.run_rows import RunRow, RunRows

__all__ = ["DB_VARIABLE", "DEFAULT_DB", "LOCK_WAIT_SECONDS", "GameOutline", "GameResult", "GameRow", "LadderRow",
           "LeaderboardRow", "NewGameRow", "RatingRow", "RunRow", "SnapshotRow", "Store", "StoreConnection",
           "StoreError", "connect_read_only", "default_db_path", "now", "read_only_reason"]


# The last part first: the reference lists inherited members from the last base on, so it reads as a
# database is used (connection, bots, runs, games, ratings, lookups).
class Store(GameLookups, RatingRows, GameRows, RunRows, BotRows):
    """An open arena database: open it with ``Store(path)`` (or as a context manager, which closes it)."""
