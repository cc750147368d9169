"""What another table's rows ask of the stored games, as :class:`~arena.storage.store.Store` answers it.

A row elsewhere that names a game by ``run_id`` and ``idx`` (the league's queue does) asks its questions
here, so the names of the store's tables and columns stay in :mod:`arena.storage`.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from arena.storage.connection import StoreConnection


class GameOutline(NamedTuple):
    """A stored game as a list of games shows it: no turns, no record."""

    ranks: list[int]
    reason: str
    failures: dict[str, str]
    map: str | None
    finished_at: str
    roles: list[str | None]



class GameLookups(StoreConnection):
    """Questions about single stored games and SQL fragments for other tables' queries, of a
    :class:`~arena.storage.store.Store`."""

    def newest_game_id(self) -> int | None:
        """The id of the game stored last (ids only grow), ``None`` if none is stored."""
        row = self.conn.execute("SELECT max(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

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
