"""The bots and their kept sources, as :class:`~arena.storage.store.Store` stores and reads them.

Each version of a bot has a row (linked to the previous version of its label); the files of a version are
kept once (:mod:`arena.storage.sources` decides which and resolves ``name@version`` specs to them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.storage.connection import StoreConnection, now


class BotRows(StoreConnection):
    """The bot versions and their kept sources of a :class:`~arena.storage.store.Store`."""

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
