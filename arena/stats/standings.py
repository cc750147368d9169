"""Standings: per-bot results, ratings and head-to-head scores from a set of played games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from arena.core.failure import FAILURE_KINDS
from arena.core.game import Game
from arena.play.referee import MatchOutcome, MatchSetup
from arena.stats.ratings import Rating, rate


@dataclass
class BotStanding:
    """One bot's line in the standings (one line per role in games with roles)."""

    label: str
    role: str | None
    rating: Rating
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    think_time: float = 0.0

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games, or 0 with no games."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass
class Standings:
    """Everything a tournament report shows."""

    game: str
    rows: list[BotStanding]
    head_to_head: dict[tuple[str, str], tuple[float, int]]
    played: int
    scheduled: int
    draw_probability: float
    roles: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether every scheduled game was played."""
        return self.played == self.scheduled


@dataclass(frozen=True)
class PlayedGame:
    """What standings need of one game: who sat where (label and role), ranks, failures, thinking time."""

    players: tuple[tuple[str, str | None], ...]
    ranks: tuple[int, ...]
    failures: dict[int, str]
    think_time: tuple[float, ...]
    map: str | None = None


def played_game(game: type[Game], setup: MatchSetup, outcome: MatchOutcome) -> PlayedGame:
    """The :class:`PlayedGame` of a finished scheduled game."""
    role = game.roles.__getitem__ if game.roles else (lambda seat: None)
    players = tuple((spec.label, role(seat)) for seat, spec in enumerate(setup.bots))
    return PlayedGame(players, outcome.ranks, outcome.failure_kinds, outcome.think_time,
                      setup.game_map.name if setup.game_map else None)


def standings_from_games(game_name: str, played: Sequence[PlayedGame], scheduled: int,
                         rated: tuple[Mapping[tuple[str, str | None], Rating], float] | None = None) -> Standings:
    """Standings over games given in schedule order; ``scheduled`` is how many the tournament has in all.

    ``rated`` is what :func:`arena.stats.ratings.rate` gives for these games (ratings by label and role, and
    the draw probability), when they were rated already; else they are rated here.
    """
    ratings, probability = rated or rate([(game.players, game.ranks) for game in played])
    tally = StandingsTally()
    for game in played:
        tally.add(game)
    return tally.standings(game_name, scheduled, ratings, probability)


_UNRATED = Rating(0.0, 0.0)


class StandingsTally:
    """Everything standings count, added up one game at a time in any order: each bot's results, failures and
    thinking time, and the head-to-head scores. It grows with the bots, never with the games, so a
    tournament keeps one as it plays instead of its games; ratings are added at the end."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str | None], BotStanding] = {}
        self.head_to_head: dict[tuple[str, str], tuple[float, int]] = {}
        self.role_seats: dict[str, int] = {}
        self.games = 0

    def add(self, game: PlayedGame) -> None:
        """Count one game."""
        players, ranks = game.players, game.ranks
        best, first_count = min(ranks), ranks.count(min(ranks))
        self.games += 1
        for seat, key in enumerate(players):
            row = self.rows.get(key)
            if row is None:
                row = self.rows[key] = BotStanding(key[0], key[1], _UNRATED)
            row.games += 1
            row.think_time += game.think_time[seat] if game.think_time else 0.0
            if ranks[seat] == best and first_count == 1:
                row.wins += 1
            elif ranks[seat] == best:
                row.draws += 1
            else:
                row.losses += 1
            if seat in game.failures:
                row.failures[game.failures[seat]] += 1
            if key[1] is not None:
                self.role_seats.setdefault(key[1], seat)
            for other, other_key in enumerate(players):
                if other == seat or (key[1] is not None and other < seat):
                    continue  # with roles (seat i plays role i), one entry a meeting: the cat's score against the mouse
                points = 1.0 if ranks[seat] < ranks[other] else 0.5 if ranks[seat] == ranks[other] else 0.0
                total, count = self.head_to_head.get((key[0], other_key[0]), (0.0, 0))
                self.head_to_head[(key[0], other_key[0])] = (total + points, count + 1)

    def standings(self, game_name: str, scheduled: int, ratings: Mapping[tuple[str, str | None], Rating],
                  probability: float) -> Standings:
        """The standings of the games counted, with their ratings (by label and role) and draw probability."""
        roles = tuple(sorted(self.role_seats, key=self.role_seats.__getitem__))
        rows = [replace(row, rating=ratings[key], failures=Counter(row.failures)) for key, row in self.rows.items()]
        ordered = sorted(rows, key=lambda r: (roles.index(r.role) if r.role in roles else 0,
                                              -r.rating.conservative, -r.score, r.label))
        return Standings(game_name, ordered, dict(self.head_to_head), self.games, scheduled, probability, roles)


def role_order(played: Sequence[PlayedGame]) -> tuple[str, ...]:
    """The roles of a game with roles, in seat order (empty for symmetric games)."""
    seats: dict[str, int] = {}
    for game in played:
        for seat, (_, role) in enumerate(game.players):
            if role is not None:
                seats.setdefault(role, seat)
    return tuple(sorted(seats, key=seats.__getitem__))


def failure_summary(row: BotStanding) -> str:
    """Failures as ``T/C/I/M`` counts (timeouts, crashes, illegal moves, out of memory)."""
    return "/".join(str(row.failures.get(kind, 0)) for kind in FAILURE_KINDS)
