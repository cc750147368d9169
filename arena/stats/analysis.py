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
from arena.stats.standings import PlayedGame, StandingsTally

ALPHA = 0.05
Key = tuple[str, str | None]  # bot label and role


def player_name(key: Key) -> str:
    """How a (bot, role) is named in pairwise tables: the bot, with its role in games with roles."""
    label, role = key
    return label if role is None else f"{label} ({role})"


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


def analyse(played: Sequence[PlayedGame]) -> Analysis:
    """Intervals, pairwise significance (Holm-corrected), per-map scores and seat advantage."""
    tally = StandingsTally()
    for game in played:
        tally.add(game)
    return analyse_tally(tally)


def analyse_tally(tally: StandingsTally) -> Analysis:
    """:func:`analyse` from the counts of the games (kept as they were played, or by the store)."""
    per_pair: dict[tuple[str, str], list[int]] = {}
    for (key, other, _), counts in sorted(tally.meetings.items(), key=_meeting_order):  # the fit follows this order
        pair = per_pair.setdefault((player_name(key), player_name(other)), [0, 0, 0])
        for outcome, count in enumerate(counts):
            pair[outcome] += count
    # one orientation per pair: the fit adds up both orders, which would count every game twice
    once: dict[tuple[Hashable, Hashable], tuple[int, int, int]] = {
        (a, b): (w, d, l_) for (a, b), (w, d, l_) in per_pair.items() if a < b}
    fit = bradley_terry(once) if once else None
    bots = {
        key: BotStats(key, row.wins, row.draws, row.losses, score_rate(row.wins, row.draws, row.losses),
                      elo_difference(row.wins, row.draws, row.losses),
                      fit.ratings.get(player_name(key)) if fit else None)
        for key, row in tally.rows.items()
    }
    unordered = sorted({tuple(sorted(pair)) for pair in per_pair})
    raw = [sign_test(per_pair[(a, b)][0], per_pair[(a, b)][2]) for a, b in unordered]
    adjusted = dict(zip(unordered, holm(raw), strict=True)) if raw else {}
    pairs = []
    for (a, b), (w, d, l_) in sorted(per_pair.items()):
        pair_key = tuple(sorted((a, b)))
        pairs.append(PairStats(a, b, w, d, l_, raw[unordered.index(pair_key)], adjusted[pair_key]))

    ordered_maps = sorted(tally.maps.items(), key=lambda item: (item[0][0], item[0][1][0], item[0][1][1] or ""))
    maps = [MapStats(name, key, score_rate(*counts)) for (name, key), counts in ordered_maps]
    by_seat: dict[int, list[float]] = {}  # points, games, games above 1/2, games below 1/2
    for (seat, others), (half, games, better, worse) in sorted(tally.seat_points.items()):
        totals = by_seat.setdefault(seat, [0.0, 0, 0, 0])
        totals[0] += half / (2 * others)
        totals[1] += games
        totals[2] += better
        totals[3] += worse
    seats = [SeatStats(seat, _rate(points, int(games)), sign_test(int(better), int(worse)))
             for seat, (points, games, better, worse) in sorted(by_seat.items())]
    return Analysis(bots, pairs, maps, seats)


def _meeting_order(item: tuple[tuple[Key, Key, bool], list[int]]) -> tuple[str, str, str, str, bool]:
    (key, other, first), _ = item
    return key[0], key[1] or "", other[0], other[1] or "", first


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
