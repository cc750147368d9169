"""Summaries kept beside the stored games, so that reading a run's results costs the same at a million games as
at ten: its standings (each bot's results, failures, thinking time and rating), every meeting of two bots,
the results per map and per seat, each bot's first failure, and its rating over the run.

They are added to in the transaction that stores each game (:meth:`arena.storage.store.Store.add_game`), so a
killed process loses none and counts none twice; they hold what :class:`arena.stats.standings.StandingsTally`
counts, added by the same :func:`arena.stats.standings.game_counts`.

Ratings, two of them:

- live: each game rated as it is stored, in the order stored, with the run's smoothed draw rate over the
  games stored so far: what a run being played (a league, which never ends) shows;
- final: the run's games rated in schedule order with the run's draw rate over all of them, as a finished run
  has always been rated (so the same seed gives the same ratings with any number of workers): stored when the
  run is finished (:func:`store_final`) and shown while they cover every stored game.

Each rating's history keeps at most :data:`HISTORY_POINTS` points a bot: its rating after every ``step``-th of
its games, ``step`` the smallest power of two that keeps it so (the points are thinned as games come).

Everything here can be rebuilt from the stored games (:func:`rebuild`): the migration that added the
summaries does it for every run, and ``arena ratings --recompute`` does it again, comparing.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from arena.stats.ratings import MU, SIGMA, Rating, rate, rate_game
from arena.stats.standings import BotStanding, Key, PlayedGame, StandingsTally
from arena.storage.codec import decode_record

HISTORY_POINTS = 256
"""At most this many points of each bot's rating history are kept per run (and per kind of rating)."""
MICROSECONDS = 1_000_000
BATCH = 2000
"""Games read at once while rebuilding."""

TABLES = ("summary_runs", "summary_standings", "summary_failures", "summary_first_failures", "summary_meetings",
          "summary_maps", "summary_seats", "summary_history")

SCHEMA = """
    CREATE TABLE summary_runs (
        run_id INTEGER PRIMARY KEY REFERENCES runs (id),
        games INTEGER NOT NULL,
        ties INTEGER NOT NULL,
        pairs INTEGER NOT NULL,
        final_games INTEGER
    );
    CREATE TABLE summary_standings (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        label TEXT NOT NULL,
        role TEXT NOT NULL,
        seat INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        think_us INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        step INTEGER NOT NULL,
        final_mu REAL,
        final_sigma REAL,
        PRIMARY KEY (run_id, label, role)
    ) WITHOUT ROWID;
    CREATE TABLE summary_failures (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        label TEXT NOT NULL,
        role TEXT NOT NULL,
        kind TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (run_id, label, role, kind)
    ) WITHOUT ROWID;
    CREATE TABLE summary_first_failures (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        label TEXT NOT NULL,
        kind TEXT NOT NULL,
        count INTEGER NOT NULL,
        game INTEGER NOT NULL,
        detail TEXT NOT NULL,
        traceback TEXT NOT NULL,
        PRIMARY KEY (run_id, label, kind)
    ) WITHOUT ROWID;
    CREATE TABLE summary_meetings (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        label TEXT NOT NULL,
        role TEXT NOT NULL,
        other TEXT NOT NULL,
        other_role TEXT NOT NULL,
        first INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        PRIMARY KEY (run_id, label, role, other, other_role, first)
    ) WITHOUT ROWID;
    CREATE TABLE summary_maps (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        map TEXT NOT NULL,
        label TEXT NOT NULL,
        role TEXT NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        PRIMARY KEY (run_id, map, label, role)
    ) WITHOUT ROWID;
    CREATE TABLE summary_seats (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        seat INTEGER NOT NULL,
        others INTEGER NOT NULL,
        half_points INTEGER NOT NULL,
        games INTEGER NOT NULL,
        better INTEGER NOT NULL,
        worse INTEGER NOT NULL,
        PRIMARY KEY (run_id, seat, others)
    ) WITHOUT ROWID;
    CREATE TABLE summary_history (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        label TEXT NOT NULL,
        role TEXT NOT NULL,
        final INTEGER NOT NULL,
        games INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (run_id, label, role, final, games)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS games_failed ON games (run_id, idx) WHERE failures != '{}'
"""
"""The summary tables (schema version 4). A role is stored as ``''`` in games without roles."""


