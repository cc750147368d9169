"""The schema of arena's database, version by version, and the migrations that bring an older file forward.

Version ``n`` of the schema is :data:`MIGRATIONS` ``[1]`` to ``[n]`` applied in turn: each entry is an SQL
script (statements separated by ``;``) or a function of the connection. A new version adds one entry and
raises :data:`SCHEMA_VERSION`; :class:`arena.storage.store.Store` runs the missing steps when it opens a file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from arena.storage import summaries
from arena.storage.codec import encode_record

SCHEMA_VERSION = 5
"""The newest schema: this arena writes it and reads files up to it."""

APPLICATION = "arena"
"""The ``application`` value in the ``meta`` table of every arena database."""


def _compress_stored_records(conn: sqlite3.Connection) -> None:
    """Records written before compression: compressed in place (they read back as the same dicts)."""
    cursor = conn.execute("SELECT id, record FROM games WHERE typeof(record) = 'text'")
    while batch := cursor.fetchmany(1000):
        conn.executemany("UPDATE games SET record = ? WHERE id = ?",
                         [(encode_record(json.loads(record)), game_id) for game_id, record in batch])


_VERSION_2 = """
    CREATE TABLE leaderboard_draws (
        run_id INTEGER PRIMARY KEY REFERENCES runs (id),
        game TEXT NOT NULL,
        ties INTEGER NOT NULL,
        pairs INTEGER NOT NULL
    );
    CREATE INDEX leaderboard_draws_game ON leaderboard_draws (game, run_id);
    CREATE INDEX leaderboard_game ON leaderboard (game, run_id);
    CREATE INDEX leaderboard_bot ON leaderboard (bot_id);
    CREATE TABLE run_ratings (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        role TEXT NOT NULL DEFAULT '',
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (run_id, bot_id, role)
    ) WITHOUT ROWID;
    INSERT INTO run_ratings (run_id, bot_id, role, mu, sigma, games)
        SELECT run_id, bot_id, role, mu, sigma, games FROM (
            SELECT run_id, bot_id, role, mu, sigma,
                   ROW_NUMBER() OVER (PARTITION BY run_id, bot_id, role ORDER BY game_idx DESC) AS newest,
                   COUNT(*) OVER (PARTITION BY run_id, bot_id, role) AS games
            FROM rating_snapshots)
        WHERE newest = 1;
    CREATE TABLE rating_snapshots_by_key (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        game_idx INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        role TEXT NOT NULL DEFAULT '',
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (run_id, game_idx, bot_id, role)
    ) WITHOUT ROWID;
    INSERT INTO rating_snapshots_by_key SELECT run_id, game_idx, bot_id, role, mu, sigma FROM rating_snapshots;
    DROP TABLE rating_snapshots;
    ALTER TABLE rating_snapshots_by_key RENAME TO rating_snapshots;
    ALTER TABLE runs ADD COLUMN played INTEGER NOT NULL DEFAULT 0;
    UPDATE runs SET played = (SELECT count(*) FROM games WHERE games.run_id = runs.id)
"""
_COUNT_PLAYED = """
    CREATE TRIGGER games_count_in_their_run AFTER INSERT ON games
    BEGIN
        UPDATE runs SET played = played + 1 WHERE id = NEW.run_id;
    END
"""


def _migrate_to_2(conn: sqlite3.Connection) -> None:
    """Version 2: records compressed; each leaderboard carries the draw counts it was rated with (so the
    next run continues it); each run's final ratings kept on their own; snapshots stored once, by key;
    each run counts its stored games (a trigger adds each new one)."""
    _run_script(conn, _VERSION_2)
    conn.execute(_COUNT_PLAYED)  # one statement, with a semicolon inside
    _compress_stored_records(conn)


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


_VERSION_3 = """
    CREATE TABLE bot_sources (
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        kind TEXT NOT NULL,
        first_seen TEXT NOT NULL,
        PRIMARY KEY (name, version)
    ) WITHOUT ROWID;
    CREATE TABLE bot_source_files (
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        path TEXT NOT NULL,
        mode INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (name, version, path),
        FOREIGN KEY (name, version) REFERENCES bot_sources (name, version)
    ) WITHOUT ROWID
