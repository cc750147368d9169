"""How sure the standings are: intervals per bot, significance per pair, maps, seats, and run comparisons.

Everything is computed from :class:`arena.stats.standings.PlayedGame` lists, so it works the same for a
tournament just played and for a run read back from the database.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from arena.stats.bradley_terry import BTRating, bradley_terry
from arena.stats.elo import EloEstimate, elo_difference
from arena.stats.proportions import ScoreRate, holm, normal_cdf, score_rate, sign_test, success, wilson_interval
from arena.stats.standings import PlayedGame

ALPHA = 0.05
Key = tuple[str, str | None]  # bot label and role


def player_name(key: Key) -> str:
    """How a (bot, role) is named in pairwise tables: the bot, with its role in games with roles."""
    label, role = key
    return label if role is None else f"{label} ({role})"


def _points(mine: int, other: int) -> float:
    return 1.0 if mine < other else 0.5 if mine == other else 0.0


@dataclass(frozen=True)
class BotStats:
    """One bot's score with its Wilson interval, its Elo against the field, and its Bradley-Terry rating."""

    key: Key
    wins: int
    draws: int
    losses: int
    score: ScoreRate
    elo: EloEstimate
    bt: BTRating | None

    @property
    def success(self) -> float:
        """Cloppert's (2007) success measure: games won minus games lost, over games played (-1 to +1)."""
        return success(self.wins, self.losses, self.wins + self.draws + self.losses)


@dataclass(frozen=True)
class PairStats:
    """Bot ``a`` against bot ``b`` (named by :func:`player_name`): results, score, and the sign test's
    p-value before and after Holm."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    p_value: float
    p_holm: float

    @property
    def games(self) -> int:
        """Games (or pairwise comparisons, in multi-player games) between the two."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """``a``'s score against ``b``."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    @property
    def significant(self) -> bool:
        """Whether the difference survives Holm's correction at the 5% level."""
        return self.p_holm < ALPHA


@dataclass(frozen=True)
class MapStats:
    """One bot's score on one map."""

    map: str
    key: Key
    score: ScoreRate


@dataclass(frozen=True)
class SeatStats:
    """How a seat scored over all games: above 1/2 means sitting there is an advantage."""

    seat: int
    score: ScoreRate
    p_value: float


@dataclass(frozen=True)
class Analysis:
    """Everything the reports show beyond the standings."""

    bots: dict[Key, BotStats]
    pairs: list[PairStats]
    maps: list[MapStats]
    seats: list[SeatStats]


def _tally(played: Sequence[PlayedGame]) -> tuple[dict[Key, list[int]], dict[tuple[str, str], list[int]]]:
    per_bot: dict[Key, list[int]] = {}
    per_pair: dict[tuple[str, str], list[int]] = {}
    for game in played:
        best = min(game.ranks)
        alone = game.ranks.count(best) == 1
        for seat, key in enumerate(game.players):
            counts = per_bot.setdefault(key, [0, 0, 0])
            counts[0 if game.ranks[seat] == best and alone else 1 if game.ranks[seat] == best else 2] += 1
            for other, other_key in enumerate(game.players):
                if other != seat:
                    points = _points(game.ranks[seat], game.ranks[other])
                    pair = per_pair.setdefault((player_name(key), player_name(other_key)), [0, 0, 0])
                    pair[0 if points == 1 else 1 if points == 0.5 else 2] += 1
    return per_bot, per_pair


def analyse(played: Sequence[PlayedGame]) -> Analysis:
    """Intervals, pairwise significance (Holm-corrected), per-map scores and seat advantage."""
    per_bot, per_pair = _tally(played)
    # one orientation per pair: the fit adds up both orders, which would count every game twice
    once: dict[tuple[Hashable, Hashable], tuple[int, int, int]] = {
        (a, b): (w, d, l_) for (a, b), (w, d, l_) in per_pair.items() if a < b}
    fit = bradley_terry(once) if once else None
    bots = {
        key: BotStats(key, w, d, l_, score_rate(w, d, l_), elo_difference(w, d, l_),
                      fit.ratings.get(player_name(key)) if fit else None)
        for key, (w, d, l_) in per_bot.items()
    }
    unordered = sorted({tuple(sorted(pair)) for pair in per_pair})
    raw = [sign_test(per_pair[(a, b)][0], per_pair[(a, b)][2]) for a, b in unordered]
    adjusted = dict(zip(unordered, holm(raw), strict=True)) if raw else {}
    pairs = []
    for (a, b), (w, d, l_) in sorted(per_pair.items()):
        pair_key = tuple(sorted((a, b)))
        pairs.append(PairStats(a, b, w, d, l_, raw[unordered.index(pair_key)], adjusted[pair_key]))

    by_map: dict[tuple[str, Key], list[int]] = {}
    by_seat: dict[int, list[float]] = {}  # points, games, games above 1/2, games below 1/2
    for game in played:
        best = min(game.ranks)
        alone = game.ranks.count(best) == 1
        others = len(game.ranks) - 1
        for seat, key in enumerate(game.players):
            counts = by_map.setdefault((game.map or "-", key), [0, 0, 0])
            counts[0 if game.ranks[seat] == best and alone else 1 if game.ranks[seat] == best else 2] += 1
            score = sum(_points(game.ranks[seat], game.ranks[o]) for o in range(len(game.ranks)) if o != seat) / others
            tally = by_seat.setdefault(seat, [0.0, 0, 0, 0])
            tally[0] += score
            tally[1] += 1
            tally[2] += score > 0.5
            tally[3] += score < 0.5
    ordered_maps = sorted(by_map.items(), key=lambda item: (item[0][0], item[0][1][0]))
    maps = [MapStats(name, key, score_rate(*counts)) for (name, key), counts in ordered_maps]
    seats = [SeatStats(seat, _rate(points, int(games)), sign_test(int(better), int(worse)))
             for seat, (points, games, better, worse) in sorted(by_seat.items())]
    return Analysis(bots, pairs, maps, seats)


def _rate(points: float, games: int) -> ScoreRate:
    lower, upper = wilson_interval(points, games)
    return ScoreRate(points / games, lower, upper, games)


@dataclass(frozen=True)
class RatingChange:
    """A bot's TrueSkill rating in two runs and whether the change is more than noise."""

    label: str
    role: str | None
    mu_a: float
    sigma_a: float
    mu_b: float
    sigma_b: float

    @property
    def change(self) -> float:
        """``mu`` in run B minus ``mu`` in run A."""
        return self.mu_b - self.mu_a

    @property
    def z(self) -> float:
        """The change over its standard error (TrueSkill ratings are Gaussian)."""
        spread = math.hypot(self.sigma_a, self.sigma_b)
        return self.change / spread if spread else 0.0

    @property
    def p_value(self) -> float:
        """Two-sided p-value of "the rating did not change"."""
        return 2 * (1 - normal_cdf(abs(self.z)))

    @property
    def significant(self) -> bool:
        """Whether the change is significant at the 5% level."""
        return self.p_value < ALPHA


def compare_ratings(a: dict[Key, tuple[float, float]], b: dict[Key, tuple[float, float]]) -> list[RatingChange]:
    """Every bot in both rating tables ``{(label, role): (mu, sigma)}``, with its change."""
    return [RatingChange(key[0], key[1], *a[key], *b[key]) for key in sorted(a.keys() & b.keys(),
                                                                             key=lambda k: (k[1] or "", k[0]))]
