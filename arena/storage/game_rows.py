"""The games, as :class:`~arena.storage.store.Store` stores and reads them.

Every finished game is one row, committed on its own unless inside a transaction, and added to its run's
summaries (:mod:`arena.storage.summaries`) in the same transaction. The game record is stored compressed
(:mod:`arena.storage.codec`); reading a game decodes it only when asked for.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from arena.stats.standings import PlayedGame
from arena.storage import summaries
from arena.storage.codec import decode_record, encode_record, record_json
from arena.storage.connection import StoreError, now
from arena.storage.run_rows import RunRows

_COMPACT = (",", ":")
_COMPACT_ENCODER = json.JSONEncoder(separators=_COMPACT)
"""Built once: ``json.dumps`` with options builds an encoder on every call, four times a stored game."""


def _compact_json(value: Any) -> str:
    return _COMPACT_ENCODER.encode(value)

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



class GameRows(RunRows):
    """The games of a :class:`~arena.storage.store.Store` (a game belongs to a run)."""

    _seats_json: dict[tuple[tuple[Any, ...], ...], str] | None = None
    """The JSON of each seating stored (games of a run repeat a few seatings): made on the first game."""

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
        kept = self._seats_json
        if kept is None:
            kept = self._seats_json = {}
        try:
            # with the values' types: 1, 1.0 and True are equal keys but three texts
            key = tuple((*seat.items(), *map(type, seat.values())) for seat in seats)
            text = kept.get(key)
        except TypeError:  # a value that cannot be a key: encode it each time
            return _compact_json(seats)
        if text is None:
            if len(kept) >= _SEATINGS_KEPT:
                kept.clear()
            text = kept[key] = _compact_json(seats)
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

    def finish_times(self, run_id: int) -> dict[int, str]:
        """When each of the run's stored games finished (ISO 8601, UTC), by game index."""
        return dict(self.conn.execute("SELECT idx, finished_at FROM games WHERE run_id = ?", (run_id,)).fetchall())

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