@dataclass(frozen=True)
class NewGame:
    """A game just stored, as the summaries need it: its schedule index, its results, and the failures of its
    record (``[{"seat", "kind", "detail", "traceback"}]``) with the bots' labels by seat."""

    idx: int
    played: PlayedGame
    failures: list[dict[str, Any]] = field(default_factory=list)
    labels: dict[int, str] = field(default_factory=dict)


def new_game(idx: int, played: PlayedGame, record: Mapping[str, Any] | None) -> NewGame:
    """The :class:`NewGame` of a game with its record (only read when a bot failed)."""
    if record is None or not record.get("failures"):
        return NewGame(idx, played)
    labels = {int(p.get("seat", i)): str(p.get("bot", "?")) for i, p in enumerate(record.get("players", []))}
    return NewGame(idx, played, list(record["failures"]), labels)


@dataclass
class _Bot:
    """One summary_standings row while games are added."""

    seat: int
    games: int = 0
    results: list[int] = field(default_factory=lambda: [0, 0, 0])
    think_us: int = 0
    mu: float = MU
    sigma: float = SIGMA
    step: int = 1
    final: tuple[float | None, float | None] = (None, None)


def _role(role: str | None) -> str:
    return role or ""


def _key(label: str, role: str) -> Key:
    return label, role or None


def thinned_step(games: int) -> int:
    """The step of a history of ``games`` points: the smallest power of two that keeps at most
    :data:`HISTORY_POINTS` of them (every ``step``-th)."""
    step = 1
    while games // step > HISTORY_POINTS:
        step *= 2
    return step


