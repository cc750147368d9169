"""Random-vs-random Tron games per second through the full referee, in one process and on all workers.

Run: python benchmarks/games_per_second.py [--games N] [--workers W]

Each figure is a whole round-robin schedule played by the same code a tournament uses
(schedule, referee with timing and validation, records, outcome collection). The in-process
figure is the per-core rate; the pool figure includes process start-up and result transfer.
The ratio column compares each run with the in-process run on the same map, measured in the
same command, since absolute speeds vary from machine to machine.
"""

from __future__ import annotations

import argparse
import time

from arena.bot import BotSpec
from arena.executors import default_workers
from arena.games.tron import TronGame
from arena.maps import resolve_map
from arena.match import MatchSetup
from arena.plugins import PluginConfig, load_registry
from arena.runner import TournamentRun, play_schedule

MAPS = ("empty_room", "open_30")


def games_per_second(map_name: str, games: int, workers: int) -> tuple[float, float]:
    """Play ``games`` random-vs-random games; return (games per second, mean turns per game)."""
    config = PluginConfig(use_cwd_bots=False, use_env_path=False)
    registry = load_registry(config)
    game_map = resolve_map(map_name)
    bots = (BotSpec("random"), BotSpec("random"))
    setups = [MatchSetup("tron", bots, game_map, dict(game_map.header), seed, 1.0, seed) for seed in range(games)]
    run = TournamentRun(TronGame, setups)
    started = time.perf_counter()
    play_schedule(run, registry, config, workers)
    elapsed = time.perf_counter() - started
    turns = sum(outcome.turns for outcome in run.outcomes.values()) / len(run.outcomes)
    return len(run.outcomes) / elapsed, turns


def main() -> None:
    """Print one line per map and executor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000,
                        help="games per executor on empty_room (a sixth as many on open_30)")
    parser.add_argument("--workers", type=int, default=default_workers(), help="worker processes for the pool run")
    args = parser.parse_args()
    print(f"{'map':<12} {'executor':<14} {'games/s':>9} {'per core':>9} {'turns/game':>10} {'ratio':>6}")
    for map_name in MAPS:
        games = args.games if map_name == "empty_room" else max(2, args.games // 6)
        base, turns = games_per_second(map_name, games, 1)
        print(f"{map_name:<12} {'1 process':<14} {base:>9,.0f} {base:>9,.0f} {turns:>10.1f} {1.0:>6.2f}")
        pooled, turns = games_per_second(map_name, games, args.workers)
        label = f"{args.workers} workers"
        print(f"{map_name:<12} {label:<14} {pooled:>9,.0f} {pooled / args.workers:>9,.0f} {turns:>10.1f} "
              f"{pooled / base:>6.2f}")


if __name__ == "__main__":
    main()
