"""TD(lambda) self-play with a neural network per side, as Kalles and Kanellopoulos (2001) describe for their
larger boards (numpy only).

A side's network maps the position its move leaves to the chance that it wins. Inputs: two per square outside
the bases (a white pawn there, a black pawn there), two for "a pawn has reached the enemy base", and each
side's waiting pawns as four thermometer bins (more than 0, a quarter, a half, three quarters of beta).
One hidden layer of sigmoid units, half as many as the inputs, and a sigmoid output. After each of its moves a
side learns: ``delta = r + gamma V(s') - V(s)`` and ``w += alpha * delta * e``, with the eligibility trace
``e = gamma * lambda * e + grad V(s)``; the reward is 1 for a win, ``loss_reward`` (0, or the paper's -1) for a
loss and 0 otherwise. ``network_inputs="printed"`` gives one input per free square instead of two, and
``init`` chooses the initial weights (:mod:`arena.learning.pawnrace.initial_weights`). Moves are chosen as by the
table learner (greedy over afterstates, random one move in ten). Defaults are the paper's: gamma 0.95,
lambda 0.5, learning rate 0.001.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.engines.pawnrace.td_model import (  # noqa: F401 - Features, choose_by_network: old imports of stored td bots
    MODEL_FORMAT,
    Features,
    Network,
    choose_by_network,
)
from arena.games.pawnrace.rules import BLACK, WHITE
from arena.learning.pawnrace.initial_weights import initial_networks
from arena.learning.pawnrace.td_table import SelfPlayTrainer, TdSettings
from arena.stats.playability import BlockStats


def network_settings(settings: TdSettings) -> TdSettings:
    """The paper's network settings on a configuration: gamma 0.95, reward 1 for a win and none for a move
    (and, unless ``settings`` chose them, random initial weights and 0 for a loss)."""
    return replace(settings, gamma=0.95, win_reward=1.0, move_reward=0.0, init=settings.init or "random",
                   loss_reward=0.0 if settings.loss_reward is None else settings.loss_reward)


class TdNetworkTrainer(SelfPlayTrainer):
    """Self-play training of both sides' networks; ``data`` (a checkpoint) resumes a stopped run. The games are
    played by the compiled kernel of :mod:`arena.learning.pawnrace.network_kernel`."""

    def __init__(self, settings: TdSettings, data: dict[str, Any] | None = None):
        # numba loads only for training, not for every process that can play the td bot
        from arena.learning.pawnrace.network_kernel import Geometry, seed_state, self_play_game

        self.self_play_game = self_play_game
        self.settings = settings
        self.geometry = Geometry.of(settings.setup, settings.network_inputs)
        self.rng_state = seed_state(settings.seed)
        self.played = 0
        self.blocks: list[BlockStats] = []
        if data is None:
            features = Features(settings.setup, settings.network_inputs)
            networks = initial_networks(features, settings.init or "random", settings.seed)
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
            geometry.input_of, geometry.printed, settings.gamma, settings.lam, settings.alpha, settings.greedy,
            settings.win_reward, 0.0 if settings.loss_reward is None else settings.loss_reward)
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
