"""Games per second on the local executor and on a Ray cluster started on this machine (one node, then two).

Run: python benchmarks/executors.py [--short-games N] [--thinker-games N] [--think-ms 10]

Two workloads, each a round robin through the full tournament path (schedule, executor, hard limits):

* short games: ``random`` against ``wallhugger`` on empty_room, about 0.2 ms a game, where the cost of
  sending games to workers and back decides the speed;
* thinkers: four bots that each spend THINK ms of CPU a move, where the cores decide it.

Each workload runs on the local executor (``--workers 2``, all this machine's cores), on a one-node Ray
cluster with two CPUs, and on a two-node cluster of the same machine (the head with two CPUs and a second
node with two more: four actors on two cores, so no faster; it shows the cost of the second node, not a
speed-up). Ratios compare with the local executor in the same run. Start-up (workers or actors) is included.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.ray_cluster

from timing import Figures, add_json_option, best_seconds
from tournament_overhead import THINKER

from arena.play.executor_choice import ExecutorChoice
from arena.play.limits import Limits
from arena.plugins.registry import PluginConfig, load_registry
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import TournamentRun, play_tournament
from tests.ray_cluster import ray_cluster


def rate(config: PluginConfig, bots: tuple[str, ...], games: int, executor: ExecutorChoice,
         workers: int | None) -> float:
    """Games per second of one round robin on ``executor``."""
    registry = load_registry(config)
    definition = TournamentDefinition(maps=("empty_room",), game="tron", bots=bots, games=games, seed=1)
    run = TournamentRun(plan_tournament(definition, registry))
    seconds = best_seconds(lambda: play_tournament(run, registry, config, workers=workers, limits=Limits(),
                                                   executor=executor))
    return len(run.played) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short-games", type=int, default=5000, help="games of the short workload")
    parser.add_argument("--thinker-games", type=int, default=4, help="games per pairing of the thinkers")
    parser.add_argument("--think-ms", type=int, default=10)
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    with tempfile.TemporaryDirectory() as folder:
        for index in range(4):
            name = f"thinker{index}"
            Path(folder, f"{name}.py").write_text(THINKER.format(name=name, ms=args.think_ms))
        config = PluginConfig(bot_dirs=(folder,), use_cwd_bots=False, use_env_path=False)
        workloads = {"short games": (("random", "wallhugger"), args.short_games),
                     f"{args.think_ms} ms a move": (tuple(f"thinker{i}" for i in range(4)), args.thinker_games)}
        local = {name: rate(config, bots, games, ExecutorChoice(), 2) for name, (bots, games) in workloads.items()}
        # a cluster of its own (its own temp dir, ports and token), stopped alone: any other Ray here goes on
        token = Path(folder, "ray-token")
        token.write_text(secrets.token_hex(32))
        os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token), RAY_USAGE_STATS_ENABLED="0")
        with ray_cluster(num_cpus=2) as cluster:
            ray = ExecutorChoice("ray", cluster.address)
            one = {name: rate(config, bots, games, ray, None) for name, (bots, games) in workloads.items()}
            cluster.join("second", num_cpus=2)
            two = {name: rate(config, bots, games, ray, None) for name, (bots, games) in workloads.items()}
    print("| workload | local, 2 workers | Ray, 1 node (2 actors) | Ray, 2 nodes (4 actors) |")
    print("|---|---|---|---|")
    for name in workloads:
        figures.add(f"{name}, local, 2 workers", local[name], "games/s")
        figures.add(f"{name}, Ray, 1 node", one[name], "games/s")
        figures.add(f"{name}, Ray, 2 nodes", two[name], "games/s")
        print(f"| {name} | {local[name]:,.1f} games/s | {one[name]:,.1f} ({one[name] / local[name]:.2f}x) | "
              f"{two[name]:,.1f} ({two[name] / local[name]:.2f}x) |")
    figures.write()


if __name__ == "__main__":
    main()
