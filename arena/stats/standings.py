"""Standings: per-bot results, ratings and head-to-head scores from a set of played games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

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

    @cached_property
    def counts(self) -> GameCounts:
        """What it adds to the counts (:func:`game_counts`), worked out once: the store's summaries and the
        standings kept in memory both add it."""
        return game_counts(self)


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
Key = tuple[str, str | None]
"""A player in standings: bot label and role (``None`` in games without roles)."""
WIN, DRAW, LOSS = 0, 1, 2
"""The outcome of a game for a player (it alone ranked best, it shared the best rank, or neither), and of a
meeting of two players (better, equal, worse rank): an index into ``[wins, draws, losses]`` counts."""


@dataclass(frozen=True)
class GameCounts:
    """What one game adds to every count standings and analysis keep: the single definition both the counts
    kept in memory (:class:`StandingsTally`) and the ones the store keeps beside its games add up.

    ``players``: per seat ``(key, outcome, failure kind or None, thinking seconds)``; ``meetings``: per ordered
    pair of seats ``(key, other key, whether key sat first, key's outcome against other)``; ``seat_points``: per
    seat ``(seat, other players, half points)``, its points against each other player doubled (2 a win, 1 a
    draw), so sums stay whole numbers; ``ties`` and ``pairs``: tied seat pairs and seat pairs (the draw rate's
    counts)."""

    players: list[tuple[Key, int, str | None, float]]
    meetings: list[tuple[Key, Key, bool, int]]
    map: str
    seat_points: list[tuple[int, int, int]]
    ties: int
    pairs: int


def game_counts(game: PlayedGame) -> GameCounts:
    """What ``game`` adds to the counts."""
    ranks = game.ranks
    best, first_count = min(ranks), ranks.count(min(ranks))
    players = []
    meetings = []
    seat_points = []
    ties = pairs = 0
    others = len(ranks) - 1
    for seat, key in enumerate(game.players):
        outcome = WIN if ranks[seat] == best and first_count == 1 else DRAW if ranks[seat] == best else LOSS
        think = game.think_time[seat] if game.think_time else 0.0
        players.append((key, outcome, game.failures.get(seat), think))
        half = 0
        for other, other_key in enumerate(game.players):
            if other == seat:
                continue
            against = WIN if ranks[seat] < ranks[other] else DRAW if ranks[seat] == ranks[other] else LOSS
            half += 2 - against
            meetings.append((key, other_key, seat < other, against))
            if other > seat:
                pairs += 1
                ties += ranks[seat] == ranks[other]
        seat_points.append((seat, others, half))
    return GameCounts(players, meetings, game.map or "-", seat_points, ties, pairs)


class StandingsTally:
    """Everything standings and their analysis count, added up one game at a time in any order: each bot's
    results, failures and thinking time, every meeting of two bots, the results per map and per seat, and the
    draw rate's counts. It grows with the bots, never with the games, so a tournament keeps one as it plays
    instead of its games, and the store keeps the same counts beside its games; ratings are added at the end.
    """

    def __init__(self) -> None:
        self.rows: dict[Key, BotStanding] = {}
        self.seats: dict[Key, int] = {}
        """The first seat each player sat in (in games with roles, seat i plays role i)."""
        self.meetings: dict[tuple[Key, Key, bool], list[int]] = {}
        """``(key, other, key sat first)`` -> key's ``[wins, draws, losses]`` against other."""
        self.maps: dict[tuple[str, Key], list[int]] = {}
        """``(map, key)`` -> ``[wins, draws, losses]`` (map ``-`` for games without one)."""
        self.seat_points: dict[tuple[int, int], list[int]] = {}
        """``(seat, other players)`` -> ``[half points, games, games above half, games below half]``."""
        self.games = 0
        self.ties = 0
        self.pairs = 0

    def add(self, game: PlayedGame) -> None:
        """Count one game."""
        self.add_counts(game.counts)

    def add_counts(self, counts: GameCounts) -> None:
        """Count one game's :class:`GameCounts`."""
        self.games += 1
        self.ties += counts.ties
        self.pairs += counts.pairs
        for seat, (key, outcome, failure, think) in enumerate(counts.players):
            row = self.rows.get(key)
            if row is None:
                row = self.rows[key] = BotStanding(key[0], key[1], _UNRATED)
            row.games += 1
            row.think_time += think
            if outcome == WIN:
                row.wins += 1
            elif outcome == DRAW:
                row.draws += 1
            else:
                row.losses += 1
            if failure is not None:
                row.failures[failure] += 1
            self.seats[key] = min(seat, self.seats.get(key, seat))
            self.maps.setdefault((counts.map, key), [0, 0, 0])[outcome] += 1
        for key, other, first, against in counts.meetings:
            self.meetings.setdefault((key, other, first), [0, 0, 0])[against] += 1
        for seat, others, half in counts.seat_points:
            tally = self.seat_points.setdefault((seat, others), [0, 0, 0, 0])
            tally[0] += half
            tally[1] += 1
            tally[2] += half > others
            tally[3] += half < others

    def roles(self) -> tuple[str, ...]:
        """The roles of a game with roles, in seat order (empty for symmetric games)."""
        seats: dict[str, int] = {}
        for (_, role), seat in self.seats.items():
            if role is not None:
                seats[role] = min(seat, seats.get(role, seat))
        return tuple(sorted(seats, key=seats.__getitem__))

    def head_to_head(self) -> dict[tuple[str, str], tuple[float, int]]:
        """``(label, other label) -> (points, games)``; with roles one entry a meeting, the first role's
        (the cat's score against the mouse)."""
        scores: dict[tuple[str, str], tuple[float, int]] = {}
        for (key, other, first), (wins, draws, losses) in sorted(self.meetings.items(), key=_meeting_order):
            if key[1] is not None and not first:
                continue
            points, games = scores.get((key[0], other[0]), (0.0, 0))
            scores[(key[0], other[0])] = (points + wins + draws / 2, games + wins + draws + losses)
        return scores

    def draw_probability(self) -> float:
        """The smoothed draw rate of the games counted, as ratings use it."""
        return (self.ties + 1) / (self.pairs + 2)

    def standings(self, game_name: str, scheduled: int, ratings: Mapping[Key, Rating],
                  probability: float) -> Standings:
        """The standings of the games counted, with their ratings (by label and role) and draw probability."""
        roles = self.roles()
        rows = [replace(row, rating=ratings[key], failures=Counter(row.failures)) for key, row in self.rows.items()]
        ordered = sorted(rows, key=lambda r: (roles.index(r.role) if r.role in roles else 0,
                                              -r.rating.conservative, -r.score, r.label))
        return Standings(game_name, ordered, self.head_to_head(), self.games, scheduled, probability, roles)


def _meeting_order(item: tuple[tuple[Key, Key, bool], list[int]]) -> tuple[str, str, str, str, bool]:
    (key, other, first), _ = item
    return key[0], key[1] or "", other[0], other[1] or "", first


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
