"""The league's own tables, kept in the league's ``arena.db`` beside the store's runs, bots and games.

They are created when a league is made (and checked when it is opened); the store's schema and
migrations are untouched, so ``arena runs``, ``arena show`` and the other commands read a league's
database like any other. ``league_meta`` holds the league tables' own version.

- ``league_state``: key/value facts (the organiser's token hash, pause and freeze, the stored runs the
  league plays into, how far ratings are rated).
- ``league_teams``: teams and their token hashes.
- ``league_team_info``: the roster columns kept with a team added from a roster (JSON).
- ``league_versions``: every submitted version of every team's bot, its files, build status and log.
- ``league_active``: the version of each team's bot that plays.
- ``league_ratings``: the rating of each version (and role), rated in queue order.
- ``league_history``: each version's (and role's) rating after each of its rated games, for the charts.
- ``league_shares``: matchmaking's count of each version's games (see :mod:`arena.stats.ladder_rule`).
- ``league_queue``: every game the league has scheduled, in queue order; a game is done once the store
  holds it (same run, same index). ``league_queue_players`` indexes it by version.
- ``league_waiting``: the queued games not stored yet (a row leaves when its game is stored or dropped), so
  the ladder's look-ups of what to play next never walk the finished ones (added in version 3).
- ``league_played``: each stored game of each version, by the store's game id (a version's newest games, of
  every kind and of one kind) (added in version 3). Its game and queue ids are not declared foreign keys: a
  key would make SQLite look for a game's rows here, with no index to look by, each time it stores a game.
- ``league_failures``: how often each version failed in its ranked games, by kind (added in version 3).
- ``league_meetings``: each version's wins, draws and losses against each version it met in ranked games, a
  win meaning a better rank (added in version 3).
- ``league_workers``: what the running ladder reports about its executor.
- ``league_final_matches``: a bracket final's matches queued so far: their players, games (queue ids) and,
  once decided, winner, scores and the rule that decided it (added in version 2; a league made before gets it
  when opened, its final a round robin).

Every query the ladder runs for each game, and every query of the pages, reads these tables through an index
bounded by what it returns, never a walk through the league's history (``tests/test_league_query_plans.py``
checks each one's plan). A league made before version 3 gets the version 3 tables, filled from its queue and
games, when it is opened (:func:`upgrade`).
"""

from __future__ import annotations

import re
import sqlite3

from arena.storage.connection import register_growing_tables
from arena.storage.store import Store

LEAGUE_SCHEMA_VERSION = 3

_TABLES = """
    CREATE TABLE IF NOT EXISTS league_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS league_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS league_teams (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        token_hash TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS league_team_info (
        team_id INTEGER PRIMARY KEY REFERENCES league_teams (id),
        info TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS league_versions (
        id INTEGER PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES league_teams (id),
        bot TEXT NOT NULL,
        number INTEGER NOT NULL,
        version TEXT NOT NULL,
        kind TEXT NOT NULL,
        defines TEXT NOT NULL,
        status TEXT NOT NULL,
        build_log TEXT NOT NULL DEFAULT '',
        submitted_at TEXT NOT NULL,
        store_bot_id INTEGER REFERENCES bots (id),
        UNIQUE (team_id, bot, number)
    );
    CREATE TABLE IF NOT EXISTS league_files (
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        path TEXT NOT NULL,
        mode INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (version_id, path)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS league_active (
        team_id INTEGER NOT NULL REFERENCES league_teams (id),
        bot TEXT NOT NULL,
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        chosen INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (team_id, bot)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS league_history (
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        role TEXT NOT NULL DEFAULT '',
        idx INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (version_id, role, idx)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS league_ratings (
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        role TEXT NOT NULL DEFAULT '',
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL DEFAULT 0,
        draws INTEGER NOT NULL DEFAULT 0,
        losses INTEGER NOT NULL DEFAULT 0,
        last_idx INTEGER,
        PRIMARY KEY (version_id, role)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS league_shares (
        version_id INTEGER PRIMARY KEY REFERENCES league_versions (id),
        pass REAL NOT NULL,
        scheduled INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS league_queue (
        idx INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        run_id INTEGER NOT NULL REFERENCES runs (id),
        match INTEGER NOT NULL,
        versions TEXT NOT NULL,
        map TEXT NOT NULL,
        seed INTEGER NOT NULL,
        team_id INTEGER,
        created_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS league_queue_kind ON league_queue (kind, idx);
    CREATE INDEX IF NOT EXISTS league_queue_match ON league_queue (kind, run_id, match);
    CREATE TABLE IF NOT EXISTS league_queue_players (
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        idx INTEGER NOT NULL REFERENCES league_queue (idx),
        PRIMARY KEY (version_id, idx)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS league_waiting (
        idx INTEGER PRIMARY KEY REFERENCES league_queue (idx),
        kind TEXT NOT NULL,
        team_id INTEGER
    );
    CREATE TABLE IF NOT EXISTS league_played (
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        game_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        idx INTEGER NOT NULL,
        PRIMARY KEY (version_id, game_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS league_played_kind ON league_played (version_id, kind, game_id);
    CREATE TABLE IF NOT EXISTS league_failures (
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        kind TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (version_id, kind)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS league_meetings (
        version_id INTEGER NOT NULL REFERENCES league_versions (id),
        other_id INTEGER NOT NULL REFERENCES league_versions (id),
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        PRIMARY KEY (version_id, other_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS league_workers (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS league_final_matches (
        id TEXT PRIMARY KEY,
        number INTEGER NOT NULL UNIQUE,
        version_a INTEGER NOT NULL REFERENCES league_versions (id),
        version_b INTEGER NOT NULL REFERENCES league_versions (id),
        games TEXT NOT NULL,
        winner INTEGER REFERENCES league_versions (id),
        score_a REAL,
        score_b REAL,
        decided_by TEXT
    )
"""


