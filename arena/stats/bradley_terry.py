"""Bradley-Terry ratings fitted from pairwise results, and rank agreement between two scorings.

The conventions are those of :mod:`arena.stats.proportions`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from arena.stats.proportions import ELO_PER_NATURAL_UNIT, check_counts, z_value

# -- Bradley-Terry ratings ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BTRating:
    """One bot's Bradley-Terry rating in Elo, with its interval and standard error (``inf`` if unknown)."""

    rating: float
    lower: float
    upper: float
    stderr: float
    games: int


@dataclass(frozen=True)
class BTFit:
    """A Bradley-Terry fit: a rating per bot, and what is needed to compare any two of them.

    ``covariance`` (Elo squared) is indexed like ``players``; ``group`` numbers the sets of bots linked
    by games (directly or through others). Ratings in different groups cannot be compared; when there
    is more than one group every rating's interval is infinite.
    """

    ratings: dict[Hashable, BTRating]
    players: tuple[Hashable, ...]
    covariance: np.ndarray = field(repr=False)
    group: dict[Hashable, int]
    confidence: float

    def difference(self, a: Hashable, b: Hashable) -> tuple[float, float, float]:
        """``rating(a) - rating(b)`` with its interval ``(difference, lower, upper)``.

        Infinite interval if the two bots are in different groups.
        """
        diff = self.ratings[a].rating - self.ratings[b].rating
        if self.group[a] != self.group[b]:
            return diff, -math.inf, math.inf
        i, j = self.players.index(a), self.players.index(b)
        var = max(0.0, self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j])
        half = z_value(self.confidence) * math.sqrt(var)
        return diff, diff - half, diff + half


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = -np.logaddexp(0.0, -x)
    return result


def _groups(players: Sequence[Hashable], games: np.ndarray) -> list[list[int]]:
    """Connected components of the graph 'these two bots played each other'."""
    unseen = set(range(len(players)))
    groups = []
    while unseen:
        start = min(unseen)
        stack, members = [start], []
        unseen.discard(start)
        while stack:
            i = stack.pop()
            members.append(i)
            for j in np.flatnonzero(games[i]):
                if int(j) in unseen:
                    unseen.discard(int(j))
                    stack.append(int(j))
        groups.append(sorted(members))
    return groups


def _reachable(adjacency: np.ndarray) -> int:
    """How many nodes a walk along ``adjacency`` (``i -> j`` where true) reaches from node 0."""
    seen, stack = {0}, [0]
    while stack:
        for j in np.flatnonzero(adjacency[stack.pop()]):
            if int(j) not in seen:
                seen.add(int(j))
                stack.append(int(j))
    return len(seen)


def _strongly_connected(scored: np.ndarray) -> bool:
    """Whether every bot scored against someone who scored against someone ... who scored against any other.

    Exactly then does the Bradley-Terry maximum-likelihood fit exist (Zermelo 1929, Ford 1957): otherwise
    some group of bots won every game against the rest, and its ratings run off to infinity.
    """
    k = len(scored)
    return _reachable(scored) == k and _reachable(scored.T) == k


