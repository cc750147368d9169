"""Rating speed: the closed-form two-player TrueSkill update against the trueskill package's factor graph.

Run: python benchmarks/rating_speed.py [--games 10000] [--bots 8] [--seed 0]

Both rate the same seeded random two-player results in order (the work behind a run's standings, its
rating snapshots and the all-time leaderboard, each of which replays every game), in the same process.
Also reports the largest difference between the two ratings, which should be rounding only.
"""

from __future__ import annotations

import argparse
import random

from timing import Figures, add_json_option, best_seconds

from arena.stats.ratings import MU, SIGMA, draw_probability, environment, rate


def random_games(games: int, bots: int, seed: int) -> list[tuple[tuple[str, str], tuple[int, int]]]:
    """``games`` seeded results between ``bots`` players: wins, losses and about a fifth draws."""
    chooser = random.Random(seed)
    names = [f"bot{i}" for i in range(bots)]
    results = []
    for _ in range(games):
        pair = tuple(chooser.sample(names, 2))
        ranks = chooser.choices([(1, 2), (2, 1), (1, 1)], weights=(4, 4, 2))[0]
        results.append((pair, ranks))
    return results


def package_rate(games: list[tuple[tuple[str, str], tuple[int, int]]]) -> dict[str, tuple[float, float]]:
    """The same ratings through the trueskill package's factor graph, game by game."""
    env = environment(draw_probability([ranks for _, ranks in games]))
    current = {}
    for players, ranks in games:
        groups = [(current.get(p) or env.create_rating(MU, SIGMA),) for p in players]
        for player, (rating,) in zip(players, env.rate(groups, ranks=list(ranks)), strict=True):
            current[player] = rating
    return {player: (r.mu, r.sigma) for player, r in current.items()}


def main() -> None:
    """Time both ways and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    games = random_games(args.games, args.bots, args.seed)
    closed, package = {}, {}
    closed_seconds = best_seconds(lambda: closed.update(rate(games)[0]))
    package_seconds = best_seconds(lambda: package.update(package_rate(games)))
    figures.add("closed form", args.games / closed_seconds, "games/s")
    figures.add("trueskill package", args.games / package_seconds, "games/s")
    figures.write()
    difference = max(max(abs(closed[p].mu - package[p][0]), abs(closed[p].sigma - package[p][1])) for p in package)
    print(f"{args.games:,} two-player games, {args.bots} bots")
    print(f"closed form: {closed_seconds:.3f} s ({args.games / closed_seconds:,.0f} games/s)")
    print(f"package:     {package_seconds:.3f} s ({args.games / package_seconds:,.0f} games/s)")
    print(f"speed-up: {package_seconds / closed_seconds:.1f}x; largest difference in mu or sigma: {difference:.1e}")


if __name__ == "__main__":
    main()
