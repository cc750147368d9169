"""Deep Q-learning in numpy only: a small ReLU network, its gradient, Adam, a replay buffer, one learning step.

The network maps an input vector to one value per action (the discounted result expected after taking that
action); playing greedily means taking the action of highest value, which is exactly how
``arena.rl.MLPPolicy`` plays, so the learned weights save as an ``MLPPolicy`` unchanged. Learning is double
Q-learning: targets ``r + discount * Q_target(s', argmax_a Q(s', a))`` from a copy of the network refreshed
now and then, on minibatches drawn from a replay buffer of past moves, with the Huber loss.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class Network:
    """A fully connected network: ReLU hidden layers, a linear output layer; ``weights[i]`` is ``(inputs, outputs)``."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]

    @classmethod
    def initial(cls, sizes: Sequence[int], rng: np.random.Generator) -> Network:
        """He-initialised hidden layers and a small output layer, so the first values are near 0."""
        pairs = itertools.pairwise(sizes)
        weights = [rng.normal(0.0, np.sqrt(2.0 / m), (m, n)).astype(np.float32) for m, n in pairs]
        weights[-1] *= 0.1
        return cls(weights, [np.zeros(n, np.float32) for n in sizes[1:]])

    @property
    def params(self) -> list[np.ndarray]:
        """Every array the optimiser updates, weights first."""
        return [*self.weights, *self.biases]

    def copy(self) -> Network:
        """An independent copy (the target network)."""
        return Network([w.copy() for w in self.weights], [b.copy() for b in self.biases])

    def layers(self, inputs: np.ndarray) -> list[np.ndarray]:
        """The activations of every layer for a batch of input rows, the inputs first and the values last."""
        out = [inputs]
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = out[-1] @ w + b
            out.append(np.maximum(x, 0.0) if i < last else x)
        return out

    def values(self, inputs: np.ndarray) -> np.ndarray:
        """One value per action for each input row."""
        return self.layers(inputs)[-1]

    def gradients(self, layers: list[np.ndarray], d_values: np.ndarray) -> list[np.ndarray]:
        """The gradient of a loss with respect to :attr:`params`, given the layers of :meth:`layers` and the
        loss's gradient with respect to the values."""
        count = len(self.weights)
        d_weights: list[np.ndarray] = [np.empty(0)] * count
        d_biases: list[np.ndarray] = [np.empty(0)] * count
        delta = d_values
        for i in reversed(range(count)):
            d_weights[i] = layers[i].T @ delta
            d_biases[i] = delta.sum(axis=0)
            if i:
                delta = (delta @ self.weights[i].T) * (layers[i] > 0)
        return [*d_weights, *d_biases]


class Adam:
    """The Adam optimiser over a fixed list of arrays, updated in place."""

    def __init__(self, params: Sequence[np.ndarray], learning_rate: float, beta1: float = 0.9, beta2: float = 0.999):
        self.learning_rate, self.beta1, self.beta2 = learning_rate, beta1, beta2
        self.first = [np.zeros_like(p) for p in params]
        self.second = [np.zeros_like(p) for p in params]
        self.steps = 0

    def step(self, params: Sequence[np.ndarray], grads: Sequence[np.ndarray]) -> None:
        """Move each array against its gradient."""
        self.steps += 1
        scale1, scale2 = 1 - self.beta1 ** self.steps, 1 - self.beta2 ** self.steps
        for p, g, m, v in zip(params, grads, self.first, self.second, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p -= self.learning_rate * (m / scale1) / (np.sqrt(v / scale2) + 1e-8)


class ReplayBuffer:
    """The last ``size`` moves: input, action, reward, next input and whether the game ended there.
    Inputs are stored as ``uint8`` (arena's planes hold 0 and 1 only)."""

    def __init__(self, size: int, inputs: int):
        self.before = np.zeros((size, inputs), np.uint8)
        self.after = np.zeros((size, inputs), np.uint8)
        self.actions = np.zeros(size, np.int64)
        self.rewards = np.zeros(size, np.float32)
        self.ended = np.zeros(size, np.float32)
        self.size, self.filled, self.next = size, 0, 0

    def add(self, before: np.ndarray, action: int, reward: float, after: np.ndarray, ended: bool) -> None:
        """Keep one move, overwriting the oldest once full."""
        i = self.next
        self.before[i], self.actions[i], self.rewards[i], self.after[i], self.ended[i] = \
            before, action, reward, after, ended
        self.next = (i + 1) % self.size
        self.filled = min(self.filled + 1, self.size)

    def sample(self, count: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        """``count`` moves drawn uniformly: inputs, actions, rewards, next inputs, ended (floats 0/1)."""
        i = rng.integers(self.filled, size=count)
        return (self.before[i].astype(np.float32), self.actions[i], self.rewards[i],
                self.after[i].astype(np.float32), self.ended[i])


def learning_step(network: Network, target: Network, optimiser: Adam, batch: tuple[np.ndarray, ...],
                  discount: float) -> float:
    """One double Q-learning step on a minibatch from :meth:`ReplayBuffer.sample`; returns its mean Huber loss."""
    before, actions, rewards, after, ended = batch
    rows = np.arange(len(actions))
    chosen = network.values(after).argmax(axis=1)
    goal = rewards + discount * (1.0 - ended) * target.values(after)[rows, chosen]
    layers = network.layers(before)
    error = layers[-1][rows, actions] - goal
    d_values = np.zeros_like(layers[-1])
    d_values[rows, actions] = np.clip(error, -1.0, 1.0) / len(actions)
    optimiser.step(network.params, network.gradients(layers, d_values))
    small = np.abs(error) <= 1.0
    return float(np.mean(np.where(small, 0.5 * error ** 2, np.abs(error) - 0.5)))
