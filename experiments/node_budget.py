"""Calibrates the search bots' node budgets: how many nodes each bot's search visits in 0.1 s of CPU time.

Run: python experiments/node_budget.py [--seeds S] [--think SECONDS]

From every third position of S games of greedy play (``benchmarks/tron_search.py``) on each default map
while the players are in contact, each bot's search (``minimax``: reachable area, Python; ``voronoi`` and
``chamber``: compiled, with their move orders) runs iterative deepening for ``--think`` seconds of wall
time, as the bots did by default, and the nodes it visited are divided by the CPU time it used (CPU time,
not wall time, so that a busy machine does not bias the figure). From positions where the players are
apart, ``chamber``'s space-filling search is measured the same way (in Python and compiled), and from
positions of ``four_corners`` where seat 0 touches two opponents or more, the paranoid search with each
evaluation. The printed budget is the median rate times 0.1 s; the bots' defaults
(``arena/engines/tron/search_bot.py``) are these figures, rounded.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))  # the greedy positions tron_search times

from tron_search import apart_positions, greedy_game, greedy_positions

from arena.engines.tron.compiled import warm_up
from arena.engines.tron.compiled_fill import warm_up as warm_up_fill
from arena.engines.tron.paranoid import ParanoidSearcher
from arena.engines.tron.search import ASPIRATION, Position, Searcher

MAPS = ("center_block", "diagonal_blocks", "empty_room", "open_30")
BOTS = {"minimax": {"evaluation": "area"}, "voronoi": {"evaluation": "voronoi"},
        "chamber": {"evaluation": "chamber", "ordering": "history", "aspiration": ASPIRATION}}


def crowd_positions(map_name: str, seeds: int, every: int = 3) -> list[Position]:
    """Positions of greedy games on a map of three or four players in which seat 0 touches two or more."""
    found = []
    for seed in range(1, seeds + 1):
        for turn, game in greedy_game(map_name, seed, 400):
            if 0 not in game.to_act():  # seat 0 is out
                break
            pos = Position.from_observation(game.observe(0))
            if turn % every == 0 and len(pos.in_contact()) >= 2:
                found.append(pos)
    return found


def rate(positions: list[Position], think: float, run) -> float:  # a search call
    """The median of nodes per CPU second over ``positions``."""
    rates = []
    for pos in positions:
        started = time.process_time()
        nodes = run(pos, time.perf_counter() + think)
        used = time.process_time() - started
        if used > 0 and nodes:
            rates.append(nodes / used)
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games of greedy play per map")
    parser.add_argument("--think", type=float, default=0.1, help="wall seconds a search runs")
    args = parser.parse_args()
    warm_up()
    warm_up_fill()
    fights = [pos for name in MAPS for pos in greedy_positions(name, args.seeds)]
    apart = [pos for name in MAPS for pos in apart_positions(name, args.seeds * 3)]
    print(f"{len(fights)} positions in contact, {len(apart)} apart")
    print("| search | nodes per CPU second (median) | budget for 0.1 s |")
    print("|---|---|---|")
    for name, options in BOTS.items():
        def fight(pos: Position, deadline: float, options=options) -> int:
            search = Searcher(pos.stride, pos.size, simultaneous=pos.simultaneous, deadline=deadline, **options)
            search.iterate(pos.free, pos.me, pos.op)
            return search.nodes
        per_second = rate(fights, args.think, fight)
        print(f"| {name} fight | {per_second:,.0f} | {per_second * 0.1:,.0f} |")

    for engine in ("python", "compiled"):
        def fill(pos: Position, deadline: float, engine=engine) -> int:
            search = Searcher(pos.stride, pos.size, evaluation="chamber", deadline=deadline, engine=engine)
            search.fill_root(pos.free, pos.me, max_depth=40)
            return search.nodes
        per_second = rate(apart, args.think, fill)
        print(f"| chamber space filling ({engine}) | {per_second:,.0f} | {per_second * 0.1:,.0f} |")

    crowd = crowd_positions("four_corners", args.seeds * 3)
    for evaluation in ("area", "voronoi", "chamber"):
        def paranoid(pos: Position, deadline: float, evaluation=evaluation) -> int:
            search = ParanoidSearcher(pos.stride, pos.size, evaluation=evaluation, simultaneous=pos.simultaneous,
                                      deadline=deadline)
            search.iterate(pos.free, pos.me, pos.in_contact())
            return search.nodes
        per_second = rate(crowd, args.think, paranoid)
        print(f"| paranoid, {evaluation} ({len(crowd)} positions of four_corners) | {per_second:,.0f} | "
              f"{per_second * 0.1:,.0f} |")


if __name__ == "__main__":
    main()
