"""Ratings over time: each run's own ratings (after every game, and at its end) and the all-time
leaderboard after each run.

Everything here is computed from the stored games alone, so it can be recomputed at any time and gives
the same numbers.

- A run's own ratings (its standings, its snapshots, its leader in ``arena runs``): the run's games rated
  alone, in schedule order, with the smoothed draw rate of the run's games.
- The all-time leaderboard of a game after run ``k``: every stored game of that game in runs ``1..k``
  (finished or not), rated in (run, schedule index) order, each bot version starting from the prior. The
  games of run ``j`` are rated with the draw probability ``(T_j + 1) / (P_j + 2)``, where ``T_j`` and ``P_j``
  count the tied seat pairs and all seat pairs over the games of runs ``1..j``. So the leaderboard after
  run ``k`` is the one after the run before continued with run ``k``'s games, and each stored leaderboard
  keeps its ``T`` and ``P``: finishing a run rates only its own games, however many are stored. A resumed
  older run changes the leaderboards of the runs after it, which are then rated again from the one before
  it; ``arena ratings --recompute`` rates every stored game twice (once for its run, once for the
  leaderboard), in one pass.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from arena.core.collector import collector_paused
from arena.stats.ratings import Rating, pairwise_draw_rate, rate, smoothed_draw_rate
from arena.stats.standings import PlayedGame
from arena.storage import summaries
from arena.storage.store import GameResult, GameRow, RatingRow, SnapshotRow, Store

Player = tuple[int, str | None]  # bot id, role
Row = TypeVar("Row", bound=Hashable)  # the key of a stored row


def played_from_rows(rows: list[GameRow]) -> list[PlayedGame]:
    """Stored games as :class:`PlayedGame`, keyed by bot label (for standings)."""
    return [PlayedGame(tuple(zip(r.labels, r.roles, strict=True)), r.ranks, r.failures, r.think_time, r.map)
            for r in rows]


@dataclass(frozen=True)
class RunRatings:
    """A run's own ratings: each player's rating after each game, and at the end with its game count."""

    snapshots: list[SnapshotRow]
    final: dict[Player, Rating]
    games: dict[Player, int]
    draw_probability: float
    labels: dict[Player, str]

    def by_label(self) -> dict[tuple[str, str | None], Rating] | None:
        """The final ratings by bot label and role, as standings key them (``None`` if two versions of a
        bot played under one label, which standings count as one)."""
        ratings = {(self.labels[player], player[1]): rating for player, rating in self.final.items()}
        return ratings if len(ratings) == len(self.final) else None

    def rows(self) -> list[RatingRow]:
        """The final ratings as stored rows, by bot id and role."""
        return sorted(RatingRow(bot, role, rating.mu, rating.sigma, self.games[(bot, role)])
                      for (bot, role), rating in self.final.items())


def rate_run(results: Sequence[GameResult]) -> RunRatings:
    """Rate one run's games alone, in schedule order, with the run's own draw rate."""
    history: list[tuple[int, Player, float, float]] = []
    final, probability = rate([(r.players, r.ranks) for r in results], history)
    indices = [r.idx for r in results]
    snapshots = [SnapshotRow(indices[position], bot, role, mu, sigma) for position, (bot, role), mu, sigma in history]
    labels = {player: label for r in results for player, label in zip(r.players, r.labels, strict=True)}
    return RunRatings(snapshots, final, _game_counts(results), probability, labels)


def run_snapshots(results: Sequence[GameResult]) -> list[SnapshotRow]:
    """Each player's rating after each game of one run, rating the run's games alone in schedule order."""
    return rate_run(results).snapshots


def _game_counts(results: Sequence[GameResult], start: dict[Player, int] | None = None) -> dict[Player, int]:
    counts = dict(start or {})
    for result in results:
        for player in result.players:
            counts[player] = counts.get(player, 0) + 1
    return counts


@dataclass(frozen=True)
class Leaderboard:
    """The all-time leaderboard of a game after some run: ratings, games played, and the draw counts
    (tied seat pairs, seat pairs) of the games it rates, which the next run's draw probability adds to."""

    ratings: dict[Player, Rating] = field(default_factory=dict)
    games: dict[Player, int] = field(default_factory=dict)
    ties: int = 0
    pairs: int = 0

    @classmethod
    def from_rows(cls, rows: Sequence[RatingRow], draws: tuple[int, int]) -> Leaderboard:
        """A stored leaderboard."""
        return cls({(bot, role): Rating(mu, sigma) for bot, role, mu, sigma, _ in rows},
                   {(bot, role): games for bot, role, _, _, games in rows}, *draws)

    def continued(self, results: Sequence[GameResult], alone: RunRatings | None = None) -> Leaderboard:
        """The leaderboard after one more run, whose games are ``results`` in schedule order; ``alone``: that
        run's own ratings (:func:`rate_run`), if the caller has them."""
        ties, pairs = pairwise_draw_rate(r.ranks for r in results)
        if alone is not None and not self.ratings and not self.games and not self.pairs:
            # The first leaderboard rates the same games in the same order from the prior with the same draw
            # rate as the run's own ratings: they are those, and need not be computed again.
            return Leaderboard(dict(alone.final), dict(alone.games), ties, pairs)
        ties, pairs = self.ties + ties, self.pairs + pairs
        ratings, _ = rate([(r.players, r.ranks) for r in results], probability=smoothed_draw_rate(ties, pairs),
                          start=self.ratings)
        return Leaderboard(ratings, _game_counts(results, self.games), ties, pairs)

    def rows(self) -> list[RatingRow]:
        """The stored form: ``(bot id, role, mu, sigma, games)`` by bot id and role."""
        return sorted(RatingRow(bot, role, rating.mu, rating.sigma, self.games[(bot, role)])
                      for (bot, role), rating in self.ratings.items())

    @property
    def draws(self) -> tuple[int, int]:
        """``(tied seat pairs, seat pairs)`` over the games rated."""
        return self.ties, self.pairs


