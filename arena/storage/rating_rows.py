"""The stored ratings, as :class:`~arena.storage.store.Store` stores and reads them: each run's rating after
every game (snapshots) and at its end, the all-time leaderboard after each run (with the draw counts the
next run goes on from), and the ladder's entries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from arena.storage.connection import StoreConnection


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


class LadderRow(NamedTuple):
    """One bot version's (and role's) entry on a game's ladder."""

    mu: float
    sigma: float
    games: int
    last_round: int
    """The last round it played (-1: none yet)."""
    pass_: float | None
    """Its weighted games scheduled, as matchmaking counts them (:mod:`arena.stats.ladder_rule`); ``None`` once
    it has left the ladder (a newer version of its bot replaced it, or its bot is gone)."""
    scheduled: int
    """Its games scheduled since it joined."""


class SnapshotRow(NamedTuple):
    """One bot version's (and role's) rating within its run, after the run's game ``game_idx``."""

    game_idx: int
    bot_id: int
    role: str | None
    mu: float
    sigma: float




class RatingRows(StoreConnection):
    """The rating snapshots, run ratings, leaderboards and ladder of a :class:`~arena.storage.store.Store`."""

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

    def ladder(self, game: str) -> dict[tuple[int, str | None], LadderRow]:
        """The ladder of ``game``: ``(bot_id, role) -> LadderRow``."""
        return {(bot, role or None): LadderRow(*row) for bot, role, *row in self.conn.execute(
            "SELECT bot_id, role, mu, sigma, games, last_round, pass, scheduled FROM ladder WHERE game = ?", (game,))}

    def ladder_draws(self, game: str) -> tuple[int, int]:
        """The tied seat pairs and seat pairs of the games the ladder of ``game`` has rated."""
        row = self.conn.execute("SELECT ties, pairs FROM ladder_draws WHERE game = ?", (game,)).fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def save_ladder(self, game: str, entries: dict[tuple[int, str | None], LadderRow],
                    draws: tuple[int, int] | None = None) -> None:
        """Write ladder entries (insert or update) and, if given, the ladder's draw counts, in one transaction."""
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO ladder (game, bot_id, role, mu, sigma, games, last_round, pass, scheduled) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game, bot, role or "", *row) for (bot, role), row in entries.items()])
            if draws is not None:
                self.conn.execute("INSERT OR REPLACE INTO ladder_draws (game, ties, pairs) VALUES (?, ?, ?)",
                                  (game, *draws))