def add_games(conn: sqlite3.Connection, run_id: int, games: Sequence[NewGame]) -> None:
    """Add games just stored to run ``run_id``'s summaries, in the order given; call it in the transaction that
    stored them, and only with games that were new."""
    if not games:
        return
    row = conn.execute("SELECT games, ties, pairs, final_games FROM summary_runs WHERE run_id = ?",
                       (run_id,)).fetchone()
    count, ties, pairs, final_games = row if row else (0, 0, 0, None)
    if final_games is not None:  # no longer final: the run goes on (resumed, or a ladder's next round)
        _clear_final(conn, run_id)
    bots = {_key(label, role): _Bot(seat, games_, [w, d, l_], think, mu, sigma, step, (fmu, fsigma))
            for label, role, seat, games_, w, d, l_, think, mu, sigma, step, fmu, fsigma in conn.execute(
                "SELECT label, role, seat, games, wins, draws, losses, think_us, mu, sigma, step, final_mu, "
                "final_sigma FROM summary_standings WHERE run_id = ?", (run_id,))}
    failures: Counter[tuple[Key, str]] = Counter()
    firsts: dict[tuple[str, str], list[Any]] = {}  # (label, kind) -> [count, game, detail, traceback]
    meetings: dict[tuple[Key, Key, bool], list[int]] = {}
    maps: dict[tuple[str, Key], list[int]] = {}
    seats: dict[tuple[int, int], list[int]] = {}
    points: dict[Key, list[tuple[int, float, float]]] = {}
    thinned: set[Key] = set()
    touched: set[Key] = set()
    for game in games:
        counts = game.played.counts
        count, ties, pairs = count + 1, ties + counts.ties, pairs + counts.pairs
        seated = []
        for seat, (key, outcome, failure, think) in enumerate(counts.players):
            bot = bots.get(key)
            if bot is None:
                bot = bots[key] = _Bot(seat)
            bot.seat = min(bot.seat, seat)
            bot.games += 1
            bot.results[outcome] += 1
            bot.think_us += round(think * MICROSECONDS)
            if failure is not None:
                failures[(key, failure)] += 1
            maps.setdefault((counts.map, key), [0, 0, 0])[outcome] += 1
            seated.append(bot)
            touched.add(key)
        before = [(bot.mu, bot.sigma) for bot in seated]
        after = rate_game((ties + 1) / (pairs + 2), before, game.played.ranks) if len(before) > 1 else before
        for (key, *_), bot, (mu, sigma) in zip(counts.players, seated, after, strict=True):
            bot.mu, bot.sigma = mu, sigma
            if bot.games % bot.step == 0:
                points.setdefault(key, []).append((bot.games, mu, sigma))
                if bot.games // bot.step > HISTORY_POINTS:
                    bot.step *= 2
                    points[key] = [point for point in points[key] if point[0] % bot.step == 0]
                    thinned.add(key)
        for key, other, first, against in counts.meetings:
            meetings.setdefault((key, other, first), [0, 0, 0])[against] += 1
        for seat, others, half in counts.seat_points:
            tally = seats.setdefault((seat, others), [0, 0, 0, 0])
            tally[0] += half
            tally[1] += 1
            tally[2] += half > others
            tally[3] += half < others
        for fault in game.failures:
            seat = int(fault["seat"])
            entry = firsts.setdefault((game.labels.get(seat, f"seat {seat}"), fault.get("kind", "crash")),
                                      [0, game.idx, fault.get("detail", ""), fault.get("traceback", "")])
            entry[0] += 1
            if game.idx < entry[1]:
                entry[1:] = [game.idx, fault.get("detail", ""), fault.get("traceback", "")]
    conn.execute("INSERT INTO summary_runs (run_id, games, ties, pairs) VALUES (?, ?, ?, ?) ON CONFLICT (run_id) "
                 "DO UPDATE SET games = excluded.games, ties = excluded.ties, pairs = excluded.pairs",
                 (run_id, count, ties, pairs))
    conn.executemany(
        "INSERT OR REPLACE INTO summary_standings (run_id, label, role, seat, games, wins, draws, losses, think_us, "
        "mu, sigma, step, final_mu, final_sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(run_id, key[0], _role(key[1]), bot.seat, bot.games, *bot.results, bot.think_us, bot.mu, bot.sigma,
          bot.step, *bot.final) for key, bot in bots.items() if key in touched])
    conn.executemany(
        "INSERT INTO summary_failures (run_id, label, role, kind, count) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT DO UPDATE SET count = count + excluded.count",
        [(run_id, key[0], _role(key[1]), kind, n) for (key, kind), n in failures.items()])
    conn.executemany(
        "INSERT INTO summary_first_failures (run_id, label, kind, count, game, detail, traceback) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count, "
        "game = min(game, excluded.game), "
        "detail = CASE WHEN excluded.game < game THEN excluded.detail ELSE detail END, "
        "traceback = CASE WHEN excluded.game < game THEN excluded.traceback ELSE traceback END",
        [(run_id, label, kind, *entry) for (label, kind), entry in firsts.items()])
    conn.executemany(
        "INSERT INTO summary_meetings (run_id, label, role, other, other_role, first, wins, draws, losses) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET wins = wins + excluded.wins, "
        "draws = draws + excluded.draws, losses = losses + excluded.losses",
        [(run_id, key[0], _role(key[1]), other[0], _role(other[1]), int(first), *counts)
         for (key, other, first), counts in meetings.items()])
    conn.executemany(
        "INSERT INTO summary_maps (run_id, map, label, role, wins, draws, losses) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO UPDATE SET wins = wins + excluded.wins, draws = draws + excluded.draws, "
        "losses = losses + excluded.losses",
        [(run_id, name, key[0], _role(key[1]), *counts) for (name, key), counts in maps.items()])
    conn.executemany(
        "INSERT INTO summary_seats (run_id, seat, others, half_points, games, better, worse) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET half_points = half_points + excluded.half_points, "
        "games = games + excluded.games, better = better + excluded.better, worse = worse + excluded.worse",
        [(run_id, seat, others, *tally) for (seat, others), tally in seats.items()])
    conn.executemany("DELETE FROM summary_history WHERE run_id = ? AND label = ? AND role = ? AND final = 0 "
                     "AND games % ? != 0",
                     [(run_id, key[0], _role(key[1]), bots[key].step) for key in thinned])
    conn.executemany("INSERT INTO summary_history (run_id, label, role, final, games, mu, sigma) "
                     "VALUES (?, ?, ?, 0, ?, ?, ?)",
                     [(run_id, key[0], _role(key[1]), *point) for key, series in points.items() for point in series])


