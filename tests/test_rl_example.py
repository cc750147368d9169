"""The numpy Q-learning example in examples/rl: its gradient, its learning step, and a short run end to end."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.rl import gym_env, load_policy

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rl"
sys.path.insert(0, str(EXAMPLE))

import numpy_dqn  # noqa: E402
import tron_training  # noqa: E402

NEIGHBOURS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W, the order of Tron's actions


def blocked(planes):
    """Which of the four cells next to the head (the middle of centred planes) hold a wall or a trail."""
    middle = planes.shape[1] // 2
    return np.array([planes[:3, middle + dy, middle + dx].any() for dy, dx in NEIGHBOURS])


def positions(count=300):
    """Centred planes of seat 0 from games of random moves against the random bot, where a move is free."""
    env = gym_env("tron", map="center_block", opponents={"player_1": "random"}, centered=True)
    rng = np.random.default_rng(0)
    seen, game = [], 0
    while len(seen) < count:
        planes, _ = env.reset(seed=game)
        game += 1
        done = False
        while not done:
            free = np.flatnonzero(~blocked(planes))
            if len(free) == 0:
                break
            seen.append(planes)
            planes, _, done, _, _ = env.step(int(rng.choice(free)))
    return seen[:count]


def crash_share(policy, seen):
    """The share of positions where the policy moves into a wall or trail although a free cell is next to it."""
    return float(np.mean([blocked(planes)[policy(planes, np.ones(4, np.int8))] for planes in seen]))


def test_the_network_gradient_matches_finite_differences():
    rng = np.random.default_rng(2)
    network = numpy_dqn.Network.initial([6, 5, 4, 3], rng)
    network.weights = [w.astype(np.float64) for w in network.weights]
    network.biases = [rng.normal(0, 0.5, b.shape) for b in network.biases]
    inputs, weight = rng.normal(size=(7, 6)), rng.normal(size=(7, 3))

    def loss():
        return float(np.sum(network.values(inputs) * weight))

    analytic = network.gradients(network.layers(inputs), weight)
    for param, grad in zip(network.params, analytic, strict=True):
        numeric = np.zeros_like(param)
        for index in np.ndindex(param.shape):
            saved = param[index]
            param[index] = saved + 1e-6
            up = loss()
            param[index] = saved - 1e-6
            numeric[index] = (up - loss()) / 2e-6
            param[index] = saved
        assert np.allclose(grad, numeric, atol=1e-6)


def test_learning_steps_bring_the_value_of_a_fatal_move_to_its_reward():
    rng = np.random.default_rng(3)
    network = numpy_dqn.Network.initial([4, 8, 2], rng)
    target, optimiser = network.copy(), numpy_dqn.Adam(network.params, 0.01)
    before = np.eye(4, dtype=np.float32)[:2]
    batch = (before, np.array([0, 1]), np.array([-1.0, 0.5], np.float32), np.zeros((2, 4), np.float32),
             np.ones(2, np.float32))
    losses = [numpy_dqn.learning_step(network, target, optimiser, batch, 0.97) for _ in range(300)]
    assert losses[-1] < 1e-4 < losses[0]
    values = network.values(before)
    assert values[0, 0] == pytest.approx(-1.0, abs=0.02)
    assert values[1, 1] == pytest.approx(0.5, abs=0.02)


def test_the_window_holds_the_square_around_the_head_in_every_plane():
    indices = tron_training.window((5, 25, 25), 4)
    assert len(indices) == 5 * 9 * 9
    planes = np.zeros((5, 25, 25), np.float32)
    planes[:, 8:17, 8:17] = 1
    assert planes.reshape(-1)[indices].all() and planes.reshape(-1).sum() == len(indices)


@pytest.mark.slow
def test_a_short_run_of_the_script_learns_to_avoid_crashing_and_its_file_plays_in_a_tournament(tmp_path):
    out = tmp_path / "agent.npz"
    command = [sys.executable, str(EXAMPLE / "train_tron.py"), "--steps", "4000", "--games", "2", "--seed", "5",
               "--out", str(out)]
    printed = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path).stdout

    trained, initial = load_policy(out), load_policy(tmp_path / "agent_initial.npz")
    assert trained.form == initial.form == {"centered": True}
    assert not np.allclose(trained.weights[0], initial.weights[0])
    seen = positions()
    assert crash_share(initial, seen) > 0.25
    assert crash_share(trained, seen) < 0.05

    table = printed[printed.index("| opponent"):].splitlines()
    assert table[0] == "| opponent | trained: won-drawn-lost | score | untrained: won-drawn-lost | score |"
    assert [row.split(" | ")[0] for row in table[2:]] == ["| random", "| wallhugger", "| chaser", "| floodfill"]
    for row in table[2:]:
        cells = row.strip("| ").split(" | ")
        for tally in (cells[1], cells[3]):
            assert sum(int(count) for count in tally.split("-")) == 2
