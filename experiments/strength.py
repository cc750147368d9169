"""Strength of the search bots: each of minimax, voronoi and chamber against the field and each other.

Run: python experiments/strength.py [--games N] [--time-limit T] [--think S] [--maps M ...] [--workers W]

A round robin through the arena's own tournament runner (``prepare``, ``TournamentRun``,
``play_tournament`` on supervised worker processes) of ``minimax``, ``voronoi`` and ``chamber`` with
``random``, ``wallhugger``, ``chaser`` and ``floodfill``, on ``empty_room``, ``center_block``,
``diagonal_blocks`` and the 30x30 ``open_30`` by default, AI Challenge rules. ``--games N`` is the
number of games per pairing *per map*, played in seat-swapped pairs (so N is rounded up to even).
``--time-limit`` is the referee's limit per move (default 0.1 s; the search bots search their default node
budgets, scaled to 30% for a 0.1 s limit, unless ``--think S`` has them search by the clock for S seconds,
which also shows in their names, e.g. ``voronoi:think=0.02``). ``--scale 0.3`` gives them 30% of their
default budgets (what they search by default under a 0.1 s limit) as ``nodes=`` in their names: with
``--time-limit 1`` no move comes near the limit, and the games are the same on any machine.
``--bots`` takes bot specs, so older versions kept as parameters join the ladder (``--bots chamber
chamber:version=1 voronoi``); ``--field`` replaces the simple opponents (``--field`` alone: none), and
``--maps`` takes map files too (``experiments/maps/heldout/*.txt``: maps no version was tuned on).

Prints, for each search bot, its score against each opponent over all maps and on each map, with the
95% Wilson interval (:func:`arena.stats.proportions.score_rate`; a draw counts half) and the games played, then
the won-drawn-lost counts behind them. ``--games 26`` (104 games per pairing over the four maps) takes
about 13 minutes on a 2-core machine; ``--games 100`` about four times as long.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict

from arena.core.maps import resolve_map
from arena.plugins.registry import PluginConfig, load_registry
from arena.stats.proportions import score_rate
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import TournamentRun, play_tournament

SEARCH = ("minimax", "voronoi", "chamber")
FIELD = ("random", "wallhugger", "chaser", "floodfill")
MAPS = ("empty_room", "center_block", "diagonal_blocks", "open_30")
CONFIG = PluginConfig(use_cwd_bots=False, use_env_path=False)


def default_nodes(registry, name: str) -> int:  # a Registry
    """The default node budget of search bot ``name`` (``minimax`` keeps it in its module)."""
    cls = registry.bot(name).cls
    return getattr(cls, "default_nodes", None) or sys.modules[cls.__module__].DEFAULT_NODES


def with_budget(registry, spec: str, think: float | None, scale: float | None) -> str:
    """The bot spec ``spec`` searching by the clock for ``think`` seconds, or ``scale`` times its default
    node budget as ``nodes=``, or as it is."""
    name, _, params = spec.partition(":")
    if think:
        budget = f"think={think:g}"
    elif scale:
        budget = f"nodes={round(default_nodes(registry, name) * scale)}"
    else:
        return spec
    return f"{spec},{budget}" if params else f"{name}:{budget}"


def main() -> None:
    """Play the round robin and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing per map (seat-swapped pairs)")
    parser.add_argument("--time-limit", type=float, default=0.1, help="seconds per move (the referee's limit)")
    parser.add_argument("--think", type=float, default=None, help="seconds the search bots think per move")
    parser.add_argument("--scale", type=float, default=None,
                        help="give the search bots this share of their default node budgets (e.g. 0.3)")
    parser.add_argument("--maps", nargs="+", default=list(MAPS), help="maps to play on")
    parser.add_argument("--bots", nargs="+", default=list(SEARCH),
                        help="the search bots to measure, with parameters if wanted (chamber:version=1)")
    parser.add_argument("--field", nargs="*", default=list(FIELD),
                        help="the reference opponents besides the search bots (none: the search bots only)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=2010)
    args = parser.parse_args()

    registry = load_registry(CONFIG)
    search = [with_budget(registry, spec, args.think, args.scale) for spec in args.bots]
    field = tuple(args.field)
    map_names = [resolve_map(spec).name for spec in args.maps]
    definition = TournamentDefinition(maps=tuple(args.maps), game="tron", bots=(*search, *field),
                                      games=args.games, time_limit=args.time_limit, seed=args.seed)
    tournament = plan_tournament(definition, registry)
    run = TournamentRun(tournament)
    # results[(bot, opponent, map)] = [wins, draws, losses]
    results: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    failures: list[str] = []
    total = tournament.total_games()
    started = time.perf_counter()

    def collect(outcome) -> None:  # a MatchOutcome
        setup = run.setups[outcome.index]
        labels = [spec.label for spec in setup.bots]
        map_name = setup.game_map.name if setup.game_map else "-"
        for seat, kind in outcome.failure_kinds.items():
            against = ", ".join(label for other, label in enumerate(labels) if other != seat)
            failures.append(f"{labels[seat]} {kind} on {map_name} against {against}")
        for seat, label in enumerate(labels):
            for other, opponent in enumerate(labels):
                if other != seat:
                    mine, theirs = outcome.ranks[seat], outcome.ranks[other]
                    results[label, opponent, map_name][0 if mine < theirs else 1 if mine == theirs else 2] += 1
        done = len(run.played)
        if done % 50 == 0 or done == total:
            print(f"  {done}/{total} games, {time.perf_counter() - started:.0f} s", flush=True)

    play_tournament(run, registry, CONFIG, workers=args.workers, on_outcome=collect)
    elapsed = time.perf_counter() - started
    print(f"\n{total} games in {elapsed:.0f} s; {args.games} per pairing per map, time limit {args.time_limit:g} s"
          + (f", search bots think {args.think:g} s" if args.think else ""))
    opponents = [*field, *search]
    width = max(22, *(len(name) + 2 for name in opponents))
    for scope in ["all maps", *map_names]:
        print(f"\n{scope}: score of the row bot [95% Wilson interval] (games)")
        print(f"{'bot':<{width}}" + "".join(f"{name:>{width}}" for name in opponents))
        for bot in search:
            cells = []
            for opponent in opponents:
                maps = map_names if scope == "all maps" else [scope]
                wins, draws, losses = (sum(results[bot, opponent, m][k] for m in maps) for k in range(3))
                if opponent == bot or wins + draws + losses == 0:
                    cells.append(f"{'-':>{width}}")
                    continue
                rate = score_rate(wins, draws, losses)
                text = f"{rate.score:.0%} [{rate.lower:.0%}-{rate.upper:.0%}] ({rate.games})"
                cells.append(f"{text:>{width}}")
            print(f"{bot:<{width}}" + "".join(cells))
    print("\nwon-drawn-lost of the row bot, over all maps (and on each map)")
    for bot in search:
        for opponent in opponents:
            if opponent == bot:
                continue
            per_map = ["-".join(str(n) for n in results[bot, opponent, m]) for m in map_names]
            total_wdl = "-".join(str(sum(results[bot, opponent, m][k] for m in map_names)) for k in range(3))
            detail = ", ".join(f"{m} {wdl}" for m, wdl in zip(map_names, per_map, strict=True))
            print(f"  {bot} vs {opponent}: {total_wdl}" + (f" ({detail})" if len(args.maps) > 1 else ""))
    print(f"\nfailures (timeouts, crashes, illegal moves; each lost its game): {len(failures)}")
    for line, count in sorted(Counter(failures).items()):
        print(f"  {count} x {line}")


if __name__ == "__main__":
    main()
