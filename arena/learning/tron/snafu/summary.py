"""The scaling experiment's figures: success curves over repetitions and each strategy's verdict.

Success is the paper's equation 2 after each game. The z-test is equation 3 (unpooled) on the win rates of
the trained and untrained automata over their large-board games, pooled over repetitions: ``n`` is
repetitions x games for each side. Welch's test compares the per-repetition success after the last
large-board game. A test counts as clearing when its statistic exceeds 1.96 (trained better, two-sided 5%).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from arena.learning.tron.snafu.automaton import success_curve
from arena.learning.tron.snafu.experiment import Repetition, outcome_values
from arena.stats.proportions import ProportionTest, two_proportion_test
from arena.stats.welch import WelchTest, welch_test

CRITICAL = 1.96


@dataclass
class Curve:
    """Mean and standard deviation over repetitions of the success after each game."""

    mean: np.ndarray
    sd: np.ndarray

    @property
    def final(self) -> tuple[float, float]:
        """The mean and sd after the last game."""
        return float(self.mean[-1]), float(self.sd[-1])


@dataclass
class StrategySummary:
    """One strategy's results over its repetitions."""

    strategy: str
    reps: int
    train: Curve
    trained: Curve
    untrained: Curve
    table_size: Curve
    wins: tuple[int, int, int]
    """Wins of the trained and of the untrained automaton on the large board, and games each side played."""
    z_test: ProportionTest
    welch: WelchTest | None
    growth: list[tuple[int, int, float]]
    """Per block of training games (first and last game, from 1): table entries added per game, mean over
    repetitions."""
    decisive: list[int]
    """Per repetition (those that recorded it): the table's decisive entries after training."""

    @property
    def verdict(self) -> str:
        """Which tests find the trained automaton better (or worse) at the 1.96 level."""
        z_better, z_worse = self.z_test.z > CRITICAL, self.z_test.z < -CRITICAL
        w_better = self.welch is not None and self.welch.t > CRITICAL
        w_worse = self.welch is not None and self.welch.t < -CRITICAL
        if z_better and w_better:
            return "trained better (z and Welch)"
        if z_better or w_better:
            return f"trained better ({'z' if z_better else 'Welch'} only)"
        if z_worse or w_worse:
            return "trained worse"
        return "no significant difference"


def curve(rows: list[np.ndarray]) -> Curve:
    """Mean and sd (with n - 1; 0 for one row) over equally long ``rows``."""
    data = np.array(rows, dtype=np.float64)
    sd = data.std(axis=0, ddof=1) if len(rows) > 1 else np.zeros(data.shape[1])
    return Curve(data.mean(axis=0), sd)


BLOCKS = 10


def table_growth(sizes: list[np.ndarray], blocks: int = BLOCKS) -> list[tuple[int, int, float]]:
    """Entries added per game in each of ``blocks`` equal blocks of games (fewer when there are fewer games; the
    last block takes what is left), mean over the runs whose table size after each game is ``sizes``."""
    mean = np.mean(np.array(sizes, dtype=np.float64), axis=0)
    games = len(mean)
    edges = sorted({round(games * i / min(blocks, games)) for i in range(min(blocks, games) + 1)})
    found = []
    for start, end in pairwise(edges):
        before = mean[start - 1] if start else 0.0
        found.append((start + 1, end, float((mean[end - 1] - before) / (end - start))))
    return found


def summarise(strategy: str, repetitions: list[Repetition]) -> StrategySummary:
    """The curves and tests of a strategy's finished repetitions (at least one)."""
    train = [success_curve(outcome_values(rep.train)) for rep in repetitions]
    trained = [success_curve(outcome_values(rep.trained)) for rep in repetitions]
    untrained = [success_curve(outcome_values(rep.untrained)) for rep in repetitions]
    games = sum(len(rep.trained) for rep in repetitions)
    trained_wins = sum(rep.trained.count("W") for rep in repetitions)
    untrained_wins = sum(rep.untrained.count("W") for rep in repetitions)
    z_test = two_proportion_test(trained_wins, games, untrained_wins, games)
    welch = (welch_test([row[-1] for row in trained], [row[-1] for row in untrained])
             if len(repetitions) > 1 else None)
    sizes = [np.array(rep.train_table) for rep in repetitions]
    return StrategySummary(strategy, len(repetitions), curve(train), curve(trained), curve(untrained),
                           curve(sizes), (trained_wins, untrained_wins, games), z_test, welch, table_growth(sizes),
                           [rep.decisive for rep in repetitions if rep.decisive is not None])


HEADERS = ["strategy", "reps", "15x15 success", "30x30 trained", "30x30 untrained", "table (15x15 end)",
           "decisive entries", "wins trained/untrained", "z (eq. 3)", "p (z)", "Welch t", "p (Welch)", "verdict"]


def summary_row(summary: StrategySummary) -> list[str]:
    """The cells of a strategy's row under :data:`HEADERS`."""
    def mean_sd(found: Curve) -> str:
        mean, sd = found.final
        return f"{mean:+.3f} ± {sd:.3f}"

    welch = summary.welch
    trained_wins, untrained_wins, games = summary.wins
    return [summary.strategy, str(summary.reps), mean_sd(summary.train), mean_sd(summary.trained),
            mean_sd(summary.untrained), f"{summary.table_size.final[0]:,.0f}",
            f"{np.mean(summary.decisive):,.0f}" if summary.decisive else "-",
            f"{trained_wins}/{untrained_wins} of {games}", f"{summary.z_test.z:+.2f}",
            f"{summary.z_test.p_value:.3g}", "-" if welch is None else f"{welch.t:+.2f}",
            "-" if welch is None else f"{welch.p_value:.3g}", summary.verdict]


GROWTH_HEADERS = ["strategy", "games", "entries added per game"]


def growth_rows(summary: StrategySummary) -> list[list[str]]:
    """The rows of a strategy's table growth per block of training games, under :data:`GROWTH_HEADERS`."""
    return [[summary.strategy, f"{first:,}-{last:,}", f"{per_game:.1f}"] for first, last, per_game in summary.growth]


def summary_json(summary: StrategySummary, reading: dict[str, str]) -> dict[str, object]:
    """A strategy's results as one JSON object: success (mean and sd over repetitions, after the last game) in
    training and on the large board, wins, the z and Welch tests, the table's growth per block of training
    games and its decisive entries."""
    def mean_sd(found: Curve) -> dict[str, float]:
        mean, sd = found.final
        return {"mean": mean, "sd": sd}

    trained_wins, untrained_wins, games = summary.wins
    welch = summary.welch
    return {
        "strategy": summary.strategy, "reading": reading, "reps": summary.reps,
        "success": {"train": mean_sd(summary.train), "trained": mean_sd(summary.trained),
                    "untrained": mean_sd(summary.untrained)},
        "wins": {"trained": trained_wins, "untrained": untrained_wins, "games_each": games},
        "z": summary.z_test.z, "p_z": summary.z_test.p_value,
        "welch_t": None if welch is None else welch.t, "p_welch": None if welch is None else welch.p_value,
        "verdict": summary.verdict, "table_entries": summary.table_size.final[0],
        "growth": [{"games": [first, last], "entries_per_game": per_game}
                   for first, last, per_game in summary.growth],
        "decisive_entries": {"mean": float(np.mean(summary.decisive)) if summary.decisive else None,
                             "per_repetition": summary.decisive},
    }
