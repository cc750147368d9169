"""The design verdict of Kalles and Kanellopoulos (2001): what self-play learners' games say of a pawn-race
configuration, block by block and over the whole run.

Per block: mean moves per player and their spread, each side's share of the wins with its 95% Wilson
interval, the p-value of "white wins half the decided games" (exact sign test), the share of games won in
the fewest moves possible, the longest game, and the draws by the move cap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.learning.pawnrace.td_table import BlockStats
from arena.stats.proportions import sign_test, wilson_interval


@dataclass(frozen=True)
class PlayabilityRow:
    """One block of games (or the whole run), summarised."""

    label: str
    games: int
    mean_moves: float
    sd_moves: float
    white: float
    white_interval: tuple[float, float]
    black: float
    black_interval: tuple[float, float]
    p_half: float
    fastest: float
    longest: int
    draws: int

    def as_json(self) -> dict[str, object]:
        """The row as JSON-ready data."""
        return {"block": self.label, "games": self.games, "mean_moves_per_player": self.mean_moves,
                "sd_moves": self.sd_moves, "white": self.white, "white_95": list(self.white_interval),
                "black": self.black, "black_95": list(self.black_interval), "p_white_wins_half": self.p_half,
                "won_in_fewest_moves": self.fastest, "longest": self.longest, "draws_by_cap": self.draws}


def summarise(stats: BlockStats, label: str) -> PlayabilityRow:
    """The row of one block (or of a merged run)."""
    games = max(stats.games, 1)
    return PlayabilityRow(label, stats.games, stats.mean_moves, stats.sd_moves, stats.white / games,
                          wilson_interval(stats.white, stats.games) if stats.games else (math.nan, math.nan),
                          stats.black / games,
                          wilson_interval(stats.black, stats.games) if stats.games else (math.nan, math.nan),
                          sign_test(stats.white, stats.black),
                          stats.fastest / games, stats.longest, stats.draws)


def merged(blocks: Sequence[BlockStats]) -> BlockStats:
    """All blocks as one."""
    total = BlockStats()
    for block in blocks:
        total.games += block.games
        total.moves += block.moves
        total.moves_squared += block.moves_squared
        total.white += block.white
        total.black += block.black
        total.draws += block.draws
        total.longest = max(total.longest, block.longest)
        total.fastest += block.fastest
    return total


def playability(blocks: Sequence[BlockStats], block_size: int) -> list[PlayabilityRow]:
    """One row per block (``0-10,000``, ...), then the whole run."""
    rows = []
    start = 0
    for block in blocks:
        rows.append(summarise(block, f"{start:,}-{start + block.games:,}"))
        start += block_size
    rows.append(summarise(merged(blocks), "all"))
    return rows
