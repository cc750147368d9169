"""TrueSkill ratings, replayed game by game in schedule order so they never depend on timing."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import trueskill

MU = 25.0
SIGMA = MU / 3


def pairwise_draw_rate(games: Iterable[Sequence[int]]) -> tuple[int, int]:
    """Count (tied seat pairs, seat pairs) over games given as rank tuples."""
    ties = pairs = 0
    for ranks in games:
        for i in range(len(ranks)):
            for j in range(i + 1, len(ranks)):
                pairs += 1
                ties += ranks[i] == ranks[j]
    return ties, pairs


def draw_probability(games: Sequence[Sequence[int]]) -> float:
    """The observed draw rate with Laplace smoothing, ``(ties + 1) / (pairs + 2)``: never 0, never 1."""
    ties, pairs = pairwise_draw_rate(games)
    return (ties + 1) / (pairs + 2)


@dataclass(frozen=True)
class Rating:
    """A TrueSkill rating: mean, uncertainty, and the conservative estimate ``mu - 3 sigma``."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the skill we are 99% sure the bot has at least."""
        return self.mu - 3 * self.sigma


def rate(
    games: Sequence[tuple[Sequence[Hashable], Sequence[int]]],
    history: list[tuple[int, Hashable, Rating]] | None = None,
) -> tuple[dict[Hashable, Rating], float]:
    """Rate players from games ``(players by seat, ranks by seat)`` taken in order.

    The draw probability is the smoothed observed draw rate. ``tau`` is 0: bots are fixed programs,
    so their skill does not drift between games and every game should count fully. With ``history``,
    each player's rating after each game is appended as ``(game position, player, rating)``.
    """
    probability = draw_probability([ranks for _, ranks in games])
    env = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=0.0, draw_probability=probability)
    current: dict[Hashable, trueskill.Rating] = {}
    for position, (players, ranks) in enumerate(games):
        groups = [(current.setdefault(player, env.create_rating()),) for player in players]
        updated = env.rate(groups, ranks=list(ranks))
        for player, (rating,) in zip(players, updated, strict=True):
            current[player] = rating
            if history is not None:
                history.append((position, player, Rating(rating.mu, rating.sigma)))
    return {player: Rating(r.mu, r.sigma) for player, r in current.items()}, probability
