"""Elo differences with their error and LOS, pentanomial pairs, and the generalized SPRT.

The conventions are those of :mod:`arena.stats.proportions`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.stats.proportions import check_counts, normal_cdf, z_value

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
    z = z_value(confidence)
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
    check_counts(wins, draws, losses)
    games = wins + draws + losses
    los = 0.5 if wins + losses == 0 else 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2 * (wins + losses)))
    if games == 0:
        z_value(confidence)
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
    check_counts(*counts)
    pairs = sum(counts)
    if pairs == 0:
        z_value(confidence)
        return EloEstimate(0.0, math.inf, 0.5, 0.5, 0)
    score, error, se = _elo_estimate((0.0, 0.25, 0.5, 0.75, 1.0), counts, confidence)
    los = normal_cdf((score - 0.5) / se) if se > 0 else 0.5 if score == 0.5 else 1.0 if score > 0.5 else 0.0
    return EloEstimate(elo_from_score(score), error, los, score, int(pairs))


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
    check_counts(*counts)
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


