"""A run's results read from its summaries (:mod:`arena.storage.summaries`), for pages and commands: each answers
in about the same time at a million stored games as at ten, since none reads the games.

The ratings are the run's final ones once it is finished (its games rated in schedule order), and the live
ones while it is being played (each game rated as it was stored); :func:`standings` says which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from arena.stats.analysis import Analysis, MapStats, PairStats, analyse_tally
from arena.stats.ratings import Rating
from arena.stats.standings import Key, Standings
from arena.storage import summaries
from arena.storage.store import Store


def standings(store: Store, run_id: int) -> Standings:
    """The standings of stored run ``run_id`` over the games it has stored so far: each bot's (and role's)
    rating, games, wins, draws, losses and failures, and the head-to-head scores."""
    run = store.run(run_id)
    summary = summaries.read(store.conn, run_id)
    return summary.tally.standings(run.game, run.scheduled, summary.ratings, summary.tally.draw_probability())


def ratings_are_final(store: Store, run_id: int) -> bool:
    """Whether :func:`standings` shows the run's final ratings (else the live ones of a run being played)."""
    return summaries.read(store.conn, run_id).final


def analysis(store: Store, run_id: int) -> Analysis:
    """The run's analysis (intervals, pairwise significance, maps, seats), as :func:`arena.stats.analysis.analyse`
    computes it from the games."""
    return analyse_tally(summaries.read(store.conn, run_id).tally)


def head_to_head(store: Store, run_id: int) -> list[PairStats]:
    """Every ordered pair of bots (named ``label`` or ``label (role)``) that met in the run: the first's wins,
    draws and losses against the second, with the sign test's p-value before and after Holm's correction."""
    return analysis(store, run_id).pairs


def per_map(store: Store, run_id: int) -> list[MapStats]:
    """Each bot's score on each map of the run, with its 95% Wilson interval, by map and bot."""
    return analysis(store, run_id).maps


@dataclass(frozen=True)
class HistoryPoint:
    """A bot's rating in a run after its ``games``-th game of the run."""

    games: int
    rating: Rating


def rating_history(store: Store, run_id: int, bot: str) -> dict[Key, list[HistoryPoint]]:
    """Bot ``bot``'s (a label's) rating over run ``run_id``, per role: at most
    :data:`arena.storage.summaries.HISTORY_POINTS` points, evenly spaced over its games, ending with its
    current rating; final or live as :func:`standings` shows them."""
    final = summaries.read(store.conn, run_id).final
    return {key: [HistoryPoint(games, rating) for games, rating in points]
            for key, points in summaries.history(store.conn, run_id, bot, final).items()}


def rating_histories(store: Store, run_id: int) -> dict[Key, list[HistoryPoint]]:
    """:func:`rating_history` of every bot of the run."""
    histories: dict[Key, list[HistoryPoint]] = {}
    for label in sorted({key[0] for key in summaries.read(store.conn, run_id).tally.rows}):
        histories.update(rating_history(store, run_id, label))
    return histories


@dataclass(frozen=True)
class FailedGame:
    """A game of a run in which a bot failed: its index, the bot's label, the failure's kind and the game's
    result in words."""

    game: int
    label: str
    kind: str
    reason: str


def failed_games(store: Store, run_id: int, limit: int) -> list[FailedGame]:
    """The first failures of the run, up to ``limit`` of them, in schedule order (one per failing bot per game)."""
    failed = []
    for idx, seats, failures, reason in store.conn.execute(
            "SELECT idx, seats, failures, reason FROM games WHERE run_id = ? AND failures != '{}' ORDER BY idx "
            "LIMIT ?", (run_id, limit)):
        labels = [seat["label"] for seat in json.loads(seats)]
        failed += [FailedGame(idx, labels[int(seat)], kind, reason)
                   for seat, kind in sorted(json.loads(failures).items(), key=lambda item: int(item[0]))]
    return failed[:limit]


def failure_summaries(store: Store, run_id: int) -> list[tuple[str, str, int, int, str, str]]:
    """Each bot's failures of each kind in the run as its games' records tell them: ``(label, kind, count,
    first game, its detail, its traceback)``."""
    return summaries.first_failures(store.conn, run_id)


def failure_count(store: Store, run_id: int) -> int:
    """How many times a bot failed in the run."""
    return sum(row.failures.total() for row in summaries.read(store.conn, run_id).tally.rows.values())
