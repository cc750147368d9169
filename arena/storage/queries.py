"""Results read back from the store for people and scripts: a run's standings, the all-time leaderboard
and one bot's rating run after run."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from arena.stats.standings import Standings
from arena.storage import summary_queries
from arena.storage.store import LeaderboardRow, RunRow, Store


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


@dataclass(frozen=True)
class RunSummary:
    """A stored run as ``arena runs`` lists it: the run, how many bots played, the best rated at the end
    (``label`` or ``label (role)``), and how long it took (``None`` while unfinished)."""

    run: RunRow
    bots: int
    leader: str | None
    duration: float | None

    def duration_text(self) -> str:
        """``2m05s``, ``1h02m`` or ``-``."""
        if self.duration is None:
            return "-"
        minutes, seconds = divmod(round(self.duration), 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{seconds:02d}s" if minutes else f"{seconds}s"


def run_summaries(store: Store) -> list[RunSummary]:
    """Every stored run, oldest first, summarised."""
    leaders = store.run_leaders()
    summaries = []
    for run in store.runs():
        count, label, role = leaders.get(run.id, (0, None, None))
        leader = f"{label} ({role})" if label and role else label
        duration = None
        if run.finished_at:
            elapsed = datetime.fromisoformat(run.finished_at) - datetime.fromisoformat(run.created_at)
            duration = elapsed.total_seconds()
        summaries.append(RunSummary(run, count, leader, duration))
    return summaries


def run_standings(store: Store, run_id: int) -> Standings:
    """The standings of stored run ``run_id``, over the games it has played so far."""
    return summary_queries.standings(store, run_id)


def _stored_ratings(store: Store, rows: list[LeaderboardRow]
                    ) -> list[StoredRating]:
    bots = {row["id"]: row for row in store.bot_rows()}
    return [StoredRating(run, game_name, bot, bots[bot]["label"], bots[bot]["name"], bots[bot]["version"], role, mu,
                         sigma, games)
            for run, game_name, bot, role, mu, sigma, games in rows]


def leaderboard(store: Store, game: str | None = None, latest: bool = False) -> list[StoredRating]:
    """Every bot version's all-time rating after the latest run of its game, by game and role, best first.

    With ``latest``, only the newest stored version of each bot label is kept.
    """
    current = _stored_ratings(store, store.latest_leaderboard_rows(game))
    if latest:  # bot ids grow with each new version stored
        newest: dict[str, int] = {}
        for rating in current:
            newest[rating.label] = max(newest.get(rating.label, 0), rating.bot_id)
        current = [rating for rating in current if newest[rating.label] == rating.bot_id]
    return sorted(current, key=lambda rating: (rating.game, rating.role or "", -rating.conservative))


@dataclass(frozen=True)
class HistoryPoint:
    """A bot version's all-time rating after a run it played in, and how much the run changed it."""

    rating: StoredRating
    change: float | None
    """The change of ``mu - 3 sigma`` since the version's previous run (``None`` for its first)."""


def rating_history(store: Store, bot: str) -> list[HistoryPoint]:
    """A bot's all-time rating after each stored run it played in: one point per version (and role) per
    run, oldest first; ``bot`` is a label or name. Runs a version sat out are left out."""
    points = []
    previous: dict[tuple[int, str, str | None], StoredRating] = {}
    for rating in _stored_ratings(store, store.bot_leaderboard_rows(bot)):
        key = (rating.bot_id, rating.game, rating.role)
        before = previous.get(key)
        if before is not None and before.games == rating.games:
            continue  # it played no game in this run
        points.append(HistoryPoint(rating, None if before is None else rating.conservative - before.conservative))
        previous[key] = rating
    return points


def version_name(label: str, version: str, role: str | None, with_version: bool) -> str:
    """How charts name a bot version: ``label``, or ``label@version`` where versions must be told apart,
    then `` (role)`` in games with roles."""
    return (f"{label}@{version}" if with_version else label) + (f" ({role})" if role else "")


def rating_series(store: Store, game: str, labels: Iterable[str], up_to_run: int) -> dict[str, list[tuple[int, float]]]:
    """The all-time ``mu - 3 sigma`` of every version (and role) of the bots ``labels`` in ``game``, after each
    run up to ``up_to_run`` that the version played in, as ``(run id, value)`` oldest first: one series per
    version, named by :func:`version_name` (with the version where a bot has more than one). Runs a version
    sat out are left out, so no series jumps between versions or repeats a rating it did not earn."""
    points = [point.rating for label in dict.fromkeys(labels) for point in rating_history(store, label)
              if point.rating.label == label and point.rating.game == game and point.rating.run_id <= up_to_run]
    versions: dict[str, set[str]] = {}
    for rating in points:
        versions.setdefault(rating.label, set()).add(rating.version)
    series: dict[str, list[tuple[int, float]]] = {}
    for rating in points:
        name = version_name(rating.label, rating.version, rating.role, len(versions[rating.label]) > 1)
        series.setdefault(name, []).append((rating.run_id, rating.conservative))
    return series


def run_rating_series(store: Store, run_id: int) -> dict[str, list[float]]:
    """A run's own ``mu - 3 sigma`` of each bot version (and role) after each of its games, in schedule order,
    named by :func:`version_name`."""
    bots = {row["id"]: row for row in store.bot_rows()}
    snapshots = store.snapshots(run_id)
    versions: dict[str, set[int]] = {}
    for _, bot, _, _, _ in snapshots:
        versions.setdefault(bots[bot]["label"], set()).add(bot)
    series: dict[str, list[float]] = {}
    for _, bot, role, mu, sigma in snapshots:
        label = bots[bot]["label"]
        series.setdefault(version_name(label, bots[bot]["version"], role, len(versions[label]) > 1),
                          []).append(mu - 3 * sigma)
    return series
