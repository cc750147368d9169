"""Score rates and their intervals, tests on proportions, and corrections for many comparisons.

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
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

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


def z_value(confidence: float) -> float:
    """The two-sided critical value for ``confidence``: ``Phi^-1((1 + confidence) / 2)``."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), not {confidence}")
    return normal_quantile((1 + confidence) / 2)


def check_counts(*counts: float) -> None:
    """Raise ``ValueError`` for a count that is negative or NaN."""
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
    check_counts(successes, trials)
    if successes > trials:
        raise ValueError(f"successes ({successes}) exceed trials ({trials})")
    z = z_value(confidence)
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
    check_counts(wins, draws, losses)
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
    check_counts(successes1, n1, successes2, n2)
    if successes1 > n1 or successes2 > n2:
        raise ValueError("successes cannot exceed trials")
    z_crit = z_value(confidence)
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
    check_counts(a, b, c, d)
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
    games give 1. The terms shrink from ``i = k`` down (each is ``i / (n - i + 1)`` of the one above), so the
    sum stops once what is left cannot change it: a few thousand terms however many games were played.
    """
    check_counts(wins, losses)
    n, k = wins + losses, min(wins, losses)
    if n == 0:
        return 1.0
    tail = 0.0
    for i in range(k, -1, -1):
        term = math.exp(_log_comb(n, i) - n * math.log(2))
        tail += term
        if term <= tail * _NEGLIGIBLE:
            break
    return min(1.0, 2 * tail)


_NEGLIGIBLE = 1e-20
"""A sign test's term this small beside the sum so far ends it: the terms left add less than rounding."""


def success(opponent_losses: int, own_losses: int, games: int) -> float:
    """Cloppert's (2007, eq. 2) success measure: ``opponent_losses / games - own_losses / games``.

    It runs from -1 (lost every game) to +1 (won every game); a tie, where both or neither lose,
    helps neither side. In a two-player game without shared losses it equals ``(wins - losses) / games``,
    which is ``2 * score - 1`` when there are no draws. With no games it is 0.
    """
    check_counts(opponent_losses, own_losses, games)
    if games == 0:
        return 0.0
    return opponent_losses / games - own_losses / games


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


