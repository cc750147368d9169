"""Statistics for comparing bots: how good each one is, and how sure we can be.

Every function here is pure and says its formula in its docstring. The conventions:

- A game's **score** for a player is 1 for a win, 1/2 for a draw, 0 for a loss.
- **Elo** is the logistic scale: a difference of ``D`` Elo means an expected score of
  ``1 / (1 + 10 ** (-D / 400))``, so +100 Elo scores about 64%, +400 about 91%.
- Intervals are two-sided at ``confidence`` (95% unless told), with normal quantiles computed exactly
  (``statistics.NormalDist``, accurate to double precision).
- Edge cases never raise and never return NaN: no games, all wins, all losses, all draws and proportions
  of 0 or 1 give finite numbers or explicit infinities, as each docstring says. Counts that are negative
  (or a malformed argument such as a confidence outside (0, 1)) are programming errors and raise
  ``ValueError``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Literal

import numpy as np

_NORMAL = NormalDist()
ELO_PER_NATURAL_UNIT = 400 / math.log(10)
"""Elo points per unit of natural log-odds: ``400 / ln 10``, about 173.7."""


# -- basics ---------------------------------------------------------------------------------------------------

def normal_cdf(x: float) -> float:
    """The standard normal distribution function ``Phi(x) = (1 + erf(x / sqrt 2)) / 2``; ``Phi(+-inf)`` is 1 or 0."""
    if math.isinf(x):
        return 1.0 if x > 0 else 0.0
    return 0.5 * math.erfc(-x / math.sqrt(2))


def normal_quantile(p: float) -> float:
    """The standard normal quantile ``Phi^-1(p)``: ``normal_quantile(0.975)`` is 1.959964.

    ``p = 0`` gives ``-inf`` and ``p = 1`` gives ``inf``; ``p`` outside [0, 1] raises ``ValueError``.
    """
    if not 0 <= p <= 1:
        raise ValueError(f"a probability must be in [0, 1], not {p}")
    if p == 0:
        return -math.inf
    if p == 1:
        return math.inf
    return _NORMAL.inv_cdf(p)


def _z(confidence: float) -> float:
    """The two-sided critical value for ``confidence``: ``Phi^-1((1 + confidence) / 2)``."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), not {confidence}")
    return normal_quantile((1 + confidence) / 2)


def _check_counts(*counts: float) -> None:
    for count in counts:
        if count < 0 or math.isnan(count):
            raise ValueError(f"counts must be non-negative, not {count}")


# -- score rate and Wilson interval ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoreRate:
    """A score rate with its interval: ``lower <= score <= upper``, all in [0, 1]."""

    score: float
    lower: float
    upper: float
    games: int


