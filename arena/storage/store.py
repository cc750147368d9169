"""SQLite storage: runs, bots and their versions, games with full records, and rating snapshots.

``arena.db`` in the current directory unless ``--db`` or ``ARENA_DB`` says otherwise. WAL mode; every
finished game is committed on its own, so a killed arena loses no finished game. A file that is not an
arena database, is corrupt, or was written by a newer arena is refused before anything is written to it;
an older one is migrated forward when opened (:mod:`arena.storage.migrations`). Game records are stored
compressed (:mod:`arena.storage.codec`).
Commands that only read open the file read-only (:meth:`Store.__init__` with ``read_only``), so a database
in a read-only directory or file can still be read; opening one to write there says so in one line.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from arena.core.errors import ArenaError
from arena.stats.standings import PlayedGame
from arena.storage import migrations, summaries
from arena.storage.codec import decode_record, encode_record, record_json

DB_VARIABLE = "ARENA_DB"
DEFAULT_DB = "arena.db"
LOCK_WAIT_SECONDS = 60

_COMPACT = (",", ":")
_COMPACT_ENCODER = json.JSONEncoder(separators=_COMPACT)
"""Built once: ``json.dumps`` with options builds an encoder on every call, four times a stored game."""


def _compact_json(value: Any) -> str:
    return _COMPACT_ENCODER.encode(value)


class StoreError(ArenaError):
    """A database file that cannot be used; it was not modified."""


def _ints_json(values: Sequence[int]) -> str:
    """``values`` as compact JSON: joined directly when all are plain ints (what the encoder writes then)."""
    if all(type(value) is int for value in values):
        return "[" + ",".join(map(str, values)) + "]"
    return _compact_json(list(values))


def _floats_json(values: Sequence[float]) -> str:
    """``values`` as compact JSON: joined directly when all are finite floats (the encoder writes their
    ``repr`` then)."""
    if all(type(value) is float and -math.inf < value < math.inf for value in values):
        return "[" + ",".join(map(float.__repr__, values)) + "]"
    return _compact_json(list(values))


def _failures_json(failures: dict[int, str]) -> str:
    """A game's failures by seat as compact JSON, keyed by the seat's text."""
    return _compact_json({str(k): v for k, v in failures.items()}) if failures else "{}"


_SEATINGS_KEPT = 4096
"""Seatings whose JSON a store keeps (it starts again beyond)."""
_INSERT_GAME = ("INSERT OR IGNORE INTO games (run_id, idx, game, map, seed, seats, ranks, reason, failures, "
                "think_time, duration, turns, record, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def now() -> str:
    """The current UTC time as ISO text."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def default_db_path() -> Path:
    """``$ARENA_DB`` if set, else ``./arena.db``."""
    return Path(os.environ.get(DB_VARIABLE) or DEFAULT_DB)


class RatingRow(NamedTuple):
    """A stored rating of one bot version (and role): at the end of a run, or on a leaderboard after one."""

    bot_id: int
    role: str | None
    mu: float
    sigma: float
    games: int


class LeaderboardRow(NamedTuple):
    """A stored all-time rating of one bot version (and role) after run ``run_id`` of ``game``."""

    run_id: int
    game: str
    bot_id: int
    role: str | None
    mu: float
    sigma: float
    games: int


class SnapshotRow(NamedTuple):
    """One bot version's (and role's) rating within its run, after the run's game ``game_idx``."""

    game_idx: int
    bot_id: int
    role: str | None
    mu: float
    sigma: float


@dataclass(frozen=True)
class RunRow:
    """One stored tournament run."""

    id: int
    name: str
    game: str
    format: str
    definition: dict[str, Any]
    fingerprint: str
    scheduled: int
    status: str
    created_at: str
    finished_at: str | None
    played: int


@dataclass(frozen=True)
class GameRow:
    """One stored game: who sat where (bot label and role), ranks, failures, thinking time, record."""

    run_id: int
    idx: int
    labels: tuple[str, ...]
    bot_ids: tuple[int, ...]
    roles: tuple[str | None, ...]
    ranks: tuple[int, ...]
    reason: str
    failures: dict[int, str]
    think_time: tuple[float, ...]
    map: str | None
    stored_record: bytes | str = field(repr=False)

    @property
    def record(self) -> dict[str, Any]:
        """The game record (``arena-record/1``), decoded when asked for: most readers need only the result."""
        return decode_record(self.stored_record)

    @property
    def record_text(self) -> str:
        """The game record's JSON text."""
        return record_json(self.stored_record)


class GameResult(NamedTuple):
    """What rating a stored game needs: who sat where (bot id and role, and label) and the ranks."""

    idx: int
    players: tuple[tuple[int, str | None], ...]
    labels: tuple[str, ...]
    ranks: tuple[int, ...]


