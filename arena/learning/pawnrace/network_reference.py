"""The network learner's self-play game in plain Python and numpy, move for move what the compiled kernel of
:mod:`arena.learning.pawnrace.network_kernel` does: the reference the kernel is tested against, and the
baseline of its speed in ``benchmarks/pawnrace.py``.
"""

from __future__ import annotations

import numpy as np

from arena.engines.pawnrace.td_model import Features, Network
from arena.games.pawnrace.rules import STEPS, Setup, Square, legal_moves, play, start
from arena.learning.pawnrace.network_kernel import next_double
from arena.learning.pawnrace.td_table import TdSettings


def kernel_order(setup: Setup, side: int, move: tuple[Square | str, Square]) -> tuple[int, int, int]:
    """Where the compiled generator lists a move: base exits first, then pawns by cell, steps in order."""
    origin, target = move
    if isinstance(origin, str):  # the base: a pawn enters the board
        return (0, setup.exits(side).index(target), 0)
    step = STEPS.index((target[0] - origin[0], target[1] - origin[1]))
    return (1, origin[1] * setup.n + origin[0], step)


class SideLearner:
    """One side's TD(lambda) learner over its network, as the paper writes the update: when the side's move
    leaves the position ``s'`` (after ``s``, its previous one), ``delta = r + gamma V(s') - V(s)`` and
    ``theta += alpha delta e``, then ``e = gamma lambda e + grad V(s')``, every value and gradient taken at the
    weights as they stand; a final position is worth nothing but its reward."""

    def __init__(self, network: Network, gamma: float, lam: float, alpha: float):
        self.network, self.gamma, self.lam, self.alpha = network, gamma, lam, alpha
        self.traces: list[np.ndarray] | None = None
        self.last: np.ndarray | None = None

    def reached(self, row: np.ndarray, reward: float = 0.0) -> None:
        """The side's move left the position whose inputs are ``row``, the game going on, with ``reward``."""
        self._learn(reward + self.gamma * self.value(row))
        _, gradient = self.network.value_and_gradient(row)
        decay = self.gamma * self.lam
        self.traces = gradient if self.traces is None else [decay * t + g for t, g in
                                                            zip(self.traces, gradient, strict=True)]
        self.last = row

    def finish(self, reward: float) -> None:
        """The game ended (on either side's move) with ``reward`` to this side."""
        self._learn(reward)

    def value(self, row: np.ndarray) -> float:
        """The network's value of the position ``row``."""
        return self.network.value_and_gradient(row)[0]

    def _learn(self, target: float) -> None:
        if self.last is not None and self.traces is not None:
            delta = target - self.value(self.last)
            self.network.step([self.alpha * delta * t for t in self.traces])


def reference_game(settings: TdSettings, networks: list[Network], rng_state: np.ndarray) -> tuple[int | None, int]:
    """One self-play game of both ``networks``, each learning after its moves, drawing from ``rng_state`` as
    the kernel does; the winner (``None``: a draw) and the number of moves."""
    setup, features = settings.setup, Features(settings.setup, settings.network_inputs)
    loss = 0.0 if settings.loss_reward is None else settings.loss_reward
    learners = [SideLearner(network, settings.gamma, settings.lam, settings.alpha) for network in networks]

    position = start(setup)
    while not position.over:
        side = position.to_move
        moves = sorted(legal_moves(setup, position), key=lambda move: kernel_order(setup, side, move))
        afters = [play(setup, position, move) for move in moves]
        if next_double(rng_state) >= settings.greedy:
            chosen = min(int(next_double(rng_state) * len(moves)), len(moves) - 1)
        else:
            scores = []
            for after in afters:
                if after.over:
                    scores.append(0.5 if after.winner is None else 2.0 if after.winner == side else -1.0)
                else:
                    scores.append(float(networks[side].values(features(after)[None, :])[0]))
            ties = [i for i, score in enumerate(scores) if score == max(scores)]
            chosen = ties[min(int(next_double(rng_state) * len(ties)), len(ties) - 1)] if len(ties) > 1 else ties[0]
        after = afters[chosen]
        if after.over:
            for player in (0, 1):
                learners[player].finish(settings.win_reward if after.winner == player else
                                        0.0 if after.winner is None else loss)
        else:
            learners[side].reached(features(after))
        position = after
    return position.winner, position.moves
