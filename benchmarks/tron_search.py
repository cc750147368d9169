"""Speed of the Tron search engine (:mod:`arena.engines.tron.search`): evaluations per second and search depth.

Run: python benchmarks/tron_search.py [--repeat R] [--quick] [--seeds S]

Evaluations: on the opening and a mid-game position (15 turns on 13x13, 40 on 30x30, of greedy
space-keeping play) of a 13x13 map (``empty_room``) and a 30x30 one (``open_30``), the time of one call of

* the plain breadth-first flood fill of ``bots/floodfill.py`` (a Python set and list) from both heads:
  the baseline every ratio is against, measured in the same run;
* the same reachable-area count by bitboard flood fill (:func:`~arena.engines.tron.search.flood`);
* a plain two-source BFS Voronoi count (Python dicts), for comparison;
* the ``voronoi`` bot's evaluation: the bitboard Voronoi count
  (:func:`~arena.engines.tron.search.territories`, cells strictly closer to each head);
* the ``chamber`` bot's evaluation (Voronoi regions, the part of each one pass can fill, parity, edges);
* both again in compiled code (:func:`arena.engines.tron.compiled.evaluate`, called from Python: the
  search calls it from compiled code, without the call's overhead);
* :func:`~arena.engines.tron.search.chamber_space` (articulation points, chambers) from one head, and the
  same in compiled code (:mod:`arena.engines.tron.compiled_fill`).

Depth: the deepest whole-round depth (plies: one move by each player is two) iterative deepening
finishes within 100 ms and 1 s from the opening of ``empty_room``, ``open_30`` and ``pillars_30``,
with the Voronoi and chamber evaluations under simultaneous moves, searched in Python and by the
compiled engine (:mod:`arena.engines.tron.compiled`; the bots use it), with the ``voronoi`` bot's move
order (killer moves) and with the ``chamber`` bot's (killers by ply, history heuristic, aspiration
windows). Absolute speeds vary between machines; the ratios less so. Each timing is the best of R runs.

Fixed depth: the nodes and seconds each of those searches (compiled) takes to finish a fixed depth (14
plies on the 13x13 maps, 10 on ``open_30``) from every third position of S games of greedy play per
map (``--seeds S``) while the players are in contact; ``x nodes`` and ``x speed`` are against the same
evaluation searched in the killer order. The evaluation timings above repeat one position, which flatters
code with many branches (the processor learns them); searching many positions does not.

Space filling: ``chamber``'s one-player search once the players are apart (``Searcher.fill_root``), in Python
and compiled, for 0.1 s from the first position apart of 3 S greedy games on each default map: nodes per CPU
second and the depth finished.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from timing import Figures, add_json_option, best_seconds

from arena.core.maps import resolve_map
from arena.engines.tron.compiled import CHAMBER, VORONOI, CompiledSearch, evaluate, warm_up
from arena.engines.tron.compiled_fill import CompiledFill
from arena.engines.tron.compiled_fill import warm_up as warm_up_fill
from arena.engines.tron.search import (
    ASPIRATION,
    CELL_WEIGHT,
    EDGE_WEIGHT,
    Position,
    Searcher,
    chamber_space,
    flood,
)
from arena.games.tron.game import TronGame

BOTS = Path(__file__).resolve().parent.parent / "bots"


def _floodfill_reachable() -> Callable[[bytes, int, int], int]:
    spec = importlib.util.spec_from_file_location("_floodfill_bot", BOTS / "floodfill.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.reachable


def greedy_round(game: TronGame, rng: random.Random) -> bool:
    """Play one round in which each player takes the safe move leaving it the most reachable cells
    (seeded random ties); False, with nothing played, if some player has no safe move."""
    actions = {}
    for seat in game.to_act():
        obs = game.observe(seat)
        pos = Position.from_observation(obs)
        scored = [(flood(pos.free, 1 << obs.head + obs.delta[m], pos.stride).bit_count(), rng.random(), m)
                  for m in obs.safe_moves()]
        if not scored:
            return False
        actions[seat] = max(scored)[2]
    game.apply(actions)
    return True


def greedy_game(map_name: str, seed: int, rounds: int) -> Iterator[tuple[int, TronGame]]:
    """A game of greedy play on ``map_name`` (:func:`greedy_round`), before each of its first ``rounds``
    rounds: ``(round, game)``, until a player has no safe move or the game ends."""
    game = TronGame(resolve_map(map_name), {}, np.random.default_rng(seed))
    rng = random.Random(seed)
    for turn in range(rounds):
        yield turn, game
        if not greedy_round(game, rng) or game.result is not None:
            return


def position(map_name: str, turns: int, seed: int = 1) -> TronGame:
    """A game on ``map_name`` after ``turns`` rounds of :func:`greedy_round`: a mid-game position with
    long trails."""
    game = TronGame(resolve_map(map_name), {}, np.random.default_rng(seed))
    rng = random.Random(seed)
    for _ in range(turns):
        if not greedy_round(game, rng):
            return game
        if game.result is not None:
            raise ValueError(f"the game on {map_name} ended before turn {turns}")
    return game


def plain_voronoi(cells: bytes, a: int, b: int, stride: int) -> int:
    """Voronoi difference by two plain breadth-first searches over the byte grid (the textbook way)."""
    def distances(start: int) -> dict[int, int]:
        seen = {start: 0}
        frontier = [start]
        for cell in frontier:
            d = seen[cell] + 1
            for n in (cell - stride, cell + stride, cell - 1, cell + 1):
                if cells[n] == 0 and n not in seen:
                    seen[n] = d
                    frontier.append(n)
        return seen
    da, db = distances(a), distances(b)
    far = 1 << 30
    mine = sum(1 for c, d in da.items() if c != a and d < db.get(c, far))
    theirs = sum(1 for c, d in db.items() if c != b and d < da.get(c, far))
    return mine - theirs


def best_time(function: Callable[[], object], repeat: int, budget: float = 0.2) -> float:
    """Seconds per call: best of ``repeat`` timings of as many calls as fit in about ``budget`` seconds."""
    calls, started = 0, time.perf_counter()
    while time.perf_counter() - started < budget / 4:
        function()
        calls += 1
    def run() -> None:
        for _ in range(calls * 4):
            function()

    return best_seconds(run, repeat) / (calls * 4)


def evaluation_lines(obs, reachable: Callable[[bytes, int, int], int]) -> list[tuple[str, Callable[[], object]]]:
    """The evaluations timed on the position of ``obs``, the floodfill baseline first."""
    pos = Position.from_observation(obs)
    cells, s, a, b = obs.cells, pos.stride, pos.me, pos.op
    searcher = Searcher(s, pos.size, evaluation="chamber", engine="python")
    voronoi_searcher = Searcher(s, pos.size, evaluation="voronoi", engine="python")
    free = pos.free
    # floodfill.py counts from a free cell: start next to each head, as the bot does for a move.
    start_a = next(a + d for d in (-s, 1, s, -1) if cells[a + d] == 0)
    start_b = next(b + d for d in (-s, 1, s, -1) if cells[b + d] == 0)
    engine = CompiledSearch(s, pos.size, "chamber", True, CELL_WEIGHT, EDGE_WEIGHT)
    board = engine.cells(free)
    filler = CompiledFill(s, pos.size)
    fill_board = filler.board(free)

    def compiled(kind: int) -> Callable[[], object]:
        return lambda: evaluate(board, a, b, s, kind, engine.colour, CELL_WEIGHT, EDGE_WEIGHT, engine.counters,
                                engine.tags, engine.scratch, engine.chambers)

    lines = [
        ("floodfill.py BFS, both heads (base)",
         lambda: reachable(cells, start_a, s) - reachable(cells, start_b, s)),
        ("bitboard flood, both heads", lambda: flood(free, 1 << a, s).bit_count()
         - flood(free, 1 << b, s).bit_count()),
        ("plain BFS Voronoi", lambda: plain_voronoi(cells, a, b, s)),
        ("voronoi bot evaluation", lambda: voronoi_searcher.evaluate(free, a, b)),
        ("chamber bot evaluation", lambda: searcher.chamber_value(free, a, b)),
        ("voronoi evaluation, compiled", compiled(VORONOI)),
        ("chamber evaluation, compiled", compiled(CHAMBER)),
        ("chamber_space, one head", lambda: chamber_space(free, a, s, pos.size)),
        ("chamber_space, compiled", lambda: filler.chamber_space(fill_board, a)),
    ]
    return lines


def evaluations(repeat: int, figures: Figures) -> None:
    """Print microseconds per evaluation and ratios against the floodfill baseline."""
    reachable = _floodfill_reachable()
    print(f"{'position':<22} {'evaluation':<34} {'us/call':>9} {'calls/s':>10} {'x baseline':>10}")
    for map_name, turns in (("empty_room", 0), ("empty_room", 15), ("open_30", 0), ("open_30", 40)):
        lines = evaluation_lines(position(map_name, turns).observe(0), reachable)
        base = None
        label = f"{map_name} turn {turns}"
        for name, function in lines:
            seconds = best_time(function, repeat)
            base = base or seconds
            figures.add(f"{label}, {name}", seconds * 1e6, "us/call")
            print(f"{label:<22} {name:<34} {seconds * 1e6:>9.1f} {1 / seconds:>10,.0f} {base / seconds:>10.1f}")


SEARCHES = (("voronoi", "killers", {}),
            ("chamber", "killers", {}),
            ("chamber", "history", {"ordering": "history", "aspiration": ASPIRATION}))
"""What the depth table searches: the voronoi bot's search, chamber's evaluation in that search, and the
chamber bot's search (history ordering and aspiration windows)."""