def store_final(conn: sqlite3.Connection, run_id: int, history: Iterable[tuple[Key, float, float]],
                games: int) -> None:
    """Store the final ratings of run ``run_id``: ``history`` is each player's rating after each of its games,
    the run's ``games`` games rated in schedule order (see the module)."""
    series: dict[Key, list[tuple[float, float]]] = {}
    for key, mu, sigma in history:
        series.setdefault(key, []).append((mu, sigma))
    _clear_final(conn, run_id)
    for key, values in series.items():
        step = thinned_step(len(values))
        conn.executemany("INSERT INTO summary_history (run_id, label, role, final, games, mu, sigma) "
                         "VALUES (?, ?, ?, 1, ?, ?, ?)",
                         [(run_id, key[0], _role(key[1]), number, mu, sigma)
                          for number, (mu, sigma) in enumerate(values, start=1) if number % step == 0])
        conn.execute("UPDATE summary_standings SET final_mu = ?, final_sigma = ? WHERE run_id = ? AND label = ? "
                     "AND role = ?", (*values[-1], run_id, key[0], _role(key[1])))
    conn.execute("UPDATE summary_runs SET final_games = ? WHERE run_id = ?", (games, run_id))


def _clear_final(conn: sqlite3.Connection, run_id: int) -> None:
    conn.execute("DELETE FROM summary_history WHERE run_id = ? AND final = 1", (run_id,))
    conn.execute("UPDATE summary_standings SET final_mu = NULL, final_sigma = NULL WHERE run_id = ?", (run_id,))
    conn.execute("UPDATE summary_runs SET final_games = NULL WHERE run_id = ?", (run_id,))


def final_history(conn: sqlite3.Connection, run_id: int) -> tuple[list[tuple[Key, float, float]], int]:
    """Rate run ``run_id``'s stored games in schedule order by bot label and role: each player's rating after
    each of its games (for :func:`store_final`), and how many games were rated."""
    games = [(tuple((seat["label"], seat.get("role")) for seat in json.loads(seats)), tuple(json.loads(ranks)))
             for seats, ranks in conn.execute("SELECT seats, ranks FROM games WHERE run_id = ? ORDER BY idx",
                                              (run_id,))]
    trail: list[tuple[int, Key, float, float]] = []
    rate(games, trail)
    return [(key, mu, sigma) for _, key, mu, sigma in trail], len(games)


def clear(conn: sqlite3.Connection, run_id: int) -> None:
    """Delete run ``run_id``'s summaries."""
    for table in TABLES:
        conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (run_id,))


def _stored_games(conn: sqlite3.Connection, run_id: int) -> Iterator[list[NewGame]]:
    """The run's stored games in the order they were stored, a batch at a time (records read only for games
    in which a bot failed)."""
    cursor = conn.execute(
        "SELECT idx, seats, ranks, failures, think_time, map, CASE WHEN failures != '{}' THEN record END "
        "FROM games WHERE run_id = ? ORDER BY id", (run_id,))
    while rows := cursor.fetchmany(BATCH):
        batch = []
        for idx, seats, ranks, failed, think, map_name, record in rows:
            seat_list = json.loads(seats)
            played = PlayedGame(tuple((s["label"], s.get("role")) for s in seat_list), tuple(json.loads(ranks)),
                                {int(k): v for k, v in json.loads(failed).items()}, tuple(json.loads(think)),
                                map_name)
            batch.append(new_game(idx, played, None if record is None else decode_record(record)))
        yield batch


def rebuild(conn: sqlite3.Connection, run_id: int) -> None:
    """Rebuild run ``run_id``'s summaries from its stored games (inside the caller's transaction): the games
    added in the order they were stored, and the final ratings if the run is not being played."""
    clear(conn, run_id)
    for batch in _stored_games(conn, run_id):
        add_games(conn, run_id, batch)
    status = conn.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
    if status is not None and status[0] != "running":
        store_final(conn, run_id, *final_history(conn, run_id))


def contents(conn: sqlite3.Connection, run_id: int) -> dict[str, set[tuple[Any, ...]]]:
    """Every summary row of run ``run_id``, by table (to compare a rebuild with what was kept)."""
    return {table: set(conn.execute(f"SELECT * FROM {table} WHERE run_id = ?", (run_id,)).fetchall())
            for table in TABLES}


@dataclass(frozen=True)
class RunSummary:
    """What the summaries hold for one run: the counts (a :class:`StandingsTally`), the ratings shown (final
    when they cover every stored game, else live) and whether they are final."""

    tally: StandingsTally
    ratings: dict[Key, Rating]
    final: bool


