"""Tournament speed-up on all workers, and the arena's own overhead, for bots that think 10 ms a move.

Run: python benchmarks/tournament_overhead.py [--think-ms 10] [--games 4] [--workers W]

Four bots that each spend THINK ms of CPU per move (then move like the shipped random bot) play a
round robin on empty_room through the full tournament path: schedule, supervised workers, hard
limits, and a database commit per game. The overhead is the share of worker time spent neither in
the bots nor in the game engine:

    overhead = 1 - (bot thinking time + engine time) / (wall time x workers)

Bot thinking time is what the referee measured; engine time is measured by replaying every game's
actions through the bare engine. The speed-up compares 1 worker with all workers in the same run.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from timing import Figures, add_json_option, best_seconds

from arena.play.executors import default_workers
from arena.play.limits import Limits, default_memory_limit
from arena.plugins.registry import PluginConfig, load_registry
from arena.storage.store import Store
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import TournamentRun, play_tournament

THINKER = '''
import time

from arena import bot


def _think(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


@bot(name="{name}", game="tron")
def {name}(obs, rng):
    """Spends {ms} ms of CPU, then moves like the random bot."""
    _think({ms} / 1000)
    moves = obs.safe_moves()
    return rng.choice(moves) if moves else "N"
'''


def engine_seconds(run: TournamentRun, outcomes: dict, registry) -> float:
    """Seconds the bare engine needs to replay every game (setup, observations and moves)."""
    def replay() -> None:
        for index, outcome in outcomes.items():
            setup = run.setups[index]
            game_cls = registry.game(setup.game)
            game = game_cls(setup.game_map, game_cls.resolve_options(setup.options),
                            np.random.default_rng(setup.seed))
            for actions in outcome.actions:
                for seat in actions:
                    game.observe(seat)
                game.apply(actions)

    return best_seconds(replay)


def measure(bots_dir: Path, workers: int, games: int) -> tuple[float, float, int]:
    """Play the round robin on ``workers``; return (wall seconds, overhead share, games)."""
    config = PluginConfig(bot_dirs=(str(bots_dir),), use_cwd_bots=False, use_env_path=False)
    registry = load_registry(config)
    definition = TournamentDefinition(maps=("empty_room",), bots=("thinker_a", "thinker_b", "thinker_c", "thinker_d"),
                                      games=games, seed=1, time_limit=1.0)
    run = TournamentRun(plan_tournament(definition, registry))
    outcomes: dict = {}
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        run.run_id = store.create_run("bench", "tron", "round-robin", definition.as_json(), "bench", 0)
        wall = best_seconds(lambda: play_tournament(run, registry, config, workers=workers, store=store,
                                                    limits=Limits(memory_limit=default_memory_limit(workers)),
                                                    on_outcome=lambda o: outcomes.__setitem__(o.index, o)))
    thinking = sum(sum(o.think_time) for o in outcomes.values())
    useful = thinking + engine_seconds(run, outcomes, registry)
    return wall, 1 - useful / (wall * workers), len(outcomes)


def main() -> None:
    """Print the figures for 1 worker and for all workers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think-ms", type=float, default=10.0, help="CPU time each bot spends per move")
    parser.add_argument("--games", type=int, default=4, help="games per pairing")
    parser.add_argument("--workers", type=int, default=default_workers(), help="workers for the second run")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    with tempfile.TemporaryDirectory() as scratch:
        bots_dir = Path(scratch)
        for name in ("thinker_a", "thinker_b", "thinker_c", "thinker_d"):
            (bots_dir / f"{name}.py").write_text(THINKER.format(name=name, ms=args.think_ms))
        print(f"round robin of 4 bots thinking {args.think_ms:g} ms a move on empty_room, {args.games} games a pair")
        print(f"{'workers':>7} {'games':>6} {'wall s':>8} {'overhead':>9} {'speed-up':>9}")
        one, overhead_one, games = measure(bots_dir, 1, args.games)
        print(f"{1:>7} {games:>6} {one:>8.2f} {overhead_one:>8.1%} {1.0:>9.2f}")
        many, overhead_many, games = measure(bots_dir, args.workers, args.games)
        print(f"{args.workers:>7} {games:>6} {many:>8.2f} {overhead_many:>8.1%} {one / many:>9.2f}")
    figures.add("1 worker, wall", one, "s")
    figures.add("1 worker, overhead", overhead_one, "share")
    figures.add(f"{args.workers} workers, wall", many, "s")
    figures.add(f"{args.workers} workers, overhead", overhead_many, "share")
    figures.write()


if __name__ == "__main__":
    main()
