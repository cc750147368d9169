"""Deep Q-learning of Tron on center_block with numpy only: the training loop of ``train_tron.py``.

The agent is a small network (one hidden layer of 64 ReLU units) that scores the four moves from the centred
planes of ``arena.rl`` (the board as seen from its own head), of which it reads the 9 x 9 square around the
head. It learns by double Q-learning (``numpy_dqn.py``) in the Gymnasium environment, against the shipped
``random``, ``wallhugger`` and ``chaser`` bots in turn, from either seat. The reward is the game's result
only (+1 win, 0 draw, -1 loss); discounting makes a later loss better than an early one, so the agent first
learns to survive, then to outlast its opponent. :func:`as_policy` turns the network into an ``MLPPolicy``
on all the planes (zero weights outside the square), which the shipped ``npz`` bot plays.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy_dqn import Adam, Network, ReplayBuffer, learning_step

from arena.rl import MLPPolicy, gym_env

MAP = "center_block"
TRAINING_OPPONENTS = ("random", "wallhugger", "chaser")


@dataclass(frozen=True)
class Settings:
    """What a training run does; the defaults are the published run."""

    steps: int = 300_000  # moves the agent makes in all
    seed: int = 1
    hidden: int = 64
    radius: int = 4  # the network reads the (2 radius + 1) squared cells around its head
    learning_rate: float = 5e-4
    discount: float = 0.97
    batch: int = 64
    learn_every: int = 2  # moves between learning steps
    target_every: int = 1000  # moves between refreshes of the target network
    buffer: int = 50_000
    warmup: int = 1000  # moves in the buffer before learning starts
    explore_end: float = 0.05  # the share of random moves after the first phase
    explore_share: float = 0.3  # the share of the run over which random moves fall from all to explore_end
    opponents: tuple[str, ...] = TRAINING_OPPONENTS


@dataclass
class Block:
    """What happened during one stretch of training."""

    steps: int
    seconds: float
    explore: float
    games: int = 0
    moves: int = 0
    loss: float = 0.0
    learned: int = 0
    results: dict[str, list[int]] = field(default_factory=dict)

    def line(self) -> str:
        """One line of the training log."""
        length = self.moves / max(self.games, 1)
        scores = " ".join(f"{name} {np.mean(got):+.2f}" for name, got in sorted(self.results.items()))
        loss = self.loss / max(self.learned, 1)
        return (f"{self.steps:8d} moves {self.seconds:5.0f} s  random moves {self.explore:4.0%}  "
                f"game length {length:4.1f}  loss {loss:.4f}  mean result vs {scores}")


@dataclass
class Training:
    """A finished run: the network before and after, and the log by blocks."""

    initial: MLPPolicy
    trained: MLPPolicy
    blocks: list[Block]
    seconds: float


def window(shape: Sequence[int], radius: int) -> np.ndarray:
    """The flat indices, in planes of ``shape`` (planes, rows, columns) centred on the head, of the square of
    side ``2 radius + 1`` around the head in every plane."""
    planes, rows, columns = shape
    middle_row, middle_column = rows // 2, columns // 2
    inside = np.zeros((planes, rows, columns), dtype=bool)
    inside[:, middle_row - radius:middle_row + radius + 1, middle_column - radius:middle_column + radius + 1] = True
    return np.flatnonzero(inside.reshape(-1))


def as_policy(network: Network, indices: np.ndarray, inputs: int) -> MLPPolicy:
    """The network as an ``MLPPolicy`` on all the planes: its first layer's rows at ``indices``, zero elsewhere."""
    first = np.zeros((inputs, network.weights[0].shape[1]), np.float32)
    first[indices] = network.weights[0]
    weights = [first, *(w.copy() for w in network.weights[1:])]
    return MLPPolicy("tron", weights, [b.copy() for b in network.biases], {"centered": True})


def exploration(step: int, settings: Settings) -> float:
    """The share of random moves at ``step``: from all, falling linearly to ``explore_end``."""
    falling = 1.0 - (1.0 - settings.explore_end) * step / (settings.explore_share * settings.steps)
    return max(settings.explore_end, falling)


class Learner:
    """The network being trained with its target copy, optimiser and replay buffer."""

    def __init__(self, settings: Settings, inputs: int, rng: np.random.Generator):
        self.settings, self.rng = settings, rng
        self.network = Network.initial([inputs, settings.hidden, 4], rng)
        self.target = self.network.copy()
        self.optimiser = Adam(self.network.params, settings.learning_rate)
        self.memory = ReplayBuffer(settings.buffer, inputs)

    def choose(self, x: np.ndarray, mask: np.ndarray, explore: float) -> int:
        """A random legal move with probability ``explore``, else the legal move of highest value."""
        legal = np.flatnonzero(mask)
        if self.rng.random() < explore:
            return int(self.rng.choice(legal))
        values = self.network.values(x[None])[0]
        return int(legal[np.argmax(values[legal])])

    def record(self, step: int, move: tuple[np.ndarray, int, float, np.ndarray, bool]) -> float | None:
        """Keep the move (input, action, reward, next input, ended) made at ``step``; every ``learn_every``
        moves once the buffer is warm, learn from a minibatch and return its loss; refresh the target."""
        settings = self.settings
        self.memory.add(*move)
        loss = None
        if self.memory.filled >= settings.warmup and step % settings.learn_every == 0:
            batch = self.memory.sample(settings.batch, self.rng)
            loss = learning_step(self.network, self.target, self.optimiser, batch, settings.discount)
        if step % settings.target_every == 0:
            self.target = self.network.copy()
        return loss


def train(settings: Settings = Settings(), log: Callable[[Block], None] | None = None,
          log_every: int = 25_000) -> Training:
    """Deep Q-learning on Tron (see the module's documentation); ``log`` gets a :class:`Block` every
    ``log_every`` moves."""
    rng = np.random.default_rng(settings.seed)
    envs = {(name, seat): gym_env("tron", map=MAP, opponents={f"player_{1 - seat}": name}, centered=True)
            for name in settings.opponents for seat in (0, 1)}
    shape = next(iter(envs.values())).observation_space.shape
    inputs, indices = int(np.prod(shape)), window(shape, settings.radius)
    learner = Learner(settings, len(indices), rng)
    initial = as_policy(learner.network, indices, inputs)
    started = time.perf_counter()
    blocks, block = [], Block(0, 0.0, 1.0)
    step, game = 0, 0
    while step < settings.steps:
        name = settings.opponents[rng.integers(len(settings.opponents))]
        env = envs[(name, int(rng.integers(2)))]
        planes, info = env.reset(seed=settings.seed * 1_000_000 + game)
        game += 1
        x, done, reward = planes.reshape(-1)[indices], False, 0.0
        while not done:
            explore = exploration(step, settings)
            action = learner.choose(x, info["action_mask"], explore)
            planes, reward, ended, truncated, info = env.step(action)
            after = planes.reshape(-1)[indices]
            step += 1
            loss = learner.record(step, (x, action, reward, after, ended))
            x, done = after, ended or truncated
            block.moves += 1
            if loss is not None:
                block.loss, block.learned = block.loss + loss, block.learned + 1
            if step % log_every == 0:
                block.steps, block.seconds, block.explore = step, time.perf_counter() - started, explore
                blocks.append(block)
                if log is not None:
                    log(block)
                block = Block(0, 0.0, explore)
        block.games += 1
        block.results.setdefault(name, []).append(int(np.sign(reward)))
    seconds = time.perf_counter() - started
    return Training(initial, as_policy(learner.network, indices, inputs), blocks, seconds)