def wilson_interval(successes: float, trials: float, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``p = successes / trials``.

    With ``z = Phi^-1((1 + confidence) / 2)`` and ``n = trials``::

        centre    = (p + z^2 / (2n)) / (1 + z^2 / n)
        halfwidth = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / (4 n^2))

    Unlike ``p +- z sqrt(p (1 - p) / n)`` it stays inside [0, 1] and is not zero-width at ``p = 0`` or 1:
    ``n`` successes out of ``n`` give ``[n / (n + z^2), 1]``. With no trials the interval is ``[0, 1]``.
    ``successes`` may be fractional (a draw counts 1/2).
    """
    _check_counts(successes, trials)
    if successes > trials:
        raise ValueError(f"successes ({successes}) exceed trials ({trials})")
    z = _z(confidence)
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    shrink = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / shrink
    half = z / shrink * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    lower = 0.0 if successes == 0 else max(0.0, centre - half)
    upper = 1.0 if successes == trials else min(1.0, centre + half)
    return lower, upper


def score_rate(wins: int, draws: int, losses: int, confidence: float = 0.95) -> ScoreRate:
    """The score rate ``(wins + draws / 2) / games`` with its Wilson interval (see :func:`wilson_interval`).

    The Wilson interval treats each game as a coin flip; draws make scores less spread out than that,
    so with many draws the interval is wider than it needs to be (it errs on the safe side). With no
    games the score is 1/2 (no evidence either way) and the interval is ``[0, 1]``.
    """
    _check_counts(wins, draws, losses)
    games = wins + draws + losses
    points = wins + draws / 2
    lower, upper = wilson_interval(points, games, confidence)
    return ScoreRate(points / games if games else 0.5, lower, upper, games)


# -- comparing two proportions -------------------------------------------------------------------------------

@dataclass(frozen=True)
class ProportionTest:
    """Two proportions compared: ``p1 = successes1 / n1`` against ``p2 = successes2 / n2``.

    ``z`` is the unpooled statistic (the form used to compare strategies in Cloppert 2007), ``z_pooled``
    the statistic under the null hypothesis ``p1 = p2``. ``p_value`` is two-sided and comes from
    ``test``: ``"z"`` (the pooled z-test) when every cell of the 2x2 table holds at least ``min_count``
    events, else ``"fisher"`` (Fisher's exact test). ``lower`` and ``upper`` bound ``p1 - p2`` with
    the unpooled standard error.
    """

    p1: float
    p2: float
    difference: float
    z: float
    z_pooled: float
    p_value: float
    test: Literal["z", "fisher"]
    lower: float
    upper: float

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether ``p_value < alpha``."""
        return self.p_value < alpha


def _ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, with ``0 / 0 = 0`` and ``x / 0 = +-inf``."""
    if denominator > 0:
        return numerator / denominator
    if numerator == 0:
        return 0.0
    return math.copysign(math.inf, numerator)


def two_proportion_test(successes1: int, n1: int, successes2: int, n2: int, *, confidence: float = 0.95,
                        min_count: int = 10) -> ProportionTest:
    """Test whether two proportions differ, choosing the z-test or Fisher's exact test by the counts.

    With ``p_i = successes_i / n_i`` and ``q_i = 1 - p_i``::

        z        = (p1 - p2) / sqrt(p1 q1 / n1 + p2 q2 / n2)            (unpooled, Cloppert 2007, eq. 3)
        z_pooled = (p1 - p2) / sqrt(p q (1 / n1 + 1 / n2)),  p = (successes1 + successes2) / (n1 + n2)

    The two-sided p-value is ``2 Phi(-|z_pooled|)`` (the pooled form is the one that holds its stated
    false-positive rate when the proportions are equal). When any cell of the table
    ``[[successes1, n1 - successes1], [successes2, n2 - successes2]]`` holds fewer than ``min_count``
    events the normal approximation is poor, so the p-value is Fisher's exact test instead
    (:func:`fisher_exact`) and ``test`` says ``"fisher"``.

    Edge cases: a zero standard error gives ``z = 0`` when the proportions are equal and ``+-inf``
    otherwise (e.g. 10/10 against 0/10). With ``n1`` or ``n2`` zero there is nothing to compare: the
    empty side's proportion is reported as 0, the difference and both statistics are 0, the p-value
    is 1 and the interval is ``[-1, 1]``.
    """
    _check_counts(successes1, n1, successes2, n2)
    if successes1 > n1 or successes2 > n2:
        raise ValueError("successes cannot exceed trials")
    z_crit = _z(confidence)
    if n1 == 0 or n2 == 0:
        p1 = successes1 / n1 if n1 else 0.0
        p2 = successes2 / n2 if n2 else 0.0
        return ProportionTest(p1, p2, 0.0, 0.0, 0.0, 1.0, "fisher", -1.0, 1.0)
    p1, p2 = successes1 / n1, successes2 / n2
    difference = p1 - p2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    pooled = (successes1 + successes2) / (n1 + n2)
    se_pooled = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    z = _ratio(difference, se)
    z_pooled = _ratio(difference, se_pooled)
    cells = (successes1, n1 - successes1, successes2, n2 - successes2)
    if min(cells) < min_count:
        test: Literal["z", "fisher"] = "fisher"
        p_value = fisher_exact(successes1, n1 - successes1, successes2, n2 - successes2)
    else:
        test = "z"
        p_value = min(1.0, 2 * normal_cdf(-abs(z_pooled)))
    lower = max(-1.0, difference - z_crit * se)
    upper = min(1.0, difference + z_crit * se)
    return ProportionTest(p1, p2, difference, z, z_pooled, p_value, test, lower, upper)


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Fisher's exact test, two-sided, for the 2x2 table ``[[a, b], [c, d]]``.

    With the margins fixed, the top-left cell ``k`` follows the hypergeometric law
    ``P(k) = C(a + b, k) C(c + d, a + c - k) / C(n, a + c)``. The p-value is the total probability of
    every table no more likely than the one observed: ``sum of P(k) over k with P(k) <= P(a)`` (with a
    relative tolerance of 1e-7 so that tables exactly as likely count despite rounding). A table with an
    empty row or column has only one possible arrangement, so its p-value is 1.
    """
    _check_counts(a, b, c, d)
    row1, row2, col1 = a + b, c + d, a + c
    n = row1 + row2
    low, high = max(0, col1 - row2), min(row1, col1)
    base = _log_comb(n, col1)

    def log_p(k: int) -> float:
        return _log_comb(row1, k) + _log_comb(row2, col1 - k) - base

    observed = log_p(a)
    threshold = observed + math.log1p(1e-7)
    total = sum(math.exp(log_p(k)) for k in range(low, high + 1) if log_p(k) <= threshold)
    return min(1.0, total)


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided sign test of "neither bot is better" on the decisive games (draws say nothing).

    Under the null hypothesis each decisive game is a fair coin flip, so with ``n = wins + losses`` and
    ``k = min(wins, losses)`` the p-value is ``min(1, 2 * sum_{i <= k} C(n, i) / 2^n)``. No decisive
    games give 1.
    """
    _check_counts(wins, losses)
    n, k = wins + losses, min(wins, losses)
    if n == 0:
        return 1.0
    tail = sum(math.exp(_log_comb(n, i) - n * math.log(2)) for i in range(k + 1))
    return min(1.0, 2 * tail)


def success(opponent_losses: int, own_losses: int, games: int) -> float:
    """Cloppert's (2007, eq. 2) success measure: ``opponent_losses / games - own_losses / games``.

    It runs from -1 (lost every game) to +1 (won every game); a tie, where both or neither lose,
    helps neither side. In a two-player game without shared losses it equals ``(wins - losses) / games``,
    which is ``2 * score - 1`` when there are no draws. With no games it is 0.
    """
    _check_counts(opponent_losses, own_losses, games)
    if games == 0:
        return 0.0
    return opponent_losses / games - own_losses / games


# -- Elo difference, error and LOS ---------------------------------------------------------------------------

def elo_from_score(score: float) -> float:
    """The Elo difference with expected score ``score``: ``-400 log10(1 / score - 1)``.

    A score of 0 gives ``-inf`` and 1 gives ``inf``; outside [0, 1] raises ``ValueError``.
    """
    if not 0 <= score <= 1:
        raise ValueError(f"a score must be in [0, 1], not {score}")
    if score == 0:
        return -math.inf
    if score == 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def score_from_elo(elo: float) -> float:
    """The expected score at an Elo difference: ``1 / (1 + 10^(-elo / 400))`` (``+-inf`` give 1 and 0)."""
    if elo == math.inf:
        return 1.0
    if elo == -math.inf:
        return 0.0
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its error margin: the truth is in ``elo +- error`` at the stated confidence.

    ``los`` is the likelihood of superiority, the probability that the first bot is truly the stronger.
    ``samples`` counts games (or game pairs, for a pentanomial estimate); ``score`` is the mean score.
    """

    elo: float
    error: float
    los: float
    score: float
    samples: int


def _elo_estimate(values: Sequence[float], counts: Sequence[float], confidence: float) -> tuple[float, float, float]:
    """Mean score, Elo interval half-width and standard error of the mean for a discrete score law."""
    n = sum(counts)
    score = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    variance = sum(c * (v - score) ** 2 for v, c in zip(values, counts, strict=True)) / n
    se = math.sqrt(variance / n)
    z = _z(confidence)
    if score in (0.0, 1.0):
        return score, math.inf, se
    upper = elo_from_score(min(1.0, score + z * se))
    lower = elo_from_score(max(0.0, score - z * se))
    return score, (upper - lower) / 2, se


def elo_difference(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """The Elo difference from wins, draws and losses, with its error margin and LOS (as cutechess).

    With ``n`` games, score ``s = (wins + draws / 2) / n`` and per-game variance
    ``v = (wins (1 - s)^2 + draws (1/2 - s)^2 + losses s^2) / n``, the score's interval is
    ``s +- z sqrt(v / n)``; the Elo difference is ``elo(s)`` and the margin is half the width of the
    interval mapped to Elo: ``(elo(s + z sqrt(v/n)) - elo(s - z sqrt(v/n))) / 2``, with
    ``elo(x) = -400 log10(1/x - 1)``. The likelihood of superiority uses only decisive games:
    ``LOS = 1/2 + 1/2 erf((wins - losses) / sqrt(2 (wins + losses)))``.

    Edge cases: no games give ``0 +- inf`` with LOS 1/2; all wins give ``+inf +- inf`` and all losses
    ``-inf +- inf`` (LOS from the formula); an interval that reaches a score of 0 or 1 gives an infinite
    margin; all draws (no decisive game, so no measured spread) give ``0 +- 0`` with LOS 1/2. Like
    every normal approximation it needs a few dozen games to be trusted; below that, read the Wilson
    interval of :func:`score_rate`.
    """
    _check_counts(wins, draws, losses)
    games = wins + draws + losses
    los = 0.5 if wins + losses == 0 else 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2 * (wins + losses)))
    if games == 0:
        _z(confidence)
        return EloEstimate(0.0, math.inf, 0.5, 0.5, 0)
    score, error, _ = _elo_estimate((1.0, 0.5, 0.0), (wins, draws, losses), confidence)
    return EloEstimate(elo_from_score(score), error, los, score, games)


