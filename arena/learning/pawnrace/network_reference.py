"""The network learner's self-play game in plain Python and numpy, move for move what the compiled kernel of
:mod:`arena.learning.pawnrace.network_kernel` does: the reference the kernel is tested against, and the
baseline of its speed in ``benchmarks/pawnrace.py``.
"""

from __future__ import annotations

import numpy as np

from arena.engines.pawnrace.td_model import Features, Network
from arena.games.pawnrace.rules import BASE, STEPS, Setup, legal_moves, play, start
from arena.learning.pawnrace.network_kernel import next_double
from arena.learning.pawnrace.td_table import TdSettings


def kernel_order(setup: Setup, side: int, move: tuple) -> tuple[int, int, int]:
    """Where the compiled generator lists a move: base exits first, then pawns by cell, steps in order."""
    origin, target = move
    if origin == BASE:
        return (0, setup.exits(side).index(target), 0)
    step = STEPS.index((target[0] - origin[0], target[1] - origin[1]))
    return (1, origin[1] * setup.n + origin[0], step)


def reference_game(settings: TdSettings, networks: list[Network], rng_state: np.ndarray) -> tuple[int | None, int]:
    """One self-play game of both ``networks``, each learning after its moves, drawing from ``rng_state`` as
    the kernel does; the winner (``None``: a draw) and the number of moves."""
    setup, features = settings.setup, Features(settings.setup, settings.network_inputs)
    loss = 0.0 if settings.loss_reward is None else settings.loss_reward
    traces: list[list[np.ndarray] | None] = [None, None]
    last: list[float | None] = [None, None]

    def learn(side, reward, value_now):
        if last[side] is not None:
            delta = reward + settings.gamma * value_now - last[side]
            networks[side].step([settings.alpha * delta * t for t in traces[side]])

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
                reward = settings.win_reward if after.winner == player else 0.0 if after.winner is None else loss
                learn(player, reward, 0.0)
        else:
            value, gradient = networks[side].value_and_gradient(features(after))
            learn(side, 0.0, value)
            decay = settings.gamma * settings.lam
            trace = traces[side]
            traces[side] = gradient if trace is None else [decay * t + g for t, g in zip(trace, gradient, strict=True)]
            last[side] = value
        position = after
    return position.winner, position.moves
