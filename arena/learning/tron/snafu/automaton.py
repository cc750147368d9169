"""A CLA playing a sequence of Snafu games against the pseudo-random opponent, learning after each game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from arena.engines.tron.snafu.features import parse_feature_set
from arena.engines.tron.snafu.reading import PAPER, Reading, rewarded_rounds
from arena.engines.tron.snafu.strategy import Strategy
from arena.engines.tron.snafu.table import Table
from arena.learning.tron.snafu.simulate import play_read_game, seed_games


@dataclass
class Session:
    """What a run of games left: each game's outcome for the CLA (1 win, -1 loss, 0 tie), its rounds, and the
    table's size after it."""

    outcomes: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    table_sizes: list[int] = field(default_factory=list)


class Automaton:
    """A CLA with a strategy, a table (empty unless given) and a reading of the paper's open points."""

    def __init__(self, strategy: Strategy, table: Table | None = None, reading: Reading = PAPER):
        self.strategy = strategy
        self.reading = reading
        self.codes = parse_feature_set(strategy.features)
        self.table = table if table is not None else Table(strategy.dim)
        if self.table.dim != strategy.dim:
            raise ValueError(f"a table of {self.table.dim}-number states cannot serve features "
                             f"{strategy.features} ({strategy.dim} numbers)")

    def reward(self, outcome: int) -> int:
        """The reward policy's value for an outcome (1 win, -1 loss, 0 tie)."""
        win, lose, tie = self.strategy.reward
        return win if outcome > 0 else lose if outcome < 0 else tie

    def play(self, width: int, height: int, games: int, seed: int, learn: bool = True,
             on_game: Callable[[int, int], None] | None = None) -> Session:
        """Play ``games`` games on an open ``width`` x ``height`` board, seeded by ``seed``; with ``learn`` the
        table is updated after every game. ``on_game(outcome, rounds)`` is called after each."""
        seed_games(seed)
        cells = width * height
        states = np.zeros((cells, self.strategy.dim))
        actions = np.zeros(cells, dtype=np.int64)
        kept = np.zeros(cells, dtype=np.int64)
        reading = self.reading.codes()
        record = np.zeros(4 + cells, dtype=np.int64)
        session = Session()
        table, c, t = self.table, float(self.strategy.c), float(self.strategy.t)
        for _ in range(games):
            outcome, rounds = play_read_game(width, height, self.codes, reading, table.units, table.scores,
                                             table.size, c, t, states, actions, kept, record)
            if learn:
                rows = rewarded_rounds(kept[:rounds], self.reading.credit)
                table.update(states[rows], actions[rows], self.reward(outcome), kept[rows])
            session.outcomes.append(int(outcome))
            session.rounds.append(int(rounds))
            session.table_sizes.append(len(table))
            if on_game is not None:
                on_game(int(outcome), int(rounds))
        return session


def success_curve(outcomes: list[int] | np.ndarray) -> np.ndarray:
    """Cloppert's success (eq. 2) after each game: (opponent's losses - own losses) / games so far."""
    values = np.asarray(outcomes, dtype=np.float64)
    return np.cumsum(values) / np.arange(1, len(values) + 1)
