"""Playing a pawn-race TD(lambda) model: its file, and the greedy move by its table or its network.

:mod:`arena.learning.pawnrace` trains the models (``arena train pawnrace-td``); the ``td`` bot plays them with
what is here: :func:`load_model` reads a model file, :func:`choose` picks the move a table values most, and
:class:`Features`, :class:`Network` and :func:`choose_by_network` do the same with a network (one hidden
layer of sigmoid units; the trainer updates it through :meth:`Network.value_and_gradient` and
:meth:`Network.step`).
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.json_files import read_json_file, write_json_atomically
from arena.games.pawnrace.rules import BLACK, WHITE, Position, Setup, Square, legal_moves, play, square_name

MODEL_FORMAT = "arena-pawnrace-td/1"
"""The ``format`` field of a model file (``kind`` is ``table`` or ``network``)."""


KEYS = ("full", "paper")
"""How a table keys a position: ``full`` with the waiting pawns, ``paper`` without them, as the paper's key
(the active pawns' squares of both sides) has it."""


def position_key(position: Position, key: str = "full") -> str:
    """A position as text: white's squares, black's, waiting pawns (not with ``key="paper"``), side to move
    (``c3|d4,e4|0,1|b``; ``c3|d4,e4|b``)."""
    white, black = _squares_text(position.pawns[0]), _squares_text(position.pawns[1])
    if key == "paper":
        return f"{white}|{black}|{'wb'[position.to_move]}"
    return f"{white}|{black}|{position.waiting[0]},{position.waiting[1]}|{'wb'[position.to_move]}"


@lru_cache(maxsize=1 << 16)
def _squares_text(squares: frozenset[Square]) -> str:
    return ",".join(square_name(square) for square in sorted(squares))


def choose(setup: Setup, table: dict[str, float], position: Position, win_reward: float,
           rng: random.Random | None = None, greedy: float = 1.0, key: str = "full") -> tuple[Any, Position, float]:
    """The move a learner plays (greedy over afterstates, or at random with probability ``1 - greedy``), the
    position it leaves and that position's value to the learner (its table keyed by ``key``)."""
    moves = legal_moves(setup, position)
    options = []
    for move in moves:
        after = play(setup, position, move)
        options.append((move, after, _afterstate_value(table, after, position.to_move, win_reward, key)))
    if rng is not None and rng.random() >= greedy:
        return options[rng.randrange(len(options))]
    best = max(value for _, _, value in options)
    ties = [option for option in options if option[2] == best]
    return ties[rng.randrange(len(ties))] if rng is not None and len(ties) > 1 else ties[0]


def _afterstate_value(table: dict[str, float], after: Position, side: int, win_reward: float, key: str) -> float:
    if after.over:
        return 0.0 if after.winner is None else win_reward if after.winner == side else -win_reward
    return table.get(position_key(unmoved(after), key), 0.0)


def unmoved(position: Position) -> Position:
    """``position`` without its move count, as the tables key afterstates."""
    return Position(position.pawns, position.waiting, position.to_move)


def save_model(path: Path, data: dict[str, Any]) -> None:
    """Write a model or checkpoint file (JSON) atomically, creating its folder."""
    write_json_atomically(path, data)


def load_model(path: str | Path) -> dict[str, Any]:
    """Read a model file; any problem is a one-line error naming the file."""
    data = read_json_file(path, "no such model file", "not a readable JSON model")
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT or data.get("kind") not in ("table",
                                                                                                    "network"):
        raise ArenaError(f"{path}: not a pawn-race TD model (format {MODEL_FORMAT})")
    return data


INPUTS = ("parts", "printed")
"""The network's inputs: ``parts``, the sum of the paper's parts (two per free square, one a side: 2(n^2 - 2a^2)
+ 10), or ``printed``, the paper's printed count n^2 - 2a^2 + 10 (one per free square: 1 for a white pawn,
-1 for a black one)."""


class Features:
    """Turns positions into the network's inputs for one configuration (``inputs``: ``parts`` or ``printed``)."""

    def __init__(self, setup: Setup, inputs: str = "parts"):
        self.setup = setup
        self.squares = [(x, y) for y in range(setup.n) for x in range(setup.n)
                        if not setup.in_base(WHITE, (x, y)) and not setup.in_base(BLACK, (x, y))]
        self.index = {square: i for i, square in enumerate(self.squares)}
        self.per_square = 1 if inputs == "printed" else 2
        self.size = self.per_square * len(self.squares) + 2 + 8

    def __call__(self, position: Position) -> np.ndarray:
        """The input vector of ``position``."""
        row = np.zeros(self.size)
        for side in (WHITE, BLACK):
            for square in position.pawns[side]:
                if self.per_square == 1:
                    row[self.index[square]] = 1.0 if side == WHITE else -1.0
                else:
                    row[2 * self.index[square] + side] = 1.0
        flags = self.per_square * len(self.squares)
        if position.winner is not None and position.reason.endswith("base"):
            row[flags + position.winner] = 1.0
        beta = max(self.setup.pawns, 1)
        for side in (WHITE, BLACK):
            for bin_index, share in enumerate((0.0, 0.25, 0.5, 0.75)):
                row[flags + 2 + 4 * side + bin_index] = float(position.waiting[side] > share * beta)
        return row


class Network:
    """One hidden layer of sigmoid units and a sigmoid output: the chance its side wins."""

    def __init__(self, inputs: int, rng: np.random.Generator | None = None, weights: dict[str, Any] | None = None,
                 scale: float = 0.5):
        """Weights given, or each drawn by ``rng`` uniform in [-``scale``, ``scale``]."""
        hidden = max(inputs // 2, 1)
        if weights is not None:
            self.w1, self.b1 = np.array(weights["w1"], dtype=float), np.array(weights["b1"], dtype=float)
            self.w2, self.b2 = np.array(weights["w2"], dtype=float), float(weights["b2"])
        else:
            assert rng is not None
            self.w1 = rng.uniform(-scale, scale, (inputs, hidden))
            self.b1 = rng.uniform(-scale, scale, hidden)
            self.w2 = rng.uniform(-scale, scale, hidden)
            self.b2 = float(rng.uniform(-scale, scale))

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The network's output for each row of ``rows``."""
        hidden = 1.0 / (1.0 + np.exp(-(rows @ self.w1 + self.b1)))
        output: np.ndarray = 1.0 / (1.0 + np.exp(-(hidden @ self.w2 + self.b2)))
        return output

    def value_and_gradient(self, row: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The output for one input row, and its gradient by weight array (w1, b1, w2, b2)."""
        hidden = 1.0 / (1.0 + np.exp(-(row @ self.w1 + self.b1)))
        output = 1.0 / (1.0 + math.exp(-(float(hidden @ self.w2) + self.b2)))
        d_out = output * (1.0 - output)
        d_hidden = d_out * self.w2 * hidden * (1.0 - hidden)
        return output, [np.outer(row, d_hidden), d_hidden, d_out * hidden, np.array(d_out)]

    def step(self, change: list[np.ndarray]) -> None:
        """Add ``change`` (shaped as the gradient) to the weights."""
        self.w1 += change[0]
        self.b1 += change[1]
        self.w2 += change[2]
        self.b2 += float(change[3])

    def weights(self) -> dict[str, Any]:
        """The weights as JSON-ready lists."""
        return {"w1": self.w1.tolist(), "b1": self.b1.tolist(), "w2": self.w2.tolist(), "b2": self.b2}


def choose_by_network(setup: Setup, network: Network, features: Features, position: Position,
                      rng: random.Random | None = None, greedy: float = 1.0) -> tuple[Any, Position]:
    """The move a network player plays: the afterstate it rates most likely a win (a winning move at once;
    a losing one never), or a random move with probability ``1 - greedy``."""
    moves = legal_moves(setup, position)
    afters = [play(setup, position, move) for move in moves]
    if rng is not None and rng.random() >= greedy:
        index = rng.randrange(len(moves))
        return moves[index], afters[index]
    side = position.to_move
    scores = network.values(np.array([features(after) for after in afters]))
    for index, after in enumerate(afters):
        if after.over:
            scores[index] = 2.0 if after.winner == side else 0.5 if after.winner is None else -1.0
    best = float(scores.max())
    ties = [i for i, score in enumerate(scores) if score == best]
    index = ties[rng.randrange(len(ties))] if rng is not None and len(ties) > 1 else ties[0]
    return moves[index], afters[index]