@contextmanager
def _one_snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """Read inside one transaction: a game stored meanwhile by another process is in every table or in none."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def read(conn: sqlite3.Connection, run_id: int) -> RunSummary:
    """Run ``run_id``'s summaries (empty for a run without games), all as of one moment."""
    with _one_snapshot(conn):
        return _read(conn, run_id)


def _read(conn: sqlite3.Connection, run_id: int) -> RunSummary:
    tally = StandingsTally()
    row = conn.execute("SELECT games, ties, pairs, final_games FROM summary_runs WHERE run_id = ?",
                       (run_id,)).fetchone()
    if row is None:
        return RunSummary(tally, {}, False)
    tally.games, tally.ties, tally.pairs, final_games = row
    final = final_games == tally.games
    ratings = {}
    for label, role, seat, games, w, d, l_, think, mu, sigma, fmu, fsigma in conn.execute(
            "SELECT label, role, seat, games, wins, draws, losses, think_us, mu, sigma, final_mu, final_sigma "
            "FROM summary_standings WHERE run_id = ?", (run_id,)):
        key = _key(label, role)
        tally.rows[key] = BotStanding(label, key[1], Rating(0.0, 0.0), games, w, d, l_, Counter(),
                                      think / MICROSECONDS)
        tally.seats[key] = seat
        final = final and fmu is not None
        ratings[key] = (Rating(mu, sigma), Rating(fmu, fsigma) if fmu is not None else None)
    for label, role, kind, count in conn.execute(
            "SELECT label, role, kind, count FROM summary_failures WHERE run_id = ?", (run_id,)):
        tally.rows[_key(label, role)].failures[kind] = count
    for label, role, other, other_role, first, w, d, l_ in conn.execute(
            "SELECT label, role, other, other_role, first, wins, draws, losses FROM summary_meetings "
            "WHERE run_id = ?", (run_id,)):
        tally.meetings[(_key(label, role), _key(other, other_role), bool(first))] = [w, d, l_]
    for name, label, role, w, d, l_ in conn.execute(
            "SELECT map, label, role, wins, draws, losses FROM summary_maps WHERE run_id = ?", (run_id,)):
        tally.maps[(name, _key(label, role))] = [w, d, l_]
    for seat, others, half, games, better, worse in conn.execute(
            "SELECT seat, others, half_points, games, better, worse FROM summary_seats WHERE run_id = ?", (run_id,)):
        tally.seat_points[(seat, others)] = [half, games, better, worse]
    shown = {key: (pair[1] if final and pair[1] is not None else pair[0]) for key, pair in ratings.items()}
    return RunSummary(tally, shown, final)


def history(conn: sqlite3.Connection, run_id: int, label: str, final: bool) -> dict[Key, list[tuple[int, Rating]]]:
    """Bot ``label``'s kept rating history in run ``run_id`` (each role's), final or live, as ``(its games so
    far, rating)`` oldest first, ending with its current rating."""
    series: dict[Key, list[tuple[int, Rating]]] = {}
    for role, games, mu, sigma in conn.execute(
            "SELECT role, games, mu, sigma FROM summary_history WHERE run_id = ? AND label = ? AND final = ? "
            "ORDER BY role, games", (run_id, label, int(final))):
        series.setdefault(_key(label, role), []).append((games, Rating(mu, sigma)))
    for role, games, mu, sigma, fmu, fsigma in conn.execute(
            "SELECT role, games, mu, sigma, final_mu, final_sigma FROM summary_standings WHERE run_id = ? "
            "AND label = ?", (run_id, label)):
        current = Rating(fmu, fsigma) if final and fmu is not None else Rating(mu, sigma)
        points = series.setdefault(_key(label, role), [])
        if not points or points[-1][0] != games:
            points.append((games, current))
    return series


def first_failures(conn: sqlite3.Connection, run_id: int) -> list[tuple[str, str, int, int, str, str]]:
    """``(label, kind, count, first game, detail, traceback)`` of each bot's failures of each kind in run
    ``run_id``, as the records tell them."""
    return conn.execute("SELECT label, kind, count, game, detail, traceback FROM summary_first_failures "
                        "WHERE run_id = ? ORDER BY label, kind", (run_id,)).fetchall()

