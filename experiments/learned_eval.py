"""Learned against hand-set evaluation: train ``arena train tron-eval`` weights, then play them against Voronoi.

Run: python experiments/learned_eval.py [--train-games N] [--games N] [--depth D] [--maps M ...] [--workers W]

1. A training run is played and stored in a database (``--db``, default a temporary file): a round
   robin of ``voronoi:depth=D``, ``chamber:depth=D``, ``floodfill``, ``chaser``, ``wallhugger`` and
   ``random`` on the maps, ``--train-games`` games per pairing per map, with mirrored random starts
   (``starts=mirrored``) so that games between the deterministic bots differ.
2. Weights are fitted on those games (:mod:`arena.learning.tron`, 20% of the games held out,
   ``--seed``) and the training and held-out errors printed against the Voronoi-only baseline.
3. The match: ``voronoi:depth=D,weights=FILE`` against ``voronoi:depth=D`` (the same search, only the
   evaluation differs), ``--games`` games per map in seat-swapped pairs, mirrored random starts (a
   different tournament seed from the training run). Fixed depth, no clock: the same command gives the
   same games on any machine. Prints the learned bot's score with its 95% Wilson interval
   (:func:`arena.stats.proportions.score_rate`, a draw counts half), whichever way it comes out.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.learning.tron.dataset import build_dataset, records_from_db
from arena.learning.tron.training import save_weights, train
from arena.plugins.registry import PluginConfig, load_registry
from arena.stats.proportions import score_rate
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import TournamentRun, play_tournament

MAPS = ("empty_room", "center_block", "diagonal_blocks")
CONFIG = PluginConfig(use_cwd_bots=False, use_env_path=False)


def main() -> None:
    """Train, report the fit, play the match and print the score."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train-games", type=int, default=20, help="training games per pairing per map")
    parser.add_argument("--games", type=int, default=134, help="match games per map (seat-swapped pairs)")
    parser.add_argument("--depth", type=int, default=4, help="search depth in plies of every search bot")
    parser.add_argument("--maps", nargs="+", default=list(MAPS), help="maps to play on")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the train/held-out split")
    parser.add_argument("--db", type=Path, default=None, help="database for the training run (default: temporary)")
    args = parser.parse_args()

    started = time.perf_counter()
    workdir = Path(tempfile.mkdtemp(prefix="learned_eval_"))
    db = args.db or workdir / "train.db"
    field = [f"voronoi:depth={args.depth}", f"chamber:depth={args.depth}", "floodfill", "chaser",
             "wallhugger", "random"]
    command = [sys.executable, "-m", "arena", "tournament", *args.maps, "-b", ",".join(field),
               "-n", str(args.train_games), "-o", "starts=mirrored", "--seed", "1", "--db", str(db),
               "-f", "md", "--time-limit", "5"]
    if args.workers:
        command += ["-w", str(args.workers)]
    print("training run:", " ".join(command[1:]), flush=True)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"  played in {time.perf_counter() - started:.0f} s", flush=True)

    registry = load_registry(CONFIG)
    data = build_dataset(records_from_db(db), registry)
    result = train(data, seed=args.seed, holdout=0.2)
    weights = workdir / "weights.json"
    save_weights(result, weights)
    errs = result.errors
    print(f"fit: {result.games['train']} training games ({result.positions['train']} positions), "
          f"{result.games['holdout']} held out ({result.positions['holdout']} positions)")
    print("  weights: " + ", ".join(f"{n} {w:+.5f}" for n, w in zip(result.names, result.weights, strict=True)))
    for label, a, b in (("learned", "train", "holdout"), ("voronoi only", "baseline_train", "baseline_holdout")):
        print(f"  {label:>12}: training mse {errs[a]['mse']:.4f}, accuracy {errs[a]['accuracy']:.1%}; "
              f"held-out mse {errs[b]['mse']:.4f}, accuracy {errs[b]['accuracy']:.1%}")

    learned, handset = f"voronoi:depth={args.depth},weights={weights}", f"voronoi:depth={args.depth}"
    definition = TournamentDefinition(maps=tuple(args.maps), game="tron", bots=(learned, handset),
                                      games=args.games, time_limit=5.0, seed=2, options={"starts": "mirrored"})
    run = TournamentRun(plan_tournament(definition, registry))
    counts = {name: [0, 0, 0] for name in ["all", *args.maps]}
    failures = []

    def collect(outcome) -> None:  # a MatchOutcome
        setup = run.setups[outcome.index]
        labels = [spec.label for spec in setup.bots]
        seat = labels.index(learned)
        mine, theirs = outcome.ranks[seat], outcome.ranks[1 - seat]
        slot = 0 if mine < theirs else 1 if mine == theirs else 2
        for scope in ("all", setup.game_map.name if setup.game_map else "-"):
            counts[scope][slot] += 1
        failures.extend(f"{labels[s]}: {kind}" for s, kind in outcome.failure_kinds.items())

    play_tournament(run, registry, CONFIG, workers=args.workers, on_outcome=collect)
    print(f"match: learned voronoi:depth={args.depth} against hand-set voronoi:depth={args.depth}, "
          f"{args.games} games per map, seats swapped, mirrored random starts")
    for scope, (wins, draws, losses) in counts.items():
        rate = score_rate(wins, draws, losses)
        print(f"  {scope:>16}: +{wins} ={draws} -{losses}  score {rate.score:.1%} "
              f"[{rate.lower:.1%}-{rate.upper:.1%}] ({rate.games} games)")
    print(f"failures: {len(failures)}; total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