def depths(limits: tuple[float, ...], figures: Figures) -> None:
    """Print the depth iterative deepening completes from each opening within each time limit."""
    print(f"\n{'opening':<12} {'evaluation':<10} {'ordering':<9} {'engine':<9} "
          + " ".join(f"{f'depth in {t:g} s':>14} {'nodes':>9}" for t in limits))
    for map_name in ("empty_room", "open_30", "pillars_30"):
        pos = Position.from_observation(position(map_name, 0).observe(0))
        for evaluation, ordering, options in SEARCHES:
            for engine in ("python", "compiled"):
                cells = []
                for limit in limits:
                    search = Searcher(pos.stride, pos.size, evaluation=evaluation, engine=engine,
                                      deadline=time.perf_counter() + limit, **options)
                    _, _, done = search.iterate(pos.free, pos.me, pos.op, max_depth=200)
                    figures.add(f"{map_name}, {evaluation}, {ordering}, {engine}, depth in {limit:g} s", done, "plies")
                    cells.append(f"{done:>14} {search.nodes:>9}")
                print(f"{map_name:<12} {evaluation:<10} {ordering:<9} {engine:<9} " + " ".join(cells))


def greedy_positions(map_name: str, seeds: int, every: int = 3) -> list[Position]:
    """Positions still in contact from games of greedy play (:func:`greedy_round`), every ``every`` rounds."""
    found = []
    for seed in range(1, seeds + 1):
        for turn, game in greedy_game(map_name, seed, 200):
            if turn % every == 0:
                pos = Position.from_observation(game.observe(0))
                if not pos.in_contact():
                    break
                found.append(pos)
    return found


