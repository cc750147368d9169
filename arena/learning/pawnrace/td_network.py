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

from arena.core.errors import ArenaError
from arena.games.pawnrace.rules import BLACK, WHITE, Position, Setup, legal_moves, play
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
            self.w1, self.b1 = np.array(weights["w1"], dtype=float), np.array(weights["b1"], dtype=float)
            self.w2, self.b2 = np.array(weights["w2"], dtype=float), float(weights["b2"])
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
    """Self-play training of both sides' networks; ``data`` (a checkpoint) resumes a stopped run. The games are
    played by the compiled kernel of :mod:`arena.learning.pawnrace.network_kernel`."""

    def __init__(self, settings: TdSettings, data: dict[str, Any] | None = None):
        # numba loads only for training, not for every process that can play the td bot
        from arena.learning.pawnrace.network_kernel import Geometry, seed_state, self_play_game

        self.self_play_game = self_play_game
        self.settings = settings
        self.geometry = Geometry.of(settings.setup)
        self.rng_state = seed_state(settings.seed)
        self.played = 0
        self.blocks: list[BlockStats] = []
        if data is None:
            init = np.random.default_rng(settings.seed)
            networks = [Network(self.geometry.inputs, init), Network(self.geometry.inputs, init)]
        else:
            networks = [Network(self.geometry.inputs, weights=w) for w in data["networks"]]
            self._restore(data)
        self.w1 = np.stack([network.w1 for network in networks])
        self.b1 = np.stack([network.b1 for network in networks])
        self.w2 = np.stack([network.w2 for network in networks])
        self.b2 = np.array([network.b2 for network in networks])

    @property
    def networks(self) -> list[Network]:
        """Both sides' networks as they stand (copies)."""
        return [Network(self.geometry.inputs, weights={"w1": self.w1[side], "b1": self.b1[side],
                                                         "w2": self.w2[side], "b2": self.b2[side]})
                for side in (WHITE, BLACK)]

    def play_game(self) -> tuple[int | None, int]:
        """Play and learn from one self-play game; its winner (``None``: a draw) and its length in moves."""
        settings, geometry = self.settings, self.geometry
        winner, moves = self.self_play_game(
            self.w1, self.b1, self.w2, self.b2, self.rng_state, geometry.pawns, geometry.removal_all,
            geometry.max_moves, geometry.base_of, geometry.distance, geometry.neighbours, geometry.exits,
            geometry.input_of, settings.gamma, settings.lam, settings.alpha, settings.greedy, settings.win_reward)
        return (None if winner < 0 else int(winner)), int(moves)

    def random_state(self) -> Any:
        """The SplitMix64 state, as ``{"splitmix64": integer}``."""
        return {"splitmix64": int(self.rng_state[0])}

    def set_random_state(self, state: Any) -> None:
        """Restore the SplitMix64 state; a checkpoint of another generator is refused in one line."""
        if not isinstance(state, dict) or not isinstance(state.get("splitmix64"), int):
            raise ArenaError("the checkpoint was written by an older network learner: train again without --resume")
        self.rng_state[0] = np.uint64(state["splitmix64"])

    def checkpoint(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return {**self._state(), "learner": "network", "networks": [network.weights() for network in self.networks]}

    def model(self) -> dict[str, Any]:
        """The model file's contents: both networks, the settings, and the statistics per block."""
        return {"format": MODEL_FORMAT, "kind": "network", "settings": asdict(self.settings),
                "played": self.played, "networks": [network.weights() for network in self.networks],
                "blocks": [asdict(block) for block in self.blocks]}
