"""TrueSkill ratings, replayed game by game in schedule order so they never depend on timing.

Two-player games use the closed form of :mod:`arena.stats.two_player`; games of three or four players
the ``trueskill`` package's factor graph.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import trueskill

from arena.stats.two_player import draw_margin, two_player_update

MU = 25.0
SIGMA = MU / 3
_PRIOR = (MU, SIGMA)

P = TypeVar("P", bound=Hashable)
"""A player: whatever the caller keys ratings by (a bot label, a ``(bot id, role)`` pair)."""


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
    return smoothed_draw_rate(*pairwise_draw_rate(games))


def smoothed_draw_rate(ties: int, pairs: int) -> float:
    """``(ties + 1) / (pairs + 2)`` from counted tied seat pairs and seat pairs (see :func:`pairwise_draw_rate`)."""
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
    games: Sequence[tuple[Sequence[P], Sequence[int]]],
    history: list[tuple[int, P, float, float]] | None = None,
    *,
    probability: float | None = None,
    start: Mapping[P, Rating] | None = None,
) -> tuple[dict[P, Rating], float]:
    """Rate players from games ``(players by seat, ranks by seat)`` taken in order.

    The draw probability is ``probability`` if given, else the smoothed observed draw rate of ``games``.
    ``tau`` is 0: bots are fixed programs, so their skill does not drift between games and every game
    should count fully. Players start from their rating in ``start`` (to continue earlier ratings), else
    from the prior; the result holds every player of ``start`` and ``games``. With ``history``, each
    player's rating after each game is appended as ``(game position, player, mu, sigma)``.
    """
    if probability is None:
        probability = draw_probability([ranks for _, ranks in games])
    env = environment(probability)
    update, margin = two_player_update(env), draw_margin(env)
    current: dict[P, tuple[float, float]] = {
        player: (rating.mu, rating.sigma) for player, rating in (start or {}).items()}
    lookup, record = current.get, None if history is None else history.append
    for position, (players, ranks) in enumerate(games):
        if len(players) == 2:  # the common case, kept short
            first, second = players
            rated_first, rated_second = update(lookup(first, _PRIOR), lookup(second, _PRIOR), ranks, margin)
            current[first] = rated_first
            current[second] = rated_second
            if record is not None:
                record((position, first, *rated_first))
                record((position, second, *rated_second))
            continue
        # three or four players: the package's factor graph
        groups = [(env.create_rating(*current.get(player, _PRIOR)),) for player in players]
        after = [(rating.mu, rating.sigma) for (rating,) in env.rate(groups, ranks=list(ranks))]
        for player, rating in zip(players, after, strict=True):
            current[player] = rating
            if record is not None:
                record((position, player, *rating))
    return {player: Rating(*rating) for player, rating in current.items()}, probability


def rate_game(probability: float, before: Sequence[tuple[float, float]], ranks: Sequence[int]
              ) -> list[tuple[float, float]]:
    """The ``(mu, sigma)`` of each seat after one game with ``ranks``, from ``before``, rated as :func:`rate`
    rates each game (with draw probability ``probability``)."""
    if len(before) == 2:  # the draw probability enters only through the margin: one environment serves all
        margin = _TWO_PLAYERS.ppf((probability + 1) / 2.) * _SQRT_2 * _TWO_PLAYERS.beta  # as trueskill's
        return list(_UPDATE_TWO_PLAYERS(before[0], before[1], ranks, margin))
    env = environment(probability)
    groups = [(env.create_rating(mu, sigma),) for mu, sigma in before]
    return [(rating.mu, rating.sigma) for (rating,) in env.rate(groups, ranks=list(ranks))]


def environment(probability: float) -> trueskill.TrueSkill:
    """The TrueSkill environment every rating uses: ``tau = 0``, ``beta = sigma / 2``, the given draw rate."""
    return trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=0.0, draw_probability=probability)


_TWO_PLAYERS = environment(0.5)
"""For :func:`rate_game`'s two-player games, whose draw probability is given by the margin."""
_UPDATE_TWO_PLAYERS = two_player_update(_TWO_PLAYERS)
_SQRT_2 = math.sqrt(2)
