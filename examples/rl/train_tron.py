"""Train a Tron agent with numpy only, save it as .npz, and run a tournament of it against shipped bots.

The agent is a linear softmax policy on the centred planes of ``arena.rl`` (the board as seen from its own
head), trained by REINFORCE (discounted returns-to-go, a running-mean baseline) in the Gymnasium environment
against the shipped ``random`` bot. It is saved as an ``MLPPolicy`` with no hidden
layer, so the shipped ``npz`` bot plays it: ``npz:file=tron_agent.npz``.

    pip install -e '.[rl]'
    python examples/rl/train_tron.py --episodes 3000 --out tron_agent.npz

Then any arena command takes it, e.g. ``arena play tron npz:file=tron_agent.npz floodfill``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from arena.rl import MLPPolicy, gym_env
from arena.tournament.definition import TournamentDefinition
from arena.tournament.runner import run_tournament

MAP = "center_block"


def softmax(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Action probabilities over the legal actions."""
    scores = np.where(mask.astype(bool), scores, -np.inf)
    exp = np.exp(scores - scores.max())
    return exp / exp.sum()


def train(episodes: int, seed: int, learning_rate: float, discount: float = 0.97) -> tuple[MLPPolicy, list[float]]:
    """REINFORCE on a linear policy with discounted returns-to-go, so surviving longer pays even in a loss;
    returns the policy and the mean final reward (+1 win, 0 draw, -1 loss) of each block of 100 episodes."""
    env = gym_env("tron", map=MAP, opponents={"player_1": "random"}, centered=True)
    rng = np.random.default_rng(seed)
    inputs = int(np.prod(env.observation_space.shape))
    policy = MLPPolicy("tron", [np.zeros((inputs, 4), np.float32)], [np.zeros(4, np.float32)], {"centered": True})
    weights, bias = policy.weights[0], policy.biases[0]
    baseline, results, block = 0.0, [], []
    for episode in range(episodes):
        planes, info = env.reset(seed=seed * 100_000 + episode)
        trajectory, rewards, done = [], [], False
        while not done:
            x = planes.reshape(-1)
            probs = softmax(x @ weights + bias, info["action_mask"])
            action = int(rng.choice(4, p=probs))
            trajectory.append((x, probs, action))
            planes, reward, terminated, truncated, info = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        to_go = 0.0
        for (x, probs, action), reward in zip(reversed(trajectory), reversed(rewards), strict=True):
            to_go = reward + discount * to_go
            advantage = to_go - baseline
            baseline += 0.01 * advantage
            step = -probs
            step[action] += 1.0
            size = learning_rate * advantage / (1.0 + x @ x)  # normalised: the planes have hundreds of ones
            weights += size * np.outer(x, step)
            bias += size * step
        block.append(rewards[-1])
        if len(block) == 100:
            results.append(float(np.mean(block)))
            block = []
    return policy, results


def main() -> None:
    """Train, save, and play the tournament."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learning-rate", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=40, help="games per pairing in the tournament")
    parser.add_argument("--out", default="tron_agent.npz")
    args = parser.parse_args()

    started = time.perf_counter()
    policy, returns = train(args.episodes, args.seed, args.learning_rate)
    policy.save(args.out)
    seconds = time.perf_counter() - started
    print(f"trained {args.episodes} episodes in {seconds:.0f} s; mean result per 100 episodes (+1 win, -1 loss):")
    print("  " + " ".join(f"{value:+.2f}" for value in returns))

    agent = f"npz:file={args.out}"
    field = (agent, "random", "wallhugger", "chaser", "floodfill")
    definition = TournamentDefinition(maps=(MAP,), game="tron", bots=field, format="gauntlet", gauntlet=agent,
                                      games=args.games, seed=7)
    run = run_tournament(definition, workers=1)
    print("\n| bot | games | wins | draws | losses | score |\n|---|---|---|---|---|---|")
    for row in run.standings().rows:
        print(f"| {row.label} | {row.games} | {row.wins} | {row.draws} | {row.losses} | {row.score:.2f} |")


if __name__ == "__main__":
    main()