FIXED_DEPTHS = {"empty_room": 14, "center_block": 14, "diagonal_blocks": 14, "open_30": 10}


def fixed_depth(seeds: int, figures: Figures) -> None:
    """Print the nodes and seconds each search takes to reach a fixed depth from the same positions."""
    print(f"\n{'map':<16} {'positions':>9} {'depth':>5} {'evaluation':<10} {'ordering':<9} {'nodes':>10} "
          f"{'seconds':>8} {'x nodes':>8} {'x speed':>8}")
    for map_name, depth in FIXED_DEPTHS.items():
        positions = greedy_positions(map_name, seeds)
        base: dict[str, tuple[int, float]] = {}
        for evaluation, ordering, options in SEARCHES:
            counted = []

            def run(evaluation=evaluation, options=options, depth=depth, positions=positions,
                    counted=counted) -> None:
                for pos in positions:
                    search = Searcher(pos.stride, pos.size, evaluation=evaluation, simultaneous=pos.simultaneous,
                                      engine="compiled", **options)
                    search.iterate(pos.free, pos.me, pos.op, max_depth=depth)
                    counted.append(search.nodes)

            seconds = best_seconds(run)
            nodes = sum(counted)
            figures.add(f"{map_name}, depth {depth}, {evaluation}, {ordering}", seconds, "s")
            base_nodes, base_seconds = base.setdefault(evaluation, (nodes, seconds))
            print(f"{map_name:<16} {len(positions):>9} {depth:>5} {evaluation:<10} {ordering:<9} {nodes:>10} "
                  f"{seconds:>8.2f} {base_nodes / nodes:>8.2f} {base_seconds / seconds:>8.2f}")


