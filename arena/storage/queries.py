"""Results read back from the store for people and scripts: a run's standings, the all-time leaderboard
and one bot's rating run after run."""

from __future__ import annotations

from dataclasses import dataclass

from arena.stats.standings import Standings, standings_from_games
from arena.storage.history import played_from_rows
from arena.storage.store import Store


@dataclass(frozen=True)
class StoredRating:
    """A bot version's all-time TrueSkill rating in one game (and role) after a stored run."""

    run_id: int
    game: str
    bot_id: int
    label: str
    name: str
    version: str
    role: str | None
    mu: float
    sigma: float
    games: int

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the rating the bot is very likely above, which leaderboards sort by."""
        return self.mu - 3 * self.sigma


def run_standings(store: Store, run_id: int) -> Standings:
    """The standings of stored run ``run_id``, over the games it has played so far."""
    run = store.run(run_id)
    return standings_from_games(run.game, played_from_rows(list(store.games(run_id=run_id))), run.scheduled)


def _stored_ratings(store: Store, game: str | None) -> list[StoredRating]:
    bots = {row["id"]: row for row in store.bot_rows()}
    return [StoredRating(run, game_name, bot, bots[bot]["label"], bots[bot]["name"], bots[bot]["version"], role, mu,
                         sigma, games)
            for run, game_name, bot, role, mu, sigma, games in store.leaderboard_rows(game)]


def leaderboard(store: Store, game: str | None = None, latest: bool = False) -> list[StoredRating]:
    """Every bot version's all-time rating after the latest run of its game, by game and role, best first.

    With ``latest``, only the newest stored version of each bot label is kept.
    """
    ratings = _stored_ratings(store, game)
    last_run = {rating.game: rating.run_id for rating in ratings}
    current = [rating for rating in ratings if rating.run_id == last_run[rating.game]]
    if latest:  # bot ids grow with each new version stored
        newest: dict[str, int] = {}
        for rating in current:
            newest[rating.label] = max(newest.get(rating.label, 0), rating.bot_id)
        current = [rating for rating in current if newest[rating.label] == rating.bot_id]
    return sorted(current, key=lambda rating: (rating.game, rating.role or "", -rating.conservative))


def rating_history(store: Store, bot: str) -> list[StoredRating]:
    """A bot's all-time rating after each stored run that rated it, every version; ``bot`` is a label or name."""
    return [rating for rating in _stored_ratings(store, None) if bot in (rating.label, rating.name)]
