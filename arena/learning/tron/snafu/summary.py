"""The scaling experiment's figures: success curves over repetitions and each strategy's tests and verdict.

Success is the paper's equation 2 after each game; the paper compares the trained and untrained automata's
success on 30x30 (their asymptotes: the success after the last game). The games of one repetition share one
learning table, so they are not independent: the unit of the primary test is the repetition. It takes, per
repetition, the trained automaton's final success minus its untrained twin's and tests their mean against 0
(:func:`arena.stats.clustered.clustered_test`), and Holm's correction runs across the strategies of the run.
The verdict follows that test alone: its sign, and whether Holm's p is below 0.05.

Two secondary figures stay for comparison: the z of the paper's equation 3 (unpooled) on the win rates
pooled over repetitions, which treats the repetitions x games of each side as independent (``n`` is that
product), and Welch's t on the per-repetition final success (unpaired).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from arena.learning.tron.snafu.automaton import success_curve
from arena.learning.tron.snafu.experiment import Repetition, outcome_values
from arena.stats.clustered import ClusteredTest, clustered_test
from arena.stats.proportions import ProportionTest, holm, two_proportion_test
from arena.stats.welch import WelchTest, welch_test

ALPHA = 0.05
MEASURES = {
    "clustered": "primary: success (eq. 2) after the last 30x30 game, trained minus untrained, one difference "
                 "per repetition; t over repetitions, Holm's correction across the strategies of the run",
    "z": "secondary: eq. 3 on the 30x30 win rates pooled over repetitions, treating games as independent",
    "welch": "secondary: Welch's t on the per-repetition success after the last 30x30 game (unpaired)",
}
"""What each test measures, as the JSON output and the docs state it."""


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
    clustered: ClusteredTest | None = None
    """The primary test (None with one repetition)."""
    holm_p: float | None = None
    """The clustered test's p-value under Holm's correction across the run's strategies (see :func:`correct`)."""

    @property
    def verdict(self) -> str:
        """The primary test's verdict: see :func:`verdict`."""
        return verdict(self.clustered, self.holm_p)


def verdict(test: ClusteredTest | None, holm_p: float | None, alpha: float = ALPHA) -> str:
    """``trained better`` or ``trained worse`` by the sign of the clustered test when its Holm-corrected p is
    below ``alpha``, else ``no significant difference`` (or ``too few repetitions to test``)."""
    if test is None or holm_p is None:
        return "too few repetitions to test"
    if holm_p < alpha and test.z != 0:
        return "trained better" if test.z > 0 else "trained worse"
    return "no significant difference"


def correct(summaries: list[StrategySummary]) -> None:
    """Set each summary's :attr:`StrategySummary.holm_p`: Holm's correction of the clustered p-values across
    the strategies that have one."""
    tested = [summary for summary in summaries if summary.clustered is not None]
    adjusted = holm([summary.clustered.p_value for summary in tested if summary.clustered is not None])
    for summary, p in zip(tested, adjusted, strict=True):
        summary.holm_p = p


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
    """The curves and tests of a strategy's finished repetitions (at least one); Holm's correction needs the
    other strategies too: see :func:`correct`."""
    train = [success_curve(outcome_values(rep.train)) for rep in repetitions]
    trained = [success_curve(outcome_values(rep.trained)) for rep in repetitions]
    untrained = [success_curve(outcome_values(rep.untrained)) for rep in repetitions]
    games = sum(len(rep.trained) for rep in repetitions)
    trained_wins = sum(rep.trained.count("W") for rep in repetitions)
    untrained_wins = sum(rep.untrained.count("W") for rep in repetitions)
    z_test = two_proportion_test(trained_wins, games, untrained_wins, games)
    welch = (welch_test([row[-1] for row in trained], [row[-1] for row in untrained])
             if len(repetitions) > 1 else None)
    clustered = clustered_test([float(row[-1]) for row in trained], [float(row[-1]) for row in untrained])
    sizes = [np.array(rep.train_table) for rep in repetitions]
    return StrategySummary(strategy, len(repetitions), curve(train), curve(trained), curve(untrained),
                           curve(sizes), (trained_wins, untrained_wins, games), z_test, welch, table_growth(sizes),
                           [rep.decisive for rep in repetitions if rep.decisive is not None], clustered)