def leaderboard_after(store: Store, game: str, run_id: int) -> list[RatingRow]:
    """Every bot version's all-time rating in ``game`` after ``run_id``, computed from the stored games."""
    board = Leaderboard()
    for run, _, _ in store.game_runs(game):
        if run <= run_id:
            board = board.continued(store.results(run))
    return board.rows()


def update_leaderboards(store: Store, game: str, run_id: int, results: Sequence[GameResult] | None = None,
                        alone: RunRatings | None = None) -> int:
    """Store the leaderboard after ``run_id`` and after each later finished run of ``game``, continuing the
    newest stored leaderboard before ``run_id``; returns how many runs' games were rated. ``results``: the
    stored results of ``run_id``, if the caller has them already, and ``alone`` its own ratings from them.

    Runs in between without a stored leaderboard (killed ones) are rated and stored too, since their
    games count; a later run still running in another process is left to store its own when it ends.
    """
    with store.transaction():
        base = store.leaderboard_state(game, before=run_id)
        board = Leaderboard() if base is None else Leaderboard.from_rows(base[2], base[1])
        after = -1 if base is None else base[0]
        runs = [(run, status) for run, _, status in store.game_runs(game) if run > after]
        last = max([run_id] + [run for run, status in runs if run > run_id and status != "running"])
        rated = 0
        for run, status in runs:
            if run > last:
                break
            if run == run_id and results is not None:
                board = board.continued(results, alone)
            else:
                board = board.continued(store.results(run))
            rated += 1
            if run <= run_id or status != "running":
                store.replace_leaderboard(run, game, board.rows(), board.draws)
    return rated


def finalize_run(store: Store, run_id: int, status: str) -> RunRatings:
    """Store the run's own ratings and the leaderboard after it, mark its status, and return the run's ratings.

    The leaderboards after later runs of the same game count this run's games too (a resumed older run
    adds games before them), so they are brought up to date as well.
    """
    with collector_paused():
        results = store.results(run_id)
        run_ratings = rate_run(results)
        with store.transaction():
            store.replace_snapshots(run_id, run_ratings.snapshots)
            store.replace_run_ratings(run_id, run_ratings.rows())
            store_final_summaries(store, run_id, run_ratings, len(results))
            store.set_run_status(run_id, status)
        update_leaderboards(store, store.run(run_id).game, run_id, results, run_ratings)
    return run_ratings


def store_final_summaries(store: Store, run_id: int, run_ratings: RunRatings, games: int) -> None:
    """Store the run's final ratings by bot label and role in its summaries: its own ratings where each label
    is one bot version (they are the same), else its games rated again by label."""
    if run_ratings.by_label() is None:
        summaries.store_final(store.conn, run_id, *summaries.final_history(store.conn, run_id))
        return
    labels = run_ratings.labels
    summaries.store_final(store.conn, run_id, (((labels[(bot, role)], role), mu, sigma)
                                               for _, bot, role, mu, sigma in run_ratings.snapshots), games)


@dataclass(frozen=True)
class Recomputed:
    """What ``arena ratings --recompute`` found: how many stored numbers it checked and how many differed, and
    how many runs' summaries it rebuilt and how many of those differed from the ones kept."""

    checked: int
    differing: int
    summarised: int = 0
    summaries_differing: int = 0


def _close(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 * max(1.0, abs(x)) for x, y in zip(a, b, strict=True))


def _compare(stored: Mapping[Row, tuple[float, ...]], fresh: Mapping[Row, tuple[float, ...]]) -> tuple[int, int]:
    """(numbers checked, numbers differing) of fresh rows against stored ones (missing or extra rows differ)."""
    differing = sum(not _close(stored.get(key, ()), values) for key, values in fresh.items())
    return len(fresh), differing + sum(key not in fresh for key in stored)


def recompute(store: Store) -> Recomputed:
    """Recompute every run's ratings and every leaderboard from the stored games, compare, and store them.

    One pass over the stored games, run by run: linear in the number of stored games. Each run's summaries
    are rebuilt from its games too, and compared with the ones kept.
    """
    checked = differing = summarised = summaries_differing = 0
    boards: dict[str, Leaderboard] = {}
    for run, game, _ in store.game_runs():
        results = store.results(run)
        fresh = rate_run(results)
        stored = {(idx, bot, role): (mu, sigma) for idx, bot, role, mu, sigma in store.snapshots(run)}
        if stored:  # a run that was killed before it finished has none yet: they are filled in
            count, wrong = _compare(stored, {(idx, bot, role): (mu, sigma)
                                             for idx, bot, role, mu, sigma in fresh.snapshots})
            checked, differing = checked + count, differing + wrong
        board = boards[game] = boards.get(game, Leaderboard()).continued(results)
        stored_board = {(bot, role): (mu, sigma, float(games)) for bot, role, mu, sigma, games in
                        store.run_leaderboard(run)}
        if stored_board:
            count, wrong = _compare(stored_board, {(bot, role): (mu, sigma, float(games))
                                                   for bot, role, mu, sigma, games in board.rows()})
            checked, differing = checked + count, differing + wrong
        with store.transaction():
            store.replace_snapshots(run, fresh.snapshots)
            store.replace_run_ratings(run, fresh.rows())
            store.replace_leaderboard(run, game, board.rows(), board.draws)
            kept = summaries.contents(store.conn, run)
            summaries.rebuild(store.conn, run)
            summarised += 1
            summaries_differing += kept != summaries.contents(store.conn, run)
    return Recomputed(checked, differing, summarised, summaries_differing)
