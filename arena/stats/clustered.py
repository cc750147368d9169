"""A test over clusters: when the observations within a cluster are not independent (the games of one
repetition share a learning table), the unit of the test is the cluster, not the observation."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.stats.welch import student_two_sided


@dataclass(frozen=True)
class ClusteredTest:
    """Per-cluster differences ``d_i = first_i - second_i`` (``n`` clusters) tested for a mean of zero.

    The statistic::

        z = mean(d) / (sd(d) / sqrt(n))        (sd with n - 1)

    ``p_value`` is two-sided from Student's t with ``df = n - 1`` (for 100 clusters it is within 1% of the
    normal's). A zero ``sd`` gives ``z = 0`` (p = 1) for a zero mean and ``+-inf`` (p = 0) otherwise.
    """

    mean_difference: float
    sd: float
    z: float
    df: int
    p_value: float

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether ``p_value < alpha``."""
        return self.p_value < alpha


def clustered_test(first: Sequence[float], second: Sequence[float]) -> ClusteredTest | None:
    """The test of :class:`ClusteredTest` on one value per cluster for each side (``first[i]`` and
    ``second[i]`` belong to cluster ``i``); ``None`` with fewer than two clusters (no spread to test by)."""
    if len(first) != len(second):
        raise ValueError(f"{len(first)} values against {len(second)}: one per cluster on each side")
    n = len(first)
    if n < 2:
        return None
    differences = [a - b for a, b in zip(first, second, strict=True)]
    mean = sum(differences) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    if sd == 0:
        z = 0.0 if mean == 0 else math.copysign(math.inf, mean)
        return ClusteredTest(mean, 0.0, z, n - 1, 1.0 if mean == 0 else 0.0)
    z = mean / (sd / math.sqrt(n))
    return ClusteredTest(mean, sd, z, n - 1, student_two_sided(z, n - 1))