class GameOutline(NamedTuple):
    """A stored game as a list of games shows it: no turns, no record."""

    ranks: list[int]
    reason: str
    failures: dict[str, str]
    map: str | None
    finished_at: str
    roles: list[str | None]


class NewGameRow(NamedTuple):
    """A finished game to store (:meth:`Store.add_games`): the arguments of :meth:`Store.add_game`."""

    idx: int
    seats: Sequence[dict[str, Any]]
    ranks: Sequence[int]
    reason: str
    failures: dict[int, str]
    think_time: Sequence[float]
    duration: float
    turns: int
    record: dict[str, Any]
    known: PlayedGame | None = None
    """What standings count of it, if the caller has it already (else worked out from the rest)."""

    def played(self) -> PlayedGame:
        """What standings count of it."""
        if self.known is not None:
            return self.known
        return PlayedGame(tuple((seat["label"], seat.get("role")) for seat in self.seats), tuple(self.ranks),
                          dict(self.failures), tuple(self.think_time), (self.record.get("map") or {}).get("name"))


_GROWING_TABLES = frozenset({"games", "rating_snapshots", "summary_history"})
"""Tables that grow with every stored game: checked before this process first writes, not when it opens."""


def _integrity_problem(conn: sqlite3.Connection, tables: Iterable[str] | None = None) -> str | None:
    """What ``PRAGMA quick_check`` finds wrong with ``tables`` (with their indexes), or the whole file."""
    checks = (["PRAGMA quick_check"] if tables is None else
              ['PRAGMA quick_check("{}")'.format(table.replace('"', '""')) for table in tables])
    for check in checks:
        row = conn.execute(check).fetchone()
        if row is None or row[0] != "ok":
            return " ".join(str(row[0] if row else "no answer").split())
    return None


def _check_existing(path: Path) -> int:
    """Refuse files that are not arena databases of a schema this arena reads, without writing; the schema
    version of one that is.

    Every table is checked for corruption except the ones that grow with every game (their check would
    make opening a database take longer the more games it holds); :meth:`Store.check_before_writing`
    checks the whole file before the first write.
    """
    # Read through SQLite, never with open(): closing any descriptor of the file drops every POSIX lock this
    # process holds on it, so another process would take this one's connections for gone and delete the
    # write-ahead log under them ("How To Corrupt An SQLite Database File", 2.2).
    try:
        conn = connect_read_only(path)
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB":
            raise StoreError(f"{path}: not an arena database (not an SQLite file); it was left untouched") from None
        raise StoreError(f"{path}: the database is corrupt or unreadable ({exc}); it was left untouched") from None
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        problem = _integrity_problem(conn, sorted(tables - _GROWING_TABLES))
        if problem is not None:
            raise StoreError(f"{path}: the database is corrupt ({problem}); it was left untouched")
        if not tables:
            return 0  # a new database another arena is creating right now: opening it waits for that
        if "meta" not in tables:
            raise StoreError(f"{path}: not an arena database (an SQLite file without arena's tables); "
                             "it was left untouched")
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("application") != migrations.APPLICATION:
            raise StoreError(f"{path}: not an arena database (application {meta.get('application')!r}); "
                             "it was left untouched")
        version = int(meta.get("schema_version", "0"))
        if version > migrations.SCHEMA_VERSION:
            raise StoreError(f"{path}: written by a newer arena (schema {version}; this arena reads up to "
                             f"{migrations.SCHEMA_VERSION}); upgrade arena to use it. It was left untouched")
        return version
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: the database is corrupt or unreadable ({exc}); it was left untouched") from None
    finally:
        conn.close()


def _uri(path: Path, **query: str) -> str:
    """The ``file:`` URI of ``path`` with ``query`` (a name with ``?``, ``#`` or ``%`` in it stays one path)."""
    return f"file:{urllib.parse.quote(str(path.absolute()))}?{urllib.parse.urlencode(query)}"


def _unreadable_here(exc: sqlite3.OperationalError) -> bool:
    """SQLite could not set up reading because it may not create or write a file beside the database."""
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN"))