PENTANOMIAL_LABELS = ("LL", "LD", "DD+WL", "WD", "WW")
"""What each pentanomial count holds: game pairs scoring 0, 1/2, 1, 3/2 and 2 points out of 2."""


def pentanomial(pair_scores: Iterable[tuple[float, float]]) -> list[int]:
    """Count seat-swapped game pairs by their total score: ``[LL, LD, DD+WL, WD, WW]``.

    Each pair is the first bot's score in its two games (1, 1/2 or 0 each); a pair scoring ``t`` points
    lands in bucket ``2 t``.
    """
    counts = [0] * 5
    for first, second in pair_scores:
        total = first + second
        bucket = round(2 * total)
        if not 0 <= bucket <= 4 or abs(2 * total - bucket) > 1e-9:
            raise ValueError(f"a pair's scores must each be 0, 1/2 or 1, not {first} and {second}")
        counts[bucket] += 1
    return counts


def elo_difference_pairs(counts: Sequence[int], confidence: float = 0.95) -> EloEstimate:
    """The Elo difference from seat-swapped game pairs (the pentanomial model, as fastchess).

    ``counts`` are ``[LL, LD, DD+WL, WD, WW]`` (see :func:`pentanomial`): pairs whose mean score per
    game is ``a = 0, 1/4, 1/2, 3/4, 1``. With ``N`` pairs, mean ``s`` and per-pair variance
    ``v = sum count_a (a - s)^2 / N``, the score's interval is ``s +- z sqrt(v / N)``, mapped to Elo as in
    :func:`elo_difference`, and ``LOS = Phi((s - 1/2) / sqrt(v / N))``.

    Treating the pair, not the game, as the unit is right when the two games of a pair are correlated
    (same seed, same map, seats swapped): seat advantages cancel inside the pair, so the margin is
    honest and usually smaller than the trinomial one.

    Edge cases as :func:`elo_difference`: no pairs give ``0 +- inf`` with LOS 1/2; a mean of 0 or 1
    gives ``-inf`` or ``+inf`` with an infinite margin; all pairs in one bucket give a zero margin and
    LOS 1/2, 1 or 0 as the mean is equal to, above or below 1/2.
    """
    if len(counts) != 5:
        raise ValueError(f"a pentanomial has 5 counts (LL, LD, DD+WL, WD, WW), not {len(counts)}")
    _check_counts(*counts)
    pairs = sum(counts)
    if pairs == 0:
        _z(confidence)
        return EloEstimate(0.0, math.inf, 0.5, 0.5, 0)
    score, error, se = _elo_estimate((0.0, 0.25, 0.5, 0.75, 1.0), counts, confidence)
    if se > 0:
        los = normal_cdf((score - 0.5) / se)
    else:
        los = 0.5 if score == 0.5 else 1.0 if score > 0.5 else 0.0
    return EloEstimate(elo_from_score(score), error, los, score, int(pairs))