def _fit_group(points: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximize ``sum_ij points_ij log P_ij`` with ``P_ij = sigmoid(t_i - t_j)``; return ``t`` (mean 0) and
    the information matrix (a graph Laplacian with weights ``games_ij P_ij (1 - P_ij)``)."""
    k = len(points)
    theta = np.zeros(k)
    ones = np.ones((k, k)) / k

    def objective(t: np.ndarray) -> float:
        diff = t[:, None] - t[None, :]
        return float(np.sum(points * _log_sigmoid(diff)))

    value = objective(theta)
    for _ in range(100):
        diff = theta[:, None] - theta[None, :]
        prob = 1 / (1 + np.exp(-diff))
        gradient = np.sum(points - games * prob, axis=1)
        weight = games * prob * (1 - prob)
        information = np.diag(weight.sum(axis=1)) - weight
        step = np.linalg.solve(information + ones, gradient)
        scale = 1.0
        while True:
            candidate = theta + scale * step
            new_value = objective(candidate)
            if new_value >= value - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, value = candidate - candidate.mean(), new_value
        if np.max(np.abs(scale * step)) < 1e-10:
            break
    diff = theta[:, None] - theta[None, :]
    prob = 1 / (1 + np.exp(-diff))
    weight = games * prob * (1 - prob)
    return theta, np.diag(weight.sum(axis=1)) - weight


def bradley_terry(
    results: Mapping[tuple[Hashable, Hashable], tuple[int, int, int]],
    *,
    players: Sequence[Hashable] | None = None,
    prior_draws: float = 1.0,
    anchor: Hashable | None = None,
    confidence: float = 0.95,
) -> BTFit:
    """A maximum-likelihood Bradley-Terry fit of all games, on the Elo scale, with intervals.

    ``results[(a, b)] = (wins, draws, losses)`` of ``a`` against ``b`` (both orders may be given; they
    are added up). The model: ``a``'s expected score against ``b`` is ``1 / (1 + 10^(-(R_a - R_b) / 400))``,
    the same curve as :func:`elo_difference`, so ratings read as Elo and, for two bots, the fit agrees
    with the Elo difference of their score.

    **Draws count as half a win and half a loss.** The alternative, a Davidson or Rao-Kupper model,
    adds a draw parameter and fits the odds of winning to losing; its ratings then measure something
    other than the expected score, so they would not line up with the score and Elo columns beside
    them. Counting draws as halves keeps one scale for every number. The cost is that the binomial
    likelihood overstates how much a game's score varies when draws are common, so the variance does
    not come from it: each game between ``a`` and ``b`` is taken to vary by
    ``v_ab = P_ab (1 - P_ab) - d_ab / 4``, where ``P_ab`` is the fitted expected score and ``d_ab`` the
    pair's observed draw rate (the score variance of a game with that mean and draw rate; it is the
    variance :func:`elo_difference` uses, with the fitted score in place of the observed one). The
    intervals are therefore the right width whether draws are rare or common.

    **Fitting.** Newton's method on ``sum (points log P + (games - points) log (1 - P))``. The maximum
    exists unless some group of bots won every game against the others (e.g. a bot that never lost);
    then, and only then, ``prior_draws`` virtual draws are added between every two bots that met (as
    BayesElo does), so such a bot gets a large but finite rating: the one it would have had with one more
    game, drawn, against each opponent. ``prior_draws`` must be positive.

    **Anchoring and intervals.** Ratings have mean 0 (or ``anchor`` is 0). With ``I`` the information
    matrix of the fit (a graph Laplacian with weights ``games_ab P_ab (1 - P_ab)``, virtual draws
    included, if any) and ``J`` the same with weights ``games_ab v_ab`` (real games only), the covariance is the
    sandwich ``I^+ J I^+`` (``I^+`` the pseudo-inverse, the inverse under the mean-zero constraint). Each
    interval is ``rating +- z sqrt(var)``: how sure we are of a bot's rating relative to the field's
    mean (or to the anchor, whose own interval is then zero-width).

    Edge cases: no games give ratings of 0 with infinite intervals; bots that never met anyone, or
    groups of bots that never met the others, make the fit disconnected and every interval infinite
    (ratings are centred within each group, and :meth:`BTFit.difference` still compares bots of one
    group); all draws give ratings of 0 and zero-width intervals (no measured spread, as in
    :func:`elo_difference`).
    """
    z = z_value(confidence)
    if not prior_draws > 0:
        raise ValueError(f"prior_draws must be positive, not {prior_draws}")
    names: list[Hashable] = list(players) if players is not None else []
    for a, b in results:
        for name in (a, b):
            if name not in names:
                names.append(name)
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    wins = np.zeros((k, k))
    draws = np.zeros((k, k))
    for (a, b), (w, d, l_) in results.items():
        check_counts(w, d, l_)
        if a == b:
            raise ValueError(f"a bot cannot play itself in a Bradley-Terry fit: {a!r}")
        i, j = index[a], index[b]
        wins[i, j] += w
        wins[j, i] += l_
        draws[i, j] += d
        draws[j, i] += d
    games = wins + wins.T + draws
    if anchor is not None and anchor not in index:
        raise ValueError(f"the anchor {anchor!r} is not one of the bots")

    groups = _groups(names, games)
    theta = np.zeros(k)
    information = np.zeros((k, k))
    played = games > 0
    for members in groups:
        if len(members) == 1:
            continue
        sub = np.ix_(members, members)
        scored = (wins[sub] + draws[sub]) > 0
        virtual = 0.0 if _strongly_connected(scored) else prior_draws * played[sub]
        points = wins[sub] + draws[sub] / 2 + virtual / 2
        t, info = _fit_group(points, games[sub] + virtual)
        theta[members] = t
        information[sub] = info

    # Each pair's games vary as their draws say: P (1 - P) - draws / (4 games) per game.
    diff = theta[:, None] - theta[None, :]
    prob = 1 / (1 + np.exp(-diff))
    with np.errstate(invalid="ignore", divide="ignore"):
        draw_rate = np.where(played, draws / np.where(played, games, 1), 0.0)
    variance = np.clip(prob * (1 - prob) - draw_rate / 4, 0.0, None) * games
    spread = np.diag(variance.sum(axis=1)) - variance
    linked = [members for members in groups if len(members) > 1]
    total_games = float(np.sum(np.triu(games, 1)))

    covariance = np.zeros((k, k))
    for members in linked:
        sub = np.ix_(members, members)
        inverse = np.linalg.pinv(information[sub], hermitian=True)
        covariance[sub] = inverse @ spread[sub] @ inverse
    if anchor is not None:
        a = index[anchor]
        members = next(m for m in groups if a in m)
        theta[members] -= theta[a]
        transform = np.eye(k)
        transform[members, a] -= 1
        covariance = transform @ covariance @ transform.T
    covariance *= ELO_PER_NATURAL_UNIT ** 2

    connected = len(groups) == 1 and total_games > 0
    group_of = {name: g for g, members in enumerate(groups) for name in (names[i] for i in members)}
    ratings = {}
    for name, i in index.items():
        rating = float(theta[i] * ELO_PER_NATURAL_UNIT)
        n_games = int(round(np.sum(games[i])))  # noqa: RUF046 - round() of a numpy number is one too
        if connected:
            stderr = math.sqrt(max(0.0, float(covariance[i, i])))
            ratings[name] = BTRating(rating, rating - z * stderr, rating + z * stderr, stderr, n_games)
        else:
            ratings[name] = BTRating(rating, -math.inf, math.inf, math.inf, n_games)
    return BTFit(ratings, tuple(names), covariance, group_of, confidence)


PairResults = dict[tuple[Hashable, Hashable], tuple[int, int, int]]
"""``{(a, b): (wins, draws, losses)}`` of ``a`` against ``b``."""


def pair_results(games: Iterable[tuple[Hashable, Hashable, float]]) -> PairResults:
    """Tally games ``(a, b, score of a)`` into ``{(a, b): (wins, draws, losses)}`` for :func:`bradley_terry`.

    Each unordered pair is keyed by the order in which it first appears.
    """
    tally: dict[tuple[Hashable, Hashable], list[int]] = {}
    for a, b, score in games:
        if (b, a) in tally:
            a, b, score = b, a, 1 - score
        counts = tally.setdefault((a, b), [0, 0, 0])
        if score == 1:
            counts[0] += 1
        elif score == 0.5:
            counts[1] += 1
        elif score == 0:
            counts[2] += 1
        else:
            raise ValueError(f"a game's score must be 0, 1/2 or 1, not {score}")
    return {key: (w, d, l_) for key, (w, d, l_) in tally.items()}


# -- rank agreement -------------------------------------------------------------------------------------------

def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's rank correlation (tau-b) between two scorings of the same items.

    ``tau_b = (concordant - discordant) / sqrt((n0 - ties_x) (n0 - ties_y))`` over the ``n0 = n (n - 1) / 2``
    pairs; 1 means the same order, -1 the reverse. Fewer than two items, or a scoring that ties
    everything, give 0 (no order to agree on).
    """
    if len(x) != len(y):
        raise ValueError("both scorings must cover the same items")
    n = len(x)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                ties_x += 1
            if dy == 0:
                ties_y += 1
            if dx * dy > 0:
                concordant += 1
            elif dx * dy < 0:
                discordant += 1
    pairs = n * (n - 1) // 2
    denominator = math.sqrt((pairs - ties_x) * (pairs - ties_y))
    return (concordant - discordant) / denominator if denominator else 0.0
