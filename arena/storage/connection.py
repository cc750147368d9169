"""The connection under :class:`~arena.storage.store.Store`: opening a database file, and its transactions.

An existing file is checked through SQLite before anything is written to it (one that is not an arena
database, is corrupt or was written by a newer arena is refused), then opened in WAL mode, waiting for a
busy file, and migrated forward if older (:mod:`arena.storage.migrations`). A store opened only to read
works in a read-only directory or file too (:func:`connect_read_only`).
"""

from __future__ import annotations

import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

from arena.core.errors import ArenaError
from arena.storage import migrations

DB_VARIABLE = "ARENA_DB"
DEFAULT_DB = "arena.db"
LOCK_WAIT_SECONDS = 60


class StoreError(ArenaError):
    """A database file that cannot be used; it was not modified."""


def now() -> str:
    """The current UTC time as ISO text."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def default_db_path() -> Path:
    """``$ARENA_DB`` if set, else ``./arena.db``."""
    return Path(os.environ.get(DB_VARIABLE) or DEFAULT_DB)



_GROWING_TABLES = {"games", "rating_snapshots", "summary_history"}
"""Tables that grow with every stored game: checked before this process first writes, not when it opens."""


def register_growing_tables(*names: str) -> None:
    """Add tables of a package built on the store (the league's queue and histories) to those that grow with
    every stored game, so opening a database does not check them (at a million games, seconds an opening)."""
    _GROWING_TABLES.update(names)


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
    make opening a database take longer the more games it holds);
    :meth:`StoreConnection.check_before_writing` checks the whole file before the first write.
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


class StoreConnection:
    """An open arena database: its connection, its checks before writing, and its transactions. The
    methods that read and write its tables are in the classes :class:`~arena.storage.store.Store` is made of."""

    def __init__(self, path: str | Path | None = None, read_only: bool = False):
        """Open (or create) the database ``path`` [default: :func:`default_db_path`].

        ``read_only`` opens it only to read: nothing is written, not even a missing file (which reads as an
        empty database), and it works in a read-only directory or file. A database of an older schema is
        still migrated first, which needs write access.
        """
        self.path = Path(path) if path is not None else default_db_path()
        self.read_only = read_only
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

    def _current(self) -> bool:
        """Whether the database is an arena database of this arena's schema, read without a lock."""
        try:
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except sqlite3.OperationalError:  # no meta table: empty, or not an arena database
            return False
        return row is not None and row[0] == str(migrations.SCHEMA_VERSION)

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
        if self._current():  # nothing to do: no write lock taken (a reader opening beside a busy writer waits not)
            return
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

    def holds(self, path: Path) -> bool:
        """Whether ``path`` is this database's file or one SQLite keeps beside it (its journals): a file this
        process must neither open nor replace, as closing any handle of its own on it drops SQLite's locks."""
        for name in (self.path, *(Path(f"{self.path}{suffix}") for suffix in ("-wal", "-shm", "-journal"))):
            try:
                if os.path.samefile(path, name):
                    return True
            except OSError:  # one of them does not exist
                if path.absolute() == name.absolute():
                    return True
        return False

    def __enter__(self) -> Self:
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
