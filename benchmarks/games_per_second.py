"""Random-vs-random Tron games per second through the full referee, in one process and on all workers; and a
whole tournament command end to end.

Run: python benchmarks/games_per_second.py [--games N] [--workers W] [--end-to-end-games N] [--baseline DIR]

Each figure is a whole round-robin schedule played by the same code a tournament uses
(schedule, referee with timing and validation, records, outcome collection). The in-process
figure is the per-core rate; the pool figure includes process start-up and result transfer.
"started" times a pool that has already started and played a first round, to separate
start-up from steady state. The ratio column compares each run with the in-process run on
the same map, measured in the same command, since absolute speeds vary from machine to machine.

The end-to-end lines time ``arena tournament empty_room -b random,wallhugger -n N -w W`` as a user runs it
(a new process: start-up, schedule, games, storing every game, rating, the JSON output), with 1 and 2
workers, against the same pairing's games played in this process with nothing stored.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import Figures, add_baseline_option, add_json_option, best_seconds, command_environment, per_second

from arena.core.bot import BotSpec
from arena.core.maps import resolve_map
from arena.play.executors import WorkerPool, default_workers, run_in_process
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig, load_registry

MAPS = ("empty_room", "open_30")
CONFIG = PluginConfig(use_cwd_bots=False, use_env_path=False)


def schedule(map_name: str, games: int, opponent: str = "random") -> list[MatchSetup]:
    """``games`` games of ``random`` against ``opponent`` on ``map_name``, each with its own seed."""
    game_map = resolve_map(map_name)
    bots = (BotSpec("random"), BotSpec(opponent))
    return [MatchSetup("tron", bots, game_map, dict(game_map.header), seed, 1.0, seed) for seed in range(games)]


def games_per_second(setups: list[MatchSetup], workers: int) -> tuple[float, float]:
    """Play the games as a tournament does (worker start-up included; 0 workers: in this process).

    Returns games per second and mean turns per game.
    """
    registry = load_registry(CONFIG)
    outcomes = []

    def run() -> None:
        if workers == 0:
            outcomes.extend(run_in_process(setups, registry))
        else:
            with WorkerPool(workers, CONFIG, registry=registry) as pool:
                outcomes.extend(pool.run(setups))

    elapsed = best_seconds(run)
    turns = sum(outcome.turns for outcome in outcomes) / len(outcomes)
    return len(outcomes) / elapsed, turns


def warm_pool_games_per_second(setups: list[MatchSetup], workers: int) -> float:
    """Games/s of a pool that has already started and played a first round of games."""
    with WorkerPool(workers, CONFIG) as pool:
        for _ in pool.run(setups[: workers * 2]):
            pass
        rest = setups[workers * 2:]
        return per_second(len(rest), lambda: sum(1 for _ in pool.run(rest)))


def end_to_end_games_per_second(games: int, workers: int, code: str | None = None) -> float:
    """Games/s of a whole ``arena tournament`` command storing ``games`` random-vs-wallhugger games.

    The command runs as on a user's machine, with Python's bytecode cache on (``PYTHONDONTWRITEBYTECODE``
    unset, and a short run first to fill the cache): without it, every process compiles its modules again.
    ``code``: a checkout of other arena code to run instead of the installed one (put first on ``PYTHONPATH``).
    """
    env = command_environment(code)
    with tempfile.TemporaryDirectory() as folder:
        def command(count: int, db: str) -> list[str]:
            return [sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "random,wallhugger", "-n",
                    str(count), "-w", str(workers), "-f", "json", "--db", str(Path(folder) / db)]

        subprocess.run(command(2, "warm-up.db"), check=True, capture_output=True, cwd=folder, env=env)
        return per_second(games, lambda: subprocess.run(command(games, "arena.db"), check=True, capture_output=True,
                                                        cwd=folder, env=env))


def main() -> None:
    """Print one line per map and executor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000,
                        help="games per executor on empty_room (a sixth as many on open_30)")
    parser.add_argument("--workers", type=int, default=default_workers(), help="worker processes for the pool runs")
    parser.add_argument("--end-to-end-games", type=int, default=10000, help="games of the tournament command")
    add_baseline_option(parser, "only time the tournament command (three runs each, the medians printed)")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    if args.baseline:
        compare_end_to_end(args.end_to_end_games, args.baseline, figures)
        figures.write()
        return
    print(f"{'map':<12} {'executor':<24} {'games/s':>9} {'per core':>9} {'turns/game':>10} {'ratio':>6}")
    for map_name in MAPS:
        setups = schedule(map_name, args.games if map_name == "empty_room" else max(4, args.games // 6))
        base, turns = games_per_second(setups, 0)
        figures.add(f"{map_name}, 1 process", base, "games/s")
        print(f"{map_name:<12} {'1 process':<24} {base:>9,.0f} {base:>9,.0f} {turns:>10.1f} {1.0:>6.2f}")
        pooled, turns = games_per_second(setups, args.workers)
        figures.add(f"{map_name}, {args.workers} workers", pooled, "games/s")
        label = f"{args.workers} workers"
        print(f"{map_name:<12} {label:<24} {pooled:>9,.0f} {pooled / args.workers:>9,.0f} {turns:>10.1f} "
              f"{pooled / base:>6.2f}")
        warm = warm_pool_games_per_second(setups, args.workers)
        figures.add(f"{map_name}, {args.workers} workers, started", warm, "games/s")
        label = f"{args.workers} workers, started"
        print(f"{map_name:<12} {label:<24} {warm:>9,.0f} {warm / args.workers:>9,.0f} {'':>10} {warm / base:>6.2f}")
    base, turns = games_per_second(schedule("empty_room", args.end_to_end_games, "wallhugger"), 0)
    figures.add("empty_room, 1 process, vs wallhugger", base, "games/s")
    print(f"{'empty_room':<12} {'1 process, vs wallhugger':<24} {base:>9,.0f} {base:>9,.0f} {turns:>10.1f} {1.0:>6.2f}")
    for workers in (1, 2):
        speed = figures.add(f"empty_room, tournament command, -w {workers}",
                            end_to_end_games_per_second(args.end_to_end_games, workers), "games/s")
        label = f"tournament command, -w {workers}"
        print(f"{'empty_room':<12} {label:<24} {speed:>9,.0f} {speed / workers:>9,.0f} {'':>10} {speed / base:>6.2f}")
    figures.write()


def compare_end_to_end(games: int, baseline: str, figures: Figures, runs: int = 3) -> None:
    """Print the tournament command's games/s with this code and with ``baseline``'s, runs interleaved."""
    print(f"{'workers':<8} {'baseline':>9} {'this code':>9} {'ratio':>6}")
    for workers in (1, 2):
        before, after = [], []
        for _ in range(runs):
            before.append(end_to_end_games_per_second(games, workers, baseline))
            after.append(end_to_end_games_per_second(games, workers))
        old, new = statistics.median(before), statistics.median(after)
        figures.add(f"tournament command, -w {workers}, baseline", old, "games/s")
        figures.add(f"tournament command, -w {workers}, this code", new, "games/s")
        print(f"{workers:<8} {old:>9,.0f} {new:>9,.0f} {new / old:>6.2f}")


if __name__ == "__main__":
    main()
