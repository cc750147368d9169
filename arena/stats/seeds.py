"""Self-play runs of several seeds, pooled block by block: each side's and the draws' share of all the games, the
first player's share of the decided games (draws, games cut by the move cap, left out), and the seeds test on
that decided share: the mean over seeds of each seed's share of its decided games with a Student t interval,
which treats each seed as one observation (the honest interval when seeds disagree more than their games do),
and the one-sample t test of "the mean share of decided games is one half". The Wilson interval over the
pooled games treats the games as independent; it is of the first player's share of all the games."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from arena.stats.playability import LONG_GAME, BlockStats, decided_share, merged, summarise
from arena.stats.welch import student_two_sided


@dataclass(frozen=True)
class PooledRow:
    """One block (or the whole run) of several seeds' runs."""

    label: str
    seeds: int
    """Seeds with a decided game in the block: the observations of the seeds test."""
    games: int
    mean_moves: float
    sd_moves: float
    white: float
    """The first player's share of all the block's games."""
    white_interval: tuple[float, float]
    """Its 95% Wilson interval over the games."""
    seed_mean: float
    """The mean over seeds of each seed's share of its decided games (draws left out)."""
    seed_interval: tuple[float, float]
    """Its 95% Student t interval over seeds."""
    seed_min: float
    seed_max: float
    p_half: float
    """Two-sided p of the t test that the seeds' mean share of decided games is one half."""
    black: float
    """The second player's share of all the block's games."""
    draw: float
    """The draws' (by the move cap) share of all the block's games."""
    white_decided: float
    """The first player's share of the pooled decided games."""
    long: float
    """The share of games of more than :data:`LONG_GAME` moves per player."""

    def as_json(self) -> dict[str, object]:
        """The row as JSON-ready data."""
        return {"block": self.label, "seeds": self.seeds, "games": self.games,
                "mean_moves_per_player": self.mean_moves, "sd_moves": self.sd_moves, "white": self.white,
                "white_95": list(self.white_interval), "black": self.black, "draws": self.draw,
                "white_of_decided": self.white_decided, f"over_{LONG_GAME}_moves": self.long,
                "white_of_decided_seed_mean": self.seed_mean, "white_of_decided_seed_95": list(self.seed_interval),
                "white_of_decided_seed_min": self.seed_min, "white_of_decided_seed_max": self.seed_max,
                "p_seed_mean_of_decided_half": self.p_half}


def t_quantile(confidence: float, df: int) -> float:
    """The two-sided Student t quantile: ``P(|T| >= q) = 1 - confidence`` with ``df`` degrees of freedom."""
    low, high = 0.0, 1000.0
    for _ in range(200):
        middle = (low + high) / 2
        if student_two_sided(middle, df) > 1 - confidence:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def pooled_row(label: str, blocks: Sequence[BlockStats]) -> PooledRow:
    """The row of the same block of each seed's run; the seeds test is on each seed's share of its decided
    games (a seed that decided none in the block is left out of it)."""
    shares = [decided_share(block) for block in blocks if block.white + block.black]
    whole = summarise(merged(blocks), label)
    mean = statistics.fmean(shares) if shares else math.nan
    if len(shares) > 1:
        error = statistics.stdev(shares) / math.sqrt(len(shares))
        half_width = t_quantile(0.95, len(shares) - 1) * error
        interval = (mean - half_width, mean + half_width)
        t = (mean - 0.5) / error if error > 0 else (0.0 if mean == 0.5 else math.copysign(math.inf, mean - 0.5))
        p_half = student_two_sided(t, len(shares) - 1)
    else:
        interval, p_half = (math.nan, math.nan), math.nan
    return PooledRow(label, len(shares), whole.games, whole.mean_moves, whole.sd_moves, whole.white,
                     whole.white_interval, mean, interval, min(shares, default=math.nan),
                     max(shares, default=math.nan), p_half, whole.black, whole.draw, whole.white_decided, whole.long)


def pooled(runs: Sequence[Sequence[BlockStats]], block_size: int) -> list[PooledRow]:
    """One row per block of the seeds' runs (``0-10,000``, ...), then their whole runs."""
    rows = []
    for index in range(max((len(run) for run in runs), default=0)):
        start = index * block_size
        blocks = [run[index] for run in runs if index < len(run)]
        rows.append(pooled_row(f"{start:,}-{start + max(b.games for b in blocks):,}", blocks))
    rows.append(pooled_row("all", [merged(run) for run in runs]))
    return rows
