"""The runs, as :class:`~arena.storage.store.Store` stores and reads them: one row per tournament run, with
its definition, its status and how many of its games are scheduled and played.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.storage.connection import StoreConnection, StoreError, now


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



class RunRows(StoreConnection):
    """The runs of a :class:`~arena.storage.store.Store`."""

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
