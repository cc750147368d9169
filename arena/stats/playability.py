"""The design verdict of Kalles and Kanellopoulos (2001) for any two-player game: what self-play games say
of a configuration, block by block and over the whole run.

Per block: mean moves per player and their spread, each side's share of the wins with its 95% Wilson
interval, the share of draws (by the move cap), the first player's share of the decided games (draws left
out) and the p-value of "the first player wins half the decided games" (exact sign test), the share of games
longer than :data:`LONG_GAME` moves per player (the paper: "almost all games last more than 100 moves"), the
share of games won in the fewest moves possible, the longest game, and the draws by the move cap. The learners
that play the games are in :mod:`arena.learning.playability`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.stats.proportions import sign_test, wilson_interval

LONG_GAME = 100
"""A game is long when each player made more than this many moves on average (over 200 moves of both sides):
the paper's "more than 100 moves", counted in its table's unit, moves per player."""


@dataclass
class BlockStats:
    """What the games of one block did: length (moves per player), wins by side, draws by the cap."""

    games: int = 0
    moves: float = 0.0
    moves_squared: float = 0.0
    white: int = 0
    """Games the first player won (``white`` in the pawn race)."""
    black: int = 0
    """Games the second player won."""
    draws: int = 0
    longest: int = 0
    fastest: int = 0
    """Games won in the fewest moves the winner could have won in, unopposed."""
    long_games: int = 0
    """Games of more than :data:`LONG_GAME` moves per player."""

    def add(self, winner: int | None, plies: int, fastest_win: int = 0) -> None:
        """Count one game of ``plies`` moves of both sides; ``fastest_win``: the fewest moves a side can win in."""
        per_player = plies / 2
        if winner is not None and (plies + 1 - winner) // 2 == fastest_win:
            self.fastest += 1
        self.games += 1
        self.moves += per_player
        self.moves_squared += per_player * per_player
        self.longest = max(self.longest, plies)
        if per_player > LONG_GAME:
            self.long_games += 1
        if winner is None:
            self.draws += 1
        elif winner == 0:
            self.white += 1
        else:
            self.black += 1

    @property
    def mean_moves(self) -> float:
        """Mean moves per player."""
        return self.moves / self.games if self.games else math.nan

    @property
    def sd_moves(self) -> float:
        """Standard deviation of the moves per player."""
        if self.games < 2:
            return math.nan
        mean = self.mean_moves
        return math.sqrt(max(self.moves_squared / self.games - mean * mean, 0.0) * self.games / (self.games - 1))


@dataclass(frozen=True)
class PlayabilityRow:
    """One block of games (or the whole run), summarised. Shares are of all the block's games unless named
    otherwise: ``white + black + draw`` is 1."""

    label: str
    games: int
    mean_moves: float
    sd_moves: float
    white: float
    white_interval: tuple[float, float]
    black: float
    black_interval: tuple[float, float]
    p_half: float
    """Two-sided p of the sign test that the first player wins half the decided games."""
    fastest: float
    longest: int
    draws: int
    """Games drawn (by the move cap), a count."""
    draw: float
    """Their share of the games."""
    white_decided: float
    """The first player's share of the decided games, ``white / (white + black)`` (NaN if none was decided)."""
    long: float
    """The share of games of more than :data:`LONG_GAME` moves per player."""

    def as_json(self, sides: tuple[str, str] = ("white", "black")) -> dict[str, object]:
        """The row as JSON-ready data, the players named ``sides`` (first, second)."""
        first, second = sides
        return {"block": self.label, "games": self.games, "mean_moves_per_player": self.mean_moves,
                "sd_moves": self.sd_moves, first: self.white, f"{first}_95": list(self.white_interval),
                second: self.black, f"{second}_95": list(self.black_interval), "draws": self.draw,
                f"{first}_of_decided": self.white_decided, f"p_{first}_wins_half": self.p_half,
                f"over_{LONG_GAME}_moves": self.long, "won_in_fewest_moves": self.fastest, "longest": self.longest,
                "draws_by_cap": self.draws}


def decided_share(stats: BlockStats) -> float:
    """The first player's share of the decided games (draws left out), NaN if none was decided."""
    decided = stats.white + stats.black
    return stats.white / decided if decided else math.nan


def summarise(stats: BlockStats, label: str) -> PlayabilityRow:
    """The row of one block (or of a merged run)."""
    games = max(stats.games, 1)
    return PlayabilityRow(label, stats.games, stats.mean_moves, stats.sd_moves, stats.white / games,
                          wilson_interval(stats.white, stats.games) if stats.games else (math.nan, math.nan),
                          stats.black / games,
                          wilson_interval(stats.black, stats.games) if stats.games else (math.nan, math.nan),
                          sign_test(stats.white, stats.black),
                          stats.fastest / games, stats.longest, stats.draws, stats.draws / games,
                          decided_share(stats), stats.long_games / games)


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
        total.long_games += block.long_games
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
