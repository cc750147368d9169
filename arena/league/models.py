"""What the league's library hands out: teams, versions, leaderboard rows, games, the queue, the workers.

Plain frozen dataclasses, so a front end can show them or turn them into JSON (:func:`dataclasses.asdict`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Team:
    """A team: it submits bots and asks for challenges with its token."""

    id: int
    name: str


@dataclass(frozen=True)
class Organiser:
    """The league's organiser: runs the league with its own token."""

    name: str = "organiser"


class Rated:
    """What a rated team's bot shows: its ``team/bot`` label and its conservative rating."""

    team: str
    bot: str
    mu: float
    sigma: float

    @property
    def label(self) -> str:
        """``team/bot``."""
        return f"{self.team}/{self.bot}"

    @property
    def rating(self) -> float:
        """The conservative rating ``mu - 3 sigma`` the leaderboard ranks by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class VersionInfo(Rated):
    """One submitted version of a team's bot, with its build and its rating (its first role's, averaged
    over roles in a game with roles)."""

    id: int
    team: str
    bot: str
    number: int
    """1 for the bot's first version, then 2, 3, ..."""
    version: str
    """The hash of its source, as the arena versions every bot."""
    kind: str
    """``python`` (a module) or ``program`` (a folder with ``arena-bot.toml``)."""
    status: str
    """``ready`` (built, may play), ``failed`` (its build failed or took too long: never plays) or
    ``disabled`` (by the organiser: never plays again)."""
    build_log: str
    submitted_at: str
    active: bool
    """Whether this is the version of the bot that plays."""
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class BoardRow(Rated):
    """One line of the leaderboard: a team's bot and its active version's rating and record."""

    rank: int
    team: str
    bot: str
    number: int
    version: str
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int
    losses: int
    last_game: int | None
    """The id of its newest rated game, if any."""


@dataclass(frozen=True)
class Seat:
    """One player of a game: which version sat there, in which role, and how it placed."""

    team: str
    bot: str
    number: int
    role: str | None
    rank: int
    failure: str | None
    """How the bot failed in this game (``crash``, ``timeout``, ...), if it did."""

    @property
    def label(self) -> str:
        """``team/bot``."""
        return f"{self.team}/{self.bot}"


@dataclass(frozen=True)
class GameInfo:
    """One finished game of the league."""

    id: int
    """Its place in the league's queue: also what its seed derives from."""
    kind: str
    """``ranked``, ``challenge`` (unrated) or ``final``."""
    seats: tuple[Seat, ...]
    reason: str
    map: str | None
    seed: int
    finished_at: str


@dataclass(frozen=True)
class BotInfo:
    """A team's bot: its versions (newest first), the active one, and its recent games."""

    team: str
    bot: str
    versions: tuple[VersionInfo, ...]
    games: tuple[GameInfo, ...]

    @property
    def active(self) -> VersionInfo | None:
        """The version that plays, if any."""
        return next((v for v in self.versions if v.active), None)


@dataclass(frozen=True)
class QueueEntry:
    """A game scheduled and not finished yet."""

    id: int
    kind: str
    players: tuple[str, ...]
    """``team/bot#number`` by seat."""
    map: str
    seed: int
    team: str | None
    """The team that asked for it (a challenge)."""


@dataclass(frozen=True)
class WorkersInfo:
    """What the running ladder last said about itself (``None`` from :meth:`League.workers` if none ran)."""

    executor: str
    workers: int
    state: str
    """``playing``, ``paused``, ``waiting`` (too few bots), ``stopped``."""
    started_at: str
    updated_at: str
    games_played: int
    """Games this ladder process has stored."""
    pid: int


@dataclass(frozen=True)
class FinalRow:
    """One line of the final's table: points (1 a win, 1/2 a draw, per game), the final's own rating, its seed
    and the rule that put it ahead of the next line (see :mod:`arena.league.tiebreaks`)."""

    rank: int
    team: str
    bot: str
    number: int
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    mu: float
    sigma: float
    seed: int
    """Its place on the ladder when the final began."""
    tiebreak: str
    """What put it ahead of the next line: a rule of :data:`arena.league.tiebreaks.RULES`, ``bracket`` (it got
    further in a bracket) or ``seed`` (out in the same round); empty on the last line."""

    @property
    def label(self) -> str:
        """``team/bot``."""
        return f"{self.team}/{self.bot}"