def _reading(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` once it has read the schema (SQLite reads the file only then), else closed and the error raised."""
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that can only read ``path``, in a read-only directory or file too.

    A database last written in WAL mode needs its ``-shm`` file to be read; where that cannot be created
    (a read-only directory) and no write-ahead log holds changes, the file alone is the whole database and
    is opened as immutable. A log with changes but no ``-shm`` cannot be read without writing: refused.
    """
    try:
        return _reading(sqlite3.connect(_uri(path, mode="ro"), uri=True))
    except sqlite3.OperationalError as exc:
        if not _unreadable_here(exc):
            raise StoreError(f"{path}: cannot open database ({exc}); it was left untouched") from None
        problem = exc
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise StoreError(f"{path}: cannot be read here: its write-ahead log {wal.name} holds changes and "
                         f"{path.name}-shm cannot be created ({problem}); open it once where it can be written")
    try:
        return _reading(sqlite3.connect(_uri(path, mode="ro", immutable="1"), uri=True))
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open database ({exc}); it was left untouched") from None


def read_only_reason(path: Path) -> str | None:
    """Why this process cannot write the database ``path`` (new or existing), or None if it can."""
    directory = path.absolute().parent
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(directory, os.W_OK | os.X_OK):
        # SQLite creates its journal (-wal, -shm) beside the database, and a new database in the directory
        return f"its directory {directory} is read-only"
    return None


def _read_only_error(path: Path, reason: str) -> StoreError:
    return StoreError(f"{path}: {reason}, so this command cannot store anything in it (runs, show, ratings, "
                      "report, replay and export only read it, and work)")


class Store:
    """An open arena database."""

    def __init__(self, path: str | Path | None = None, read_only: bool = False):
        """Open (or create) the database ``path`` [default: :func:`default_db_path`].

        ``read_only`` opens it only to read: nothing is written, not even a missing file (which reads as an
        empty database), and it works in a read-only directory or file. A database of an older schema is
        still migrated first, which needs write access.
        """
        self.path = Path(path) if path is not None else default_db_path()
        self.read_only = read_only
        self._seats_json: dict[tuple[tuple[Any, ...], ...], str] = {}
        """The JSON of each seating stored (games of a run repeat a few seatings)."""
        if self.path.is_dir():
            raise StoreError(f"{self.path}: is a directory, not a database file")
        self._checked = not (self.path.exists() and self.path.stat().st_size > 0)  # a new file needs no check
        version = migrations.SCHEMA_VERSION if self._checked else _check_existing(self.path)
        if read_only and version == migrations.SCHEMA_VERSION:
            self._open_read_only()
            return
        reason = read_only_reason(self.path)
        if reason is not None:
            if read_only:
                raise StoreError(f"{self.path}: written by an older arena (schema {version}) and must be upgraded "
                                 f"before it is read, but {reason}; it was left untouched")
            raise _read_only_error(self.path, reason)
        try:
            self.conn = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open database ({exc})") from None
        self.conn.execute("PRAGMA busy_timeout = 60000")
        # Switching to WAL needs a moment alone with the file, and SQLite doesn't wait for it by itself.
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if "readonly" in str(exc):
                    raise _read_only_error(self.path, "the file or its directory is read-only") from None
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise StoreError(f"{self.path}: cannot open database ({exc})") from None
                time.sleep(0.05)
        self.conn.execute("PRAGMA synchronous = NORMAL")
        self.conn.execute("PRAGMA foreign_keys = ON")
        self._migrate()

    def _open_read_only(self) -> None:
        if self._checked:  # no database yet: an empty one in memory reads the same, and nothing is created
            self.conn = sqlite3.connect(":memory:", isolation_level=None)
            self._migrate()
        elif read_only_reason(self.path) is None:
            # Where it may, SQLite removes its -wal and -shm files when the last connection closes; a
            # read-only connection would leave them behind.
            self.conn = sqlite3.connect(_uri(self.path, mode="rw"), uri=True, timeout=60, isolation_level=None)
        else:
            self.conn = connect_read_only(self.path)
            self.conn.isolation_level = None
        self.conn.execute("PRAGMA busy_timeout = 60000")
        self.conn.execute("PRAGMA query_only = ON")

    def _migrate(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            has_meta = self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
            others = self.conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
            if not has_meta and others:
                raise StoreError(f"{self.path}: not an arena database (an SQLite file without arena's tables); "
                                 "it was left untouched")
            version = 0
            if has_meta:
                row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                version = int(row[0]) if row else 0
            if version < migrations.SCHEMA_VERSION:
                self.check_before_writing()
            migrations.migrate(self.conn, version)
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:  # a Ctrl-C can land just after COMMIT: then there is nothing to undo
                self.conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def check_before_writing(self) -> None:
        """Refuse to write to a corrupt database: the whole file is checked once, before the first write."""
        if self._checked:
            return
        try:
            problem = _integrity_problem(self.conn)
        except sqlite3.DatabaseError as exc:
            problem = str(exc)
        if problem is not None:
            raise StoreError(f"{self.path}: the database is corrupt ({problem}); it was left untouched")
        self._checked = True

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Hold the write lock for the writes inside: they are committed together, or not at all."""
        if self.conn.in_transaction:  # already inside one: it commits them
            yield
            return
        if self.read_only:
            raise StoreError(f"{self.path}: opened only to read; nothing was written")
        self.check_before_writing()
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:  # a Ctrl-C can land just after COMMIT: then there is nothing to undo
                self.conn.execute("ROLLBACK")
            raise

    # --- bots ---------------------------------------------------------------------------------------

    def bot_id(self, label: str, name: str, version: str, source: str) -> int:
        """The id of this bot version, added (linked to the label's previous version) if new."""
        row = self.conn.execute("SELECT id FROM bots WHERE label = ? AND version = ?", (label, version)).fetchone()
        if row:
            return int(row[0])
        with self.transaction():
            row = self.conn.execute("SELECT id FROM bots WHERE label = ? AND version = ?", (label, version)).fetchone()
            if row:
                return int(row[0])
            previous = self.conn.execute("SELECT max(id) FROM bots WHERE label = ?", (label,)).fetchone()[0]
            cursor = self.conn.execute(
                "INSERT INTO bots (label, name, version, source, previous_id, first_seen) VALUES (?, ?, ?, ?, ?, ?)",
                (label, name, version, source, previous, now()))
            return int(cursor.lastrowid or 0)

    def bot_rows(self) -> list[dict[str, Any]]:
        """Every stored bot version."""
        cursor = self.conn.execute("SELECT id, label, name, version, source, previous_id, first_seen FROM bots")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def has_source(self, name: str, version: str) -> bool:
        """Whether the source of version ``version`` of bot ``name`` is kept."""
        return self.conn.execute("SELECT 1 FROM bot_sources WHERE name = ? AND version = ?",
                                 (name, version)).fetchone() is not None

    def keep_source(self, name: str, version: str, kind: str, files: Sequence[tuple[str, int, bytes]]) -> None:
        """Keep the source of a bot version, ``files`` as ``(path, mode, contents)``, unless it is kept already."""
        with self.transaction():
            if self.has_source(name, version):
                return
            self.conn.execute("INSERT INTO bot_sources (name, version, kind, first_seen) VALUES (?, ?, ?, ?)",
                              (name, version, kind, now()))
            self.conn.executemany(
                "INSERT INTO bot_source_files (name, version, path, mode, data) VALUES (?, ?, ?, ?, ?)",
                [(name, version, path, mode, data) for path, mode, data in files])

    def source_versions(self, name: str) -> list[tuple[str, str]]:
        """``(version, kind)`` of every kept source of bot ``name``, oldest first."""
        return self.conn.execute("SELECT version, kind FROM bot_sources WHERE name = ? ORDER BY first_seen, version",
                                 (name,)).fetchall()

    def source_files(self, name: str, version: str) -> list[tuple[str, int, bytes]]:
        """The kept files of a bot version: ``(path, mode, contents)`` by path."""
        return [(path, mode, bytes(data)) for path, mode, data in self.conn.execute(
            "SELECT path, mode, data FROM bot_source_files WHERE name = ? AND version = ? ORDER BY path",
            (name, version))]

    # --- runs ---------------------------------------------------------------------------------------

    def create_run(self, name: str, game: str, fmt: str, definition: dict[str, Any], fingerprint: str,
                   scheduled: int) -> int:
        """Start a run; returns its id."""
        self.check_before_writing()
        cursor = self.conn.execute(
            "INSERT INTO runs (name, game, format, definition, fingerprint, scheduled, status, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 'running', ?)",
            (name, game, fmt, json.dumps(definition), fingerprint, scheduled, now()))
        return int(cursor.lastrowid or 0)

    def discard_unplayed_run(self, run_id: int) -> bool:
        """Delete run ``run_id`` if it has no game stored (it could not start); returns whether it did."""
        self.check_before_writing()
        cursor = self.conn.execute(
            "DELETE FROM runs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM games WHERE run_id = ?)", (run_id, run_id))
        return cursor.rowcount > 0

    def set_run_status(self, run_id: int, status: str, scheduled: int | None = None) -> None:
        """Mark a run running, interrupted or complete."""
        finished = now() if status == "complete" else None
        self.check_before_writing()
        if scheduled is None:
            self.conn.execute("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", (status, finished, run_id))
        else:
            self.conn.execute("UPDATE runs SET status = ?, finished_at = ?, scheduled = ? WHERE id = ?",
                              (status, finished, scheduled, run_id))

    def _run_rows(self, where: str = "", params: Sequence[Any] = ()) -> list[RunRow]:
        cursor = self.conn.execute(
            "SELECT r.id, r.name, r.game, r.format, r.definition, r.fingerprint, r.scheduled, r.status, "
            "r.created_at, r.finished_at, r.played "
            f"FROM runs r {where} ORDER BY r.id", params)
        return [RunRow(row[0], row[1], row[2], row[3], json.loads(row[4]), *row[5:]) for row in cursor.fetchall()]

    def runs(self) -> list[RunRow]:
        """Every run, oldest first."""
        return self._run_rows()

    def game_runs(self, game: str | None = None) -> list[tuple[int, str, str]]:
        """``(run id, game, status)`` of every run (of ``game``), oldest first, without counting their games."""
        where, params = ("WHERE game = ?", (game,)) if game else ("", ())
        return self.conn.execute(f"SELECT id, game, status FROM runs {where} ORDER BY id", params).fetchall()

    def run(self, run_id: int) -> RunRow:
        """One run, or an error naming the runs there are."""
        rows = self._run_rows("WHERE r.id = ?", (run_id,))
        if not rows:
            known = [str(r.id) for r in self.runs()]
            listing = f"; runs in {self.path}: {', '.join(known[-10:])}" if known else f"; {self.path} has no runs"
            raise StoreError(f"no run {run_id}{listing}")
        return rows[0]

    def run_leaders(self) -> dict[int, tuple[int, str, str | None]]:
        """Per run: how many bots played, and the label and role of the one rated best (mu - 3 sigma) at its end."""
        rows = self.conn.execute("""
            WITH ranked AS (
                SELECT run_id, bot_id, role,
                       ROW_NUMBER() OVER (PARTITION BY run_id ORDER BY mu - 3 * sigma DESC, bot_id) AS place
                FROM run_ratings),
            counted AS (SELECT run_id, COUNT(DISTINCT bot_id) AS bots FROM run_ratings GROUP BY run_id)
            SELECT ranked.run_id, counted.bots, bots.label, ranked.role
            FROM ranked JOIN bots ON bots.id = ranked.bot_id JOIN counted ON counted.run_id = ranked.run_id
            WHERE place = 1""").fetchall()
        return {run_id: (count, label, role or None) for run_id, count, label, role in rows}

    def latest_run(self) -> RunRow:
        """The newest run, or an error saying the database has none."""
        rows = self._run_rows()
        if not rows:
            raise StoreError(f"{self.path} has no runs yet: run a tournament first")
        return rows[-1]

    def count_runs_with(self, fingerprint: str) -> int:
        """How many runs have this definition."""
        return int(self.conn.execute("SELECT count(*) FROM runs WHERE fingerprint = ?", (fingerprint,)).fetchone()[0])

    def latest_run_with(self, fingerprint: str) -> RunRow | None:
        """The newest run of the same definition, if any."""
        rows = self._run_rows("WHERE r.fingerprint = ?", (fingerprint,))
        return rows[-1] if rows else None

    # --- games --------------------------------------------------------------------------------------

    def add_game(self, run_id: int, idx: int, seats: Sequence[dict[str, Any]], ranks: Sequence[int], reason: str,
                 failures: dict[int, str], think_time: Sequence[float], duration: float, turns: int,
                 record: dict[str, Any], known: PlayedGame | None = None) -> None:
        """Store one finished game, committed at once unless inside :meth:`transaction` (a second copy of the
        same game is ignored), and add it to the run's summaries in the same transaction. The record is
        stored compressed; it reads back as the same dict. ``known``: what standings count of it, if the
        caller has it already."""
        self.add_games(run_id, [NewGameRow(idx, seats, ranks, reason, failures, think_time, duration, turns, record,
                                           known)])

    def add_games(self, run_id: int, games: Iterable[NewGameRow]) -> None:
        """Store finished games of run ``run_id`` in one transaction, as :meth:`add_game` stores one."""
        games = list(games)
        finished_at = now()  # committed together, so finished together
        rows = [(run_id, game.idx, game.record["game"], (game.record.get("map") or {}).get("name"),
                 game.record["seed"], self._seating_json(game.seats), _ints_json(game.ranks), game.reason,
                 _failures_json(game.failures), _floats_json(game.think_time), game.duration, game.turns,
                 encode_record(game.record), finished_at) for game in games]
        with self.transaction():
            self.conn.execute("SAVEPOINT add_games")
            if self.conn.executemany(_INSERT_GAME, rows).rowcount == len(rows):
                added = games
            else:  # a second copy of a game stored already: undo, then store one at a time to skip it
                self.conn.execute("ROLLBACK TO add_games")
                added = [game for game, row in zip(games, rows, strict=True)
                         if self.conn.execute(_INSERT_GAME, row).rowcount == 1]
            self.conn.execute("RELEASE add_games")
            summaries.add_games(self.conn, run_id, [summaries.new_game(game.idx, game.played(), game.record)
                                                    for game in added])

    def _seating_json(self, seats: Sequence[dict[str, Any]]) -> str:
        """``seats`` as compact JSON, each seating encoded once."""
        try:
            # with the values' types: 1, 1.0 and True are equal keys but three texts
            key = tuple((*seat.items(), *map(type, seat.values())) for seat in seats)
            text = self._seats_json.get(key)
        except TypeError:  # a value that cannot be a key: encode it each time
            return _compact_json(seats)
        if text is None:
            if len(self._seats_json) >= _SEATINGS_KEPT:
                self._seats_json.clear()
            text = self._seats_json[key] = _compact_json(seats)
        return text

    def results(self, run_id: int) -> list[GameResult]:
        """The results of a run's stored games in schedule order, without their records (for rating)."""
        results = []
        seatings: dict[str, tuple[tuple[tuple[int, str | None], ...], tuple[str, ...]]] = {}
        outcomes: dict[str, tuple[int, ...]] = {}
        for idx, seats, ranks in self.conn.execute(
                "SELECT idx, seats, ranks FROM games WHERE run_id = ? ORDER BY idx", (run_id,)):
            seating = seatings.get(seats)  # a run repeats a few seatings and outcomes: each is decoded once
            if seating is None:
                seat_list = json.loads(seats)
                seating = seatings[seats] = (tuple((s["bot_id"], s.get("role")) for s in seat_list),
                                             tuple(s["label"] for s in seat_list))
            outcome = outcomes.get(ranks)
            if outcome is None:
                outcome = outcomes[ranks] = tuple(json.loads(ranks))
            results.append(GameResult(idx, *seating, outcome))
        return results

    def played_indices(self, run_id: int) -> set[int]:
        """Schedule indices of the run's stored games."""
        return {row[0] for row in self.conn.execute("SELECT idx FROM games WHERE run_id = ?", (run_id,))}

    def played_indices_from(self, run_id: int, start: int, limit: int) -> list[int]:
        """Up to ``limit`` schedule indices of the run's stored games from ``start`` on, in order (a page of them:
        a run's stored games are walked without holding all their indices)."""
        return [row[0] for row in self.conn.execute(
            "SELECT idx FROM games WHERE run_id = ? AND idx >= ? ORDER BY idx LIMIT ?", (run_id, start, limit))]

    def count_games_between(self, run_id: int, start: int, stop: int) -> int:
        """How many of the run's games with ``start <= index < stop`` are stored."""
        return int(self.conn.execute("SELECT COUNT(*) FROM games WHERE run_id = ? AND idx >= ? AND idx < ?",
                                     (run_id, start, stop)).fetchone()[0])

    def games_between(self, run_id: int, start: int, stop: int) -> Iterator[GameRow]:
        """The run's stored games with ``start <= index < stop``, in schedule order."""
        yield from self._game_rows("WHERE run_id = ? AND idx >= ? AND idx < ?", [run_id, start, stop])

    def game(self, run_id: int, idx: int) -> GameRow:
        """Game ``idx`` of run ``run_id``, or an error naming the games the run has."""
        self.run(run_id)
        rows = list(self._game_rows("WHERE run_id = ? AND idx = ?", [run_id, idx]))
        if not rows:
            low, high, count = self.conn.execute(
                "SELECT MIN(idx), MAX(idx), COUNT(*) FROM games WHERE run_id = ?", (run_id,)).fetchone()
            listing = f"games {low}-{high} are stored" if count else "it has no games stored"
            raise StoreError(f"no game {idx} in run {run_id} ({listing})")
        return rows[0]

    def games(self, run_id: int | None = None, game: str | None = None) -> Iterator[GameRow]:
        """Stored games, by run and schedule order."""
        clauses: list[str] = []
        params: list[int | str] = []
        if run_id is not None:
            clauses.append("run_id = ?")
            params.append(run_id)
        if game is not None:
            clauses.append("game = ?")
            params.append(game)
        yield from self._game_rows(f"WHERE {' AND '.join(clauses)}" if clauses else "", params)

    def failed_games(self, run_id: int) -> Iterator[GameRow]:
        """The games of a run in which some bot failed, in schedule order."""
        yield from self._game_rows("WHERE run_id = ? AND failures != '{}'", [run_id])

    def _game_rows(self, where: str, params: Sequence[Any]) -> Iterator[GameRow]:
        cursor = self.conn.execute(
            f"SELECT run_id, idx, seats, ranks, reason, failures, think_time, map, record FROM games {where} "
            "ORDER BY run_id, idx", params)
        for run, idx, seats, ranks, reason, failures, think, map_name, record in cursor:
            seat_list = json.loads(seats)
            yield GameRow(run, idx, tuple(s["label"] for s in seat_list), tuple(s["bot_id"] for s in seat_list),
                          tuple(s.get("role") for s in seat_list), tuple(json.loads(ranks)), reason,
                          {int(k): v for k, v in json.loads(failures).items()}, tuple(json.loads(think)), map_name,
                          record)

    # --- ratings ------------------------------------------------------------------------------------

    def replace_snapshots(self, run_id: int, snapshots: Iterable[SnapshotRow]) -> None:
        """Store the run's rating after every game: ``(game_idx, bot_id, role, mu, sigma)``."""
        with self.transaction():
            self.conn.execute("DELETE FROM rating_snapshots WHERE run_id = ?", (run_id,))
            self.conn.executemany(
                "INSERT INTO rating_snapshots (run_id, game_idx, bot_id, role, mu, sigma) VALUES (?, ?, ?, ?, ?, ?)",
                [(run_id, idx, bot, role or "", mu, sigma) for idx, bot, role, mu, sigma in snapshots])

    def snapshots(self, run_id: int) -> list[SnapshotRow]:
        """The stored rating snapshots of a run."""
        return [SnapshotRow(idx, bot, role or None, mu, sigma) for idx, bot, role, mu, sigma in self.conn.execute(
            "SELECT game_idx, bot_id, role, mu, sigma FROM rating_snapshots WHERE run_id = ? "
            "ORDER BY game_idx, bot_id, role", (run_id,))]

    def replace_run_ratings(self, run_id: int, rows: Iterable[RatingRow]) -> None:
        """Store every bot's rating at the end of the run, rated on the run's games alone:
        ``(bot_id, role, mu, sigma, games)``."""
        with self.transaction():
            self.conn.execute("DELETE FROM run_ratings WHERE run_id = ?", (run_id,))
            self.conn.executemany(
                "INSERT INTO run_ratings (run_id, bot_id, role, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?)",
                [(run_id, bot, role or "", mu, sigma, games) for bot, role, mu, sigma, games in rows])

    def run_ratings(self, run_id: int) -> list[RatingRow]:
        """The stored ratings at the end of a run: ``(bot_id, role, mu, sigma, games)``."""
        return [RatingRow(bot, role or None, mu, sigma, games) for bot, role, mu, sigma, games in self.conn.execute(
            "SELECT bot_id, role, mu, sigma, games FROM run_ratings WHERE run_id = ? ORDER BY bot_id, role",
            (run_id,))]

    def replace_leaderboard(self, run_id: int, game: str, rows: Iterable[RatingRow],
                            draws: tuple[int, int] | None = None) -> None:
        """Store every bot's all-time rating after ``run_id``: ``(bot_id, role, mu, sigma, games)``, and the
        ``(tied seat pairs, seat pairs)`` counted over the games it rates, from which the next run goes on."""
        with self.transaction():
            self.conn.execute("DELETE FROM leaderboard WHERE run_id = ?", (run_id,))
            self.conn.execute("DELETE FROM leaderboard_draws WHERE run_id = ?", (run_id,))
            self.conn.executemany(
                "INSERT INTO leaderboard (run_id, game, bot_id, role, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(run_id, game, bot, role or "", mu, sigma, games) for bot, role, mu, sigma, games in rows])
            if draws is not None:
                self.conn.execute("INSERT INTO leaderboard_draws (run_id, game, ties, pairs) VALUES (?, ?, ?, ?)",
                                  (run_id, game, *draws))

    def leaderboard_state(self, game: str, before: int | None = None
                          ) -> tuple[int, tuple[int, int], list[RatingRow]] | None:
        """The newest stored leaderboard of ``game`` that can be continued (it has its draw counts), of a run
        before ``before`` if given: ``(run_id, (ties, pairs), rows)``, or ``None``."""
        where, params = ("AND run_id < ?", (game, before)) if before is not None else ("", (game,))
        row = self.conn.execute(f"SELECT run_id, ties, pairs FROM leaderboard_draws WHERE game = ? {where} "
                                "ORDER BY run_id DESC LIMIT 1", params).fetchone()
        if row is None:
            return None
        run_id, ties, pairs = row
        return run_id, (ties, pairs), self.run_leaderboard(run_id)

    def run_leaderboard(self, run_id: int) -> list[RatingRow]:
        """The stored all-time ratings after one run: ``(bot_id, role, mu, sigma, games)``."""
        return [RatingRow(bot, role or None, mu, sigma, games) for bot, role, mu, sigma, games in self.conn.execute(
            "SELECT bot_id, role, mu, sigma, games FROM leaderboard WHERE run_id = ? ORDER BY bot_id, role",
            (run_id,))]

    def leaderboard_rows(self, game: str | None = None) -> list[LeaderboardRow]:
        """Every stored all-time rating: ``(run_id, game, bot_id, role, mu, sigma, games)`` by run."""
        where, params = ("WHERE game = ?", (game,)) if game else ("", ())
        return [LeaderboardRow(run, g, bot, role or None, mu, sigma, games)
                for run, g, bot, role, mu, sigma, games in
                self.conn.execute("SELECT run_id, game, bot_id, role, mu, sigma, games FROM leaderboard "
                                  f"{where} ORDER BY run_id, bot_id, role", params)]

    def latest_leaderboard_rows(self, game: str | None = None
                                ) -> list[LeaderboardRow]:
        """The newest stored all-time ratings of each game (or of ``game``), as :meth:`leaderboard_rows`."""
        games = [game] if game else [row[0] for row in self.conn.execute("SELECT DISTINCT game FROM runs")]
        rows = []
        for name in sorted(games):
            latest = self.conn.execute("SELECT max(run_id) FROM leaderboard WHERE game = ?", (name,)).fetchone()[0]
            if latest is not None:
                rows += [LeaderboardRow(latest, name, bot, role or None, mu, sigma, games)
                         for bot, role, mu, sigma, games in
                         self.conn.execute("SELECT bot_id, role, mu, sigma, games FROM leaderboard WHERE run_id = ? "
                                           "ORDER BY bot_id, role", (latest,))]
        return rows

    def bot_leaderboard_rows(self, bot: str) -> list[LeaderboardRow]:
        """The stored all-time ratings of the versions of bot ``bot`` (a label or a name), as
        :meth:`leaderboard_rows`."""
        return [LeaderboardRow(run, g, bot_id, role or None, mu, sigma, games)
                for run, g, bot_id, role, mu, sigma, games in
                self.conn.execute(
                    "SELECT run_id, game, bot_id, role, mu, sigma, games FROM leaderboard WHERE bot_id IN "
                    "(SELECT id FROM bots WHERE label = ? OR name = ?) ORDER BY run_id, bot_id, role", (bot, bot))]

    # --- ladder -------------------------------------------------------------------------------------

    def ladder(self, game: str) -> dict[tuple[int, str | None], tuple[float, float, int, int]]:
        """The ladder of ``game``: ``(bot_id, role) -> (mu, sigma, games, last_round)``."""
        return {(bot, role or None): (mu, sigma, games, last) for bot, role, mu, sigma, games, last in
                self.conn.execute("SELECT bot_id, role, mu, sigma, games, last_round FROM ladder WHERE game = ?",
                                  (game,))}

    def save_ladder(self, game: str, entries: dict[tuple[int, str | None], tuple[float, float, int, int]]) -> None:
        """Write ladder entries (insert or update)."""
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO ladder (game, bot_id, role, mu, sigma, games, last_round) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(game, bot, role or "", mu, sigma, games, last)
                 for (bot, role), (mu, sigma, games, last) in entries.items()])

    # --- what another table's rows ask of the stored games (the league's queue) ---------------------------
    # A row elsewhere that names a game by ``run_id`` and ``idx`` (the league's queue does) asks its questions
    # here, so the names of this store's tables and columns stay in this module.

    def has_game(self, run_id: int, idx: int) -> bool:
        """Whether game ``idx`` of run ``run_id`` is stored."""
        row = self.conn.execute("SELECT 1 FROM games WHERE run_id = ? AND idx = ?", (run_id, idx)).fetchone()
        return row is not None

    def game_ranks_and_roles(self, run_id: int, idx: int) -> tuple[list[int], list[str | None]] | None:
        """A stored game's ranks and each seat's role, by seat; ``None`` if it is not stored."""
        row = self.conn.execute("SELECT ranks, seats FROM games WHERE run_id = ? AND idx = ?",
                                (run_id, idx)).fetchone()
        if row is None:
            return None
        return json.loads(row[0]), [seat.get("role") for seat in json.loads(row[1])]

    def game_outline(self, run_id: int, idx: int) -> GameOutline | None:
        """What a list of games shows of a stored game (no turns); ``None`` if it is not stored."""
        row = self.conn.execute("SELECT ranks, reason, failures, map, finished_at, seats FROM games "
                                "WHERE run_id = ? AND idx = ?", (run_id, idx)).fetchone()
        if row is None:
            return None
        ranks, reason, failures, map_name, finished, seats = row
        return GameOutline(json.loads(ranks), reason, json.loads(failures), map_name, finished,
                           [seat.get("role") for seat in json.loads(seats)])

    def ranks_by_index(self, run_id: int) -> dict[int, list[int]]:
        """The ranks of every stored game of run ``run_id``, by its index."""
        return {idx: json.loads(ranks) for idx, ranks in
                self.conn.execute("SELECT idx, ranks FROM games WHERE run_id = ?", (run_id,))}

    def raise_scheduled(self, run_id: int, scheduled: int) -> None:
        """Count at least ``scheduled`` games scheduled in run ``run_id`` (a run whose schedule grows)."""
        self.conn.execute("UPDATE runs SET scheduled = max(scheduled, ?) WHERE id = ?", (scheduled, run_id))

    @staticmethod
    def stored_test(alias: str) -> str:
        """An SQL condition true when the game named by the ``run_id`` and ``idx`` columns of table ``alias``
        (in another table's query) is stored. A condition, not a lookup per row, so such a query stays one
        indexed join however many games there are."""
        return f"EXISTS (SELECT 1 FROM games WHERE games.run_id = {alias}.run_id AND games.idx = {alias}.idx)"

    @staticmethod
    def stored_join(alias: str, as_: str) -> str:
        """An SQL join of table ``alias`` (by its ``run_id`` and ``idx`` columns) with its stored games, named
        ``as_``: their ``ranks`` (JSON, by seat) and ``id`` (larger for a game stored later) are the columns
        for other tables' queries."""
        return f"JOIN games {as_} ON {as_}.run_id = {alias}.run_id AND {as_}.idx = {alias}.idx"