def create_tables(conn: sqlite3.Connection) -> None:
    """Create the league's tables if missing and record their version (inside the caller's transaction)."""
    for statement in _TABLES.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT OR REPLACE INTO league_meta VALUES ('schema_version', ?)", (str(LEAGUE_SCHEMA_VERSION),))


def schema_version(conn: sqlite3.Connection) -> int:
    """The version of the league's tables in this database (1: made before the tables kept it)."""
    row = conn.execute("SELECT value FROM league_meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 1


register_growing_tables("league_queue", "league_queue_players", "league_played", "league_history")

_NAMED = re.compile(r"CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)")


def needs_upgrade(conn: sqlite3.Connection) -> bool:
    """Whether :func:`upgrade` has anything to do: an older version, or a table or index of this version missing.

    Read only, so opening a league to read it (each of the web server's threads does) never writes, nor pays
    for the whole-file check that comes before a connection's first write."""
    present = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'league%'")}
    return schema_version(conn) < LEAGUE_SCHEMA_VERSION or not set(_NAMED.findall(_TABLES)) <= present


def upgrade(conn: sqlite3.Connection) -> None:
    """Bring a league's tables to :data:`LEAGUE_SCHEMA_VERSION` (inside the caller's transaction): the tables
    and indexes a newer arena added, the version 3 tables filled from the queue and the stored games once."""
    before = schema_version(conn)
    create_tables(conn)
    if before < 3:
        _fill_version_3(conn)


_STORED = Store.stored_join("q", "g")


def _fill_version_3(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT OR IGNORE INTO league_waiting (idx, kind, team_id) SELECT q.idx, q.kind, q.team_id "
                 f"FROM league_queue q WHERE NOT {Store.stored_test('q')}")
    conn.execute("INSERT OR IGNORE INTO league_played (version_id, game_id, kind, idx) SELECT seat.value, g.id, "
                 f"q.kind, q.idx FROM league_queue q {_STORED} JOIN json_each(q.versions) seat")
    conn.execute("INSERT OR REPLACE INTO league_failures (version_id, kind, count) SELECT seat.value, failed.value, "
                 f"count(*) FROM league_queue q {_STORED} JOIN json_each(q.versions) seat "
                 "JOIN json_each(g.failures) failed ON failed.key = CAST(seat.key AS TEXT) "
                 "WHERE q.kind = 'ranked' AND g.failures != '{}' GROUP BY seat.value, failed.value")
    rank = "json_extract(g.ranks, '$[' || {}.key || ']')"
    mine, theirs = rank.format("seat"), rank.format("other")
    conn.execute("INSERT OR REPLACE INTO league_meetings (version_id, other_id, wins, draws, losses) "
                 f"SELECT seat.value, other.value, sum({mine} < {theirs}), sum({mine} = {theirs}), "
                 f"sum({mine} > {theirs}) FROM league_queue q {_STORED} JOIN json_each(q.versions) seat "
                 "JOIN json_each(q.versions) other ON other.key != seat.key "
                 "WHERE q.kind = 'ranked' AND other.value != seat.value GROUP BY seat.value, other.value")


def has_tables(conn: sqlite3.Connection) -> bool:
    """Whether the database holds a league."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'league_meta'").fetchone() is not None
