"""TD(lambda) self-play with a neural network per side, as Kalles and Kanellopoulos (2001) describe for their
larger boards (numpy only).

A side's network maps the position its move leaves to the chance that it wins. Inputs: two per square outside
the bases (a white pawn there, a black pawn there), two for "a pawn has reached the enemy base", and each
side's waiting pawns as four thermometer bins (more than 0, a quarter, a half, three quarters of beta).
One hidden layer of sigmoid units, half as many as the inputs, and a sigmoid output. After each of its moves a
side learns: ``delta = r + gamma V(s') - V(s)`` and ``w += alpha * delta * e``, with the eligibility trace
``e = gamma * lambda * e + grad V(s)``; the reward is 1 for a win and 0 otherwise. Moves are chosen as by the
table learner (greedy over afterstates, random one move in ten). Defaults are the paper's: gamma 0.95,
lambda 0.5, learning rate 0.001.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, replace
from typing import Any

import numpy as np

from arena.games.pawnrace.rules import BLACK, WHITE, Position, Setup, legal_moves, play, start
from arena.learning.pawnrace.td_table import MODEL_FORMAT, BlockStats, SelfPlayTrainer, TdSettings


def network_settings(settings: TdSettings) -> TdSettings:
    """The paper's network settings on a configuration: gamma 0.95, reward 1 for a win and none for a move."""
    return replace(settings, gamma=0.95, win_reward=1.0, move_reward=0.0)


class Features:
    """Turns positions into the network's inputs for one configuration."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.squares = [(x, y) for y in range(setup.n) for x in range(setup.n)
                        if not setup.in_base(WHITE, (x, y)) and not setup.in_base(BLACK, (x, y))]
        self.index = {square: i for i, square in enumerate(self.squares)}
        self.size = 2 * len(self.squares) + 2 + 8

    def __call__(self, position: Position) -> np.ndarray:
        """The input vector of ``position``."""
        row = np.zeros(self.size)
        for side in (WHITE, BLACK):
            for square in position.pawns[side]:
                row[2 * self.index[square] + side] = 1.0
        if position.winner is not None and position.reason.endswith("base"):
            row[2 * len(self.squares) + position.winner] = 1.0
        beta = max(self.setup.pawns, 1)
        for side in (WHITE, BLACK):
            for bin_index, share in enumerate((0.0, 0.25, 0.5, 0.75)):
                row[2 * len(self.squares) + 2 + 4 * side + bin_index] = float(position.waiting[side] > share * beta)
        return row


class Network:
    """One hidden layer of sigmoid units and a sigmoid output: the chance its side wins."""

    def __init__(self, inputs: int, rng: np.random.Generator | None = None, weights: dict[str, Any] | None = None):
        hidden = max(inputs // 2, 1)
        if weights is not None:
            self.w1, self.b1 = np.array(weights["w1"]), np.array(weights["b1"])
            self.w2, self.b2 = np.array(weights["w2"]), float(weights["b2"])
        else:
            assert rng is not None
            self.w1 = rng.uniform(-0.5, 0.5, (inputs, hidden))
            self.b1 = rng.uniform(-0.5, 0.5, hidden)
            self.w2 = rng.uniform(-0.5, 0.5, hidden)
            self.b2 = float(rng.uniform(-0.5, 0.5))

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The network's output for each row of ``rows``."""
        hidden = 1.0 / (1.0 + np.exp(-(rows @ self.w1 + self.b1)))
        return 1.0 / (1.0 + np.exp(-(hidden @ self.w2 + self.b2)))

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


class TdNetworkTrainer(SelfPlayTrainer):
    """Self-play training of both sides' networks; ``data`` (a checkpoint) resumes a stopped run."""

    def __init__(self, settings: TdSettings, data: dict[str, Any] | None = None):
        self.settings = settings
        self.features = Features(settings.setup)
        self.rng = random.Random(settings.seed)
        init = np.random.default_rng(settings.seed)
        self.networks = [Network(self.features.size, init), Network(self.features.size, init)]
        self.played = 0
        self.blocks: list[BlockStats] = []
        if data is not None:
            self.networks = [Network(self.features.size, weights=w) for w in data["networks"]]
            self._restore(data)

    def play_game(self) -> tuple[int | None, int]:
        """Play and learn from one self-play game; its winner (``None``: a draw) and its length in moves."""
        settings, setup = self.settings, self.settings.setup
        traces: list[list[np.ndarray] | None] = [None, None]
        last: list[tuple[float, list[np.ndarray]] | None] = [None, None]
        position = start(setup)
        while not position.over:
            side = position.to_move
            network = self.networks[side]
            _, after = choose_by_network(setup, network, self.features, position, self.rng, settings.greedy)
            if after.over:
                for player in (WHITE, BLACK):
                    reward = settings.win_reward if after.winner == player else 0.0
                    self._learn(player, traces, last, reward, 0.0)
            else:
                value, gradient = network.value_and_gradient(self.features(after))
                self._learn(side, traces, last, 0.0, value)
                trace = traces[side]
                decay = settings.gamma * settings.lam
                traces[side] = gradient if trace is None else [decay * t + g for t, g in zip(trace, gradient,
                                                                                              strict=True)]
                last[side] = (value, gradient)
            position = after
        return position.winner, position.moves

    def _learn(self, side: int, traces: list[list[np.ndarray] | None],
               last: list[tuple[float, list[np.ndarray]] | None], reward: float, value_now: float) -> None:
        previous, trace = last[side], traces[side]
        if previous is None or trace is None:
            return
        delta = reward + self.settings.gamma * value_now - previous[0]
        self.networks[side].step([self.settings.alpha * delta * t for t in trace])

    def checkpoint(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return {**self._state(), "learner": "network", "networks": [network.weights() for network in self.networks]}

    def model(self) -> dict[str, Any]:
        """The model file's contents: both networks, the settings, and the statistics per block."""
        return {"format": MODEL_FORMAT, "kind": "network", "settings": asdict(self.settings),
                "played": self.played, "networks": [network.weights() for network in self.networks],
                "blocks": [asdict(block) for block in self.blocks]}