def apart_positions(map_name: str, seeds: int) -> list[Position]:
    """The first positions of greedy games in which the players can no longer reach each other."""
    found = []
    for seed in range(1, seeds + 1):
        for _, game in greedy_game(map_name, seed, 400):
            pos = Position.from_observation(game.observe(0))
            if not pos.in_contact():
                found.append(pos)
                break
    return found


FILL_MAPS = ("center_block", "diagonal_blocks", "empty_room", "open_30")


def fill_speed(seeds: int, figures: Figures, think: float = 0.1) -> None:
    """Print the space-filling search's speed by each engine: from the first position apart of ``3 * seeds``
    greedy games per map, ``fill_root`` for ``think`` seconds; nodes per CPU second (median and over all) and
    the median depth finished, over the positions with a choice of moves."""
    positions = [pos for name in FILL_MAPS for pos in apart_positions(name, seeds * 3)]
    print(f"\n{'space filling':<14} {'positions':>9} {'nodes/s (median)':>17} {'nodes/s (all)':>14} "
          f"{'median depth':>12}")
    for engine in ("python", "compiled"):
        rates, depths, nodes, used = [], [], 0, 0.0
        for pos in positions:
            search = Searcher(pos.stride, pos.size, evaluation="chamber", engine=engine,
                              deadline=time.perf_counter() + think)
            started = time.process_time()
            _, _, depth = search.fill_root(pos.free, pos.me, max_depth=40)
            seconds = time.process_time() - started
            if seconds > 0 and search.nodes:  # not a forced move
                rates.append(search.nodes / seconds)
                nodes += search.nodes
                used += seconds
                depths.append(depth)
        figures.add(f"space filling, {engine}, median", statistics.median(rates), "nodes/s")
        print(f"{engine:<14} {len(positions):>9} {statistics.median(rates):>17,.0f} {nodes / used:>14,.0f} "
              f"{statistics.median(depths):>12}")


def main() -> None:
    """Print the four tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timings per evaluation; the best counts")
    parser.add_argument("--quick", action="store_true", help="only the 100 ms depth column")
    parser.add_argument("--seeds", type=int, default=4, help="games of greedy play per map for the fixed depths")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    warm_up()
    warm_up_fill()
    evaluations(args.repeat, figures)
    depths((0.1,) if args.quick else (0.1, 1.0), figures)
    fixed_depth(args.seeds, figures)
    fill_speed(args.seeds, figures)
    figures.write()


if __name__ == "__main__":
    main()