"""
"""Version 3: the source of each bot version the first time it plays (a Python bot's module, a program bot's
files), so that an older version can be played again (``name@version``)."""



def _migrate_to_4(conn: sqlite3.Connection) -> None:
    """Version 4: the summaries of each run (:mod:`arena.storage.summaries`), built from its stored games."""
    _run_script(conn, summaries.SCHEMA)
    for (run_id,) in conn.execute("SELECT id FROM runs ORDER BY id").fetchall():
        summaries.rebuild(conn, run_id)


_VERSION_5 = """
    ALTER TABLE ladder ADD COLUMN pass REAL;
    ALTER TABLE ladder ADD COLUMN scheduled INTEGER NOT NULL DEFAULT 0;
    UPDATE ladder SET pass = games, scheduled = games;
    CREATE TABLE ladder_draws (
        game TEXT PRIMARY KEY,
        ties INTEGER NOT NULL,
        pairs INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO ladder_draws (game, ties, pairs)
        SELECT r.game, sum(json_extract(g.ranks, '$[0]') = json_extract(g.ranks, '$[1]')), count(*)
        FROM games g JOIN runs r ON r.id = g.run_id
        WHERE r.format = 'ladder' AND json_array_length(g.ranks) = 2
        GROUP BY r.game
"""
"""Version 5: the ladder pairs and rates by the league's rule (:mod:`arena.stats.ladder_rule`): each entry keeps
its pass (``NULL`` once it has left the ladder) and games scheduled (an entry stored before starts with both at
its games), and each game's ladder its draw counts (counted from the two-player games its runs stored)."""


MIGRATIONS: dict[int, str | Callable[[sqlite3.Connection], None]] = {
    1: """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        format TEXT NOT NULL,
        definition TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        scheduled INTEGER NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        finished_at TEXT
    );
    CREATE INDEX runs_fingerprint ON runs (fingerprint);
    CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        source TEXT NOT NULL,
        previous_id INTEGER REFERENCES bots (id),
        first_seen TEXT NOT NULL,
        UNIQUE (label, version)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs (id),
        idx INTEGER NOT NULL,
        game TEXT NOT NULL,
        map TEXT,
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL,
        ranks TEXT NOT NULL,
        reason TEXT NOT NULL,
        failures TEXT NOT NULL,
        think_time TEXT NOT NULL,
        duration REAL NOT NULL,
        turns INTEGER NOT NULL,
        record TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        UNIQUE (run_id, idx)
    );
    CREATE TABLE rating_snapshots (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        game_idx INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        role TEXT NOT NULL DEFAULT '',
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (run_id, game_idx, bot_id, role)
    );
    CREATE TABLE leaderboard (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        game TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        role TEXT NOT NULL DEFAULT '',
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (run_id, bot_id, role)
    );
    CREATE TABLE ladder (
        game TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        role TEXT NOT NULL DEFAULT '',
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        last_round INTEGER NOT NULL,
        PRIMARY KEY (game, bot_id, role)
    );
    """,
    2: _migrate_to_2,
    3: _VERSION_3,
    4: _migrate_to_4,
    5: _VERSION_5,
}


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring the database of schema ``version`` (0: empty) to :data:`SCHEMA_VERSION`, step by step, inside the
    caller's transaction; the ``meta`` table records each version reached."""
    for target in range(version + 1, SCHEMA_VERSION + 1):
        migration = MIGRATIONS[target]
        if callable(migration):
            migration(conn)
        else:
            _run_script(conn, migration)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('application', ?)", (APPLICATION,))
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(target),))