HEADERS = ["strategy", "reps", "15x15 success", "30x30 trained", "30x30 untrained", "table (15x15 end)",
           "decisive entries", "success difference", "clustered z", "p", "Holm p", "verdict",
           "wins trained/untrained", "pooled z (games as independent)", "p (pooled z)", "Welch t", "p (Welch)"]


def summary_row(summary: StrategySummary) -> list[str]:
    """The cells of a strategy's row under :data:`HEADERS`."""
    def mean_sd(found: Curve) -> str:
        mean, sd = found.final
        return f"{mean:+.3f} ± {sd:.3f}"

    welch, clustered = summary.welch, summary.clustered
    trained_wins, untrained_wins, games = summary.wins
    primary = (["-"] * 3 if clustered is None else
               [f"{clustered.mean_difference:+.3f}", f"{clustered.z:+.2f}", f"{clustered.p_value:.3g}"])
    return [summary.strategy, str(summary.reps), mean_sd(summary.train), mean_sd(summary.trained),
            mean_sd(summary.untrained), f"{summary.table_size.final[0]:,.0f}",
            f"{np.mean(summary.decisive):,.0f}" if summary.decisive else "-", *primary,
            "-" if summary.holm_p is None else f"{summary.holm_p:.3g}", summary.verdict,
            f"{trained_wins}/{untrained_wins} of {games}", f"{summary.z_test.z:+.2f}",
            f"{summary.z_test.p_value:.3g}", "-" if welch is None else f"{welch.t:+.2f}",
            "-" if welch is None else f"{welch.p_value:.3g}"]


GROWTH_HEADERS = ["strategy", "games", "entries added per game"]


def growth_rows(summary: StrategySummary) -> list[list[str]]:
    """The rows of a strategy's table growth per block of training games, under :data:`GROWTH_HEADERS`."""
    return [[summary.strategy, f"{first:,}-{last:,}", f"{per_game:.1f}"] for first, last, per_game in summary.growth]


def summary_json(summary: StrategySummary, reading: dict[str, str], frozen: bool = False,
                 readings_tried: int = 1) -> dict[str, object]:
    """A strategy's results as one JSON object: success (mean and sd over repetitions, after the last game) in
    training and on the large board, wins, the primary clustered test (``clustered_z``, its p and ``holm_p``)
    and the secondary ones (``z`` pooled over games, Welch's t), what each measures, the verdict, the table's
    growth per block of training games and its decisive entries. ``readings_tried`` (the readings tried
    before this one was chosen) is reported, with ``p_all_readings``: ``holm_p`` times it (Bonferroni over the
    readings, at most 1). Figures that are not finite are written as null by the caller's JSON writer."""
    def mean_sd(found: Curve) -> dict[str, float]:
        mean, sd = found.final
        return {"mean": mean, "sd": sd}

    trained_wins, untrained_wins, games = summary.wins
    welch, clustered, holm_p = summary.welch, summary.clustered, summary.holm_p
    return {
        "strategy": summary.strategy, "reading": reading, "frozen": frozen, "reps": summary.reps,
        "success": {"train": mean_sd(summary.train), "trained": mean_sd(summary.trained),
                    "untrained": mean_sd(summary.untrained)},
        "wins": {"trained": trained_wins, "untrained": untrained_wins, "games_each": games},
        "success_difference": None if clustered is None else clustered.mean_difference,
        "clustered_z": None if clustered is None else clustered.z,
        "clustered_df": None if clustered is None else clustered.df,
        "p_clustered": None if clustered is None else clustered.p_value,
        "holm_p": holm_p, "readings_tried": readings_tried,
        "p_all_readings": None if holm_p is None else min(1.0, holm_p * readings_tried),
        "z": summary.z_test.z, "p_z": summary.z_test.p_value,
        "welch_t": None if welch is None else welch.t, "p_welch": None if welch is None else welch.p_value,
        "measures": MEASURES, "verdict": summary.verdict, "table_entries": summary.table_size.final[0],
        "growth": [{"games": [first, last], "entries_per_game": per_game}
                   for first, last, per_game in summary.growth],
        "decisive_entries": {"mean": float(np.mean(summary.decisive)) if summary.decisive else None,
                             "per_repetition": summary.decisive},
    }
