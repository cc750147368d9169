"""Welch's t-test: do two samples' means differ, without assuming equal variances."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class WelchTest:
    """``t = (mean1 - mean2) / sqrt(var1 / n1 + var2 / n2)`` with Welch-Satterthwaite degrees of freedom ``df``
    and the two-sided ``p_value`` from Student's t distribution."""

    mean1: float
    mean2: float
    t: float
    df: float
    p_value: float

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether ``p_value < alpha``."""
        return self.p_value < alpha


def welch_test(sample1: Sequence[float], sample2: Sequence[float]) -> WelchTest:
    """Welch's two-sample t-test (sample variances with ``n - 1``). Each sample needs two values or more.

    When both variances are zero the statistic is 0 for equal means (p = 1) and infinite otherwise (p = 0).
    """
    n1, n2 = len(sample1), len(sample2)
    if n1 < 2 or n2 < 2:
        raise ValueError("Welch's test needs at least two values in each sample")
    mean1, mean2 = sum(sample1) / n1, sum(sample2) / n2
    var1 = sum((x - mean1) ** 2 for x in sample1) / (n1 - 1)
    var2 = sum((x - mean2) ** 2 for x in sample2) / (n2 - 1)
    a, b = var1 / n1, var2 / n2
    if a + b == 0:
        same = mean1 == mean2
        return WelchTest(mean1, mean2, 0.0 if same else math.copysign(math.inf, mean1 - mean2),
                         float(n1 + n2 - 2), 1.0 if same else 0.0)
    t = (mean1 - mean2) / math.sqrt(a + b)
    df = (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
    return WelchTest(mean1, mean2, t, df, student_two_sided(t, df))


def student_two_sided(t: float, df: float) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``df`` degrees of freedom: ``I_{df / (df + t^2)}(df / 2, 1 / 2)``."""
    if math.isinf(t):
        return 0.0
    return min(1.0, regularized_beta(df / (df + t * t), df / 2, 0.5))


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` by its continued fraction (Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast only below this point: use the symmetry
        return 1.0 - regularized_beta(1.0 - x, b, a)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return math.exp(log_front) * result / a
