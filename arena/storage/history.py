"""Ratings over time: a snapshot after every game of a run, and the all-time leaderboard after each run.

Everything here is computed from the stored games alone, so it can be recomputed at any time and gives
the same numbers: games are rated in (run, schedule index) order with the draw rate of the games rated.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from arena.stats.ratings import Rating, rate
from arena.stats.standings import PlayedGame
from arena.storage.store import GameRow, Store

Snapshot = tuple[int, int, str | None, float, float]  # game index, bot id, role, mu, sigma
LeaderRow = tuple[int, str | None, float, float, int]  # bot id, role, mu, sigma, games


def played_from_rows(rows: list[GameRow]) -> list[PlayedGame]:
    """Stored games as :class:`PlayedGame`, keyed by bot label (for standings)."""
    return [PlayedGame(tuple(zip(r.labels, r.roles, strict=True)), r.ranks, r.failures, r.think_time, r.map)
            for r in rows]


def run_snapshots(rows: list[GameRow]) -> list[Snapshot]:
    """Each player's rating after each game of one run, rating the run's games alone in schedule order."""
    history: list[tuple[int, Hashable, Rating]] = []
    rate([(tuple(zip(r.bot_ids, r.roles, strict=True)), r.ranks) for r in rows], history)
    return [(rows[position].idx, key[0], key[1], rating.mu, rating.sigma)  # type: ignore[index]
            for position, key, rating in history]


def leaderboard_after(store: Store, game: str, run_id: int) -> list[LeaderRow]:
    """Every bot version's all-time rating in ``game`` over all stored games up to and including ``run_id``."""
    rows = [row for row in store.games(game=game) if row.run_id <= run_id]
    ratings, _ = rate([(tuple(zip(r.bot_ids, r.roles, strict=True)), r.ranks) for r in rows])
    counts: dict[tuple[int, str | None], int] = {}
    for row in rows:
        for key in zip(row.bot_ids, row.roles, strict=True):
            counts[key] = counts.get(key, 0) + 1
    return sorted((bot, role, r.mu, r.sigma, counts[(bot, role)])  # type: ignore[misc]
                  for (bot, role), r in ratings.items())  # type: ignore[misc]


def finalize_run(store: Store, run_id: int, status: str) -> None:
    """Store the run's rating snapshots and the leaderboard after it, and mark its status.

    The leaderboards after later runs of the same game count this run's games too (a resumed older run
    adds games before them), so they are brought up to date as well.
    """
    run = store.run(run_id)
    rows = list(store.games(run_id=run_id))
    store.replace_snapshots(run_id, run_snapshots(rows))
    store.set_run_status(run_id, status)
    for later in store.runs():
        if later.game == run.game and (later.id == run_id or (later.id > run_id and later.status != "running")):
            store.replace_leaderboard(later.id, later.game, leaderboard_after(store, later.game, later.id))


@dataclass(frozen=True)
class Recomputed:
    """What ``arena ratings --recompute`` found: how many stored numbers it checked and how many differed."""

    checked: int
    differing: int


def _close(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 * max(1.0, abs(x)) for x, y in zip(a, b, strict=True))


def recompute(store: Store) -> Recomputed:
    """Recompute every snapshot and leaderboard from the stored games, compare, and store the results."""
    checked = differing = 0
    stored_board: dict[tuple[int, int, str | None], tuple[float, float, int]] = {
        (run, bot, role): (mu, sigma, games) for run, _, bot, role, mu, sigma, games in store.leaderboard_rows()}
    for run in store.runs():
        rows = list(store.games(run_id=run.id))
        fresh = run_snapshots(rows)
        stored = {(idx, bot, role): (mu, sigma) for idx, bot, role, mu, sigma in store.snapshots(run.id)}
        if stored:  # a run that was killed before it finished has none yet: they are filled in
            for idx, bot, role, mu, sigma in fresh:
                checked += 1
                differing += not _close(stored.get((idx, bot, role), ()), (mu, sigma))
            differing += abs(len(stored) - len(fresh))
        board = leaderboard_after(store, run.game, run.id)
        if any(key[0] == run.id for key in stored_board):
            for bot, role, mu, sigma, games in board:
                checked += 1
                differing += not _close(stored_board.get((run.id, bot, role), ()), (mu, sigma, float(games)))
        store.replace_snapshots(run.id, fresh)
        store.replace_leaderboard(run.id, run.game, board)
    return Recomputed(checked, differing)