# -- many comparisons -----------------------------------------------------------------------------------------

def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given: reject hypothesis ``i`` when ``adjusted[i] <= alpha``.

    Sort the ``m`` p-values ascending as ``p_(1) <= ... <= p_(m)``; the adjusted value of the ``k``-th is
    ``max over j <= k of min(1, (m - j + 1) p_(j))``. This controls the chance of any false positive
    among all ``m`` comparisons at ``alpha`` with no assumption about how they depend on each other, and
    never rejects less than Bonferroni (``m p``). An empty list gives an empty list.
    """
    for p in p_values:
        if not 0 <= p <= 1:
            raise ValueError(f"p-values must be in [0, 1], not {p}")
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


# -- sequential probability ratio test ------------------------------------------------------------------------

def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's stopping bounds for the log-likelihood ratio: ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.

    Stop and accept H1 when the LLR reaches the upper bound, H0 when it reaches the lower one: the
    chance of accepting H1 when H0 holds is then about ``alpha``, and of accepting H0 when H1 holds
    about ``beta``. ``alpha = beta = 0.05`` give ``(-2.944, 2.944)``. Needs ``0 < alpha, beta`` and
    ``alpha + beta < 1``, else ``ValueError``.
    """
    if not (0 < alpha < 1 and 0 < beta < 1) or alpha + beta >= 1:
        raise ValueError(f"alpha and beta must be in (0, 1) with alpha + beta < 1, not {alpha} and {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


SPRT_REGULARIZATION = 1e-3
"""Empty outcome counts are replaced by this much when computing the LLR, as fishtest does."""


def _constrained_mle(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The law closest in likelihood to ``probs`` with the given mean: ``p_i / (1 + x (a_i - mean))``.

    ``x`` solves ``sum p_i (a_i - mean) / (1 + x (a_i - mean)) = 0`` on the interval where every
    ``1 + x (a_i - mean)`` is positive; the left side falls strictly there, so a safeguarded Newton
    iteration (bisection when a step leaves the bracket) finds the one root.
    """
    shifted = [a - mean for a in values]
    low, high = -1 / max(shifted), -1 / min(shifted)
    x = 0.0
    for _ in range(200):
        f = fp = 0.0
        for p, c in zip(probs, shifted, strict=True):
            term = c / (1 + x * c)
            f += p * term
            fp -= p * term * term
        if f > 0:
            low = x
        else:
            high = x
        step = x - f / fp if fp < 0 else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - x) <= 1e-15 * max(1.0, abs(x)):
            x = step
            break
        x = step
    return [p / (1 + x * c) for p, c in zip(probs, shifted, strict=True)]


def gsprt_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1: ``elo = elo1`` against H0: ``elo = elo0`` (as fishtest).

    ``counts`` are the frequencies of outcomes with scores spread evenly over [0, 1]: three for single
    games (losses, draws, wins: scores 0, 1/2, 1) or five for seat-swapped pairs (``[LL, LD, DD+WL, WD,
    WW]``: mean scores 0, 1/4, 1/2, 3/4, 1). Empty counts are replaced by 1e-3. With ``N`` the total and
    ``p`` the observed law, the expected scores under the hypotheses are ``s_k = 1 / (1 + 10^(-elo_k / 400))``
    (logistic Elo), and ``p_k`` is the law of largest likelihood with mean ``s_k``,
    ``p_k(a) = p(a) / (1 + x (a - s_k))`` (see :func:`_constrained_mle`). Then::

        LLR = N * sum_a p(a) log(p_1(a) / p_0(a))

    No outcomes give 0. Compare the result with :func:`sprt_bounds`.
    """
    if len(counts) not in (3, 5):
        raise ValueError(f"give 3 counts (losses, draws, wins) or 5 (a pentanomial), not {len(counts)}")
    _check_counts(*counts)
    if not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise ValueError("elo0 and elo1 must be finite")
    if sum(counts) == 0:
        return 0.0
    regularized = [c if c > 0 else SPRT_REGULARIZATION for c in counts]
    total = sum(regularized)
    probs = [c / total for c in regularized]
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    law0 = _constrained_mle(values, probs, score_from_elo(elo0))
    law1 = _constrained_mle(values, probs, score_from_elo(elo1))
    return total * sum(p * (math.log(q1) - math.log(q0)) for p, q0, q1 in zip(probs, law0, law1, strict=True))


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
        half = _z(self.confidence) * math.sqrt(var)
        return diff, diff - half, diff + half


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)


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
    z = _z(confidence)
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
        _check_counts(w, d, l_)
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
        n_games = int(round(np.sum(games[i])))
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
