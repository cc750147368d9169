"""Node budgets: both search engines stop at the same node, and the search bots' tournament gives the same
results with any number of workers."""

import json
import random
import subprocess
import sys

import pytest

from arena.engines.tron.paranoid import ParanoidSearcher
from arena.engines.tron.search import ASPIRATION, Position, Searcher, search_budget
from arena.storage.store import Store
from tests.tron_positions import random_positions

POSITIONS = random_positions(8, seed=5)


@pytest.mark.parametrize(("evaluation", "ordering", "aspiration"),
                         [("voronoi", "killers", 0), ("chamber", "history", ASPIRATION)])
@pytest.mark.parametrize("budget", [400, pytest.param(2500, marks=pytest.mark.slow)])
def test_both_engines_stop_at_the_same_node_and_choose_the_same_move(evaluation, ordering, aspiration, budget):
    stopped = 0
    for index, obs in enumerate(POSITIONS):
        pos = Position.from_observation(obs)
        searchers = [Searcher(pos.stride, pos.size, evaluation=evaluation, engine=engine, ordering=ordering,
                              aspiration=aspiration, rng=random.Random(index), node_limit=budget)
                     for engine in ("python", "compiled")]
        results = [searcher.iterate(pos.free, pos.me, pos.op) for searcher in searchers]
        assert results[0] == results[1]
        assert searchers[0].nodes == searchers[1].nodes <= budget + 1
        stopped += searchers[0].nodes == budget + 1  # the search entered one node past its budget and stopped
    assert stopped >= 4


def test_a_budget_stops_the_search_where_a_larger_one_goes_deeper():
    pos = Position.from_observation(POSITIONS[0])
    depths = []
    for budget in (300, 3000, 30000):
        search = Searcher(pos.stride, pos.size, evaluation="chamber", node_limit=budget)
        depths.append(search.iterate(pos.free, pos.me, pos.op)[2])
        assert search.nodes <= budget + 1
    assert depths == sorted(depths) and depths[0] < depths[-1]


def test_the_paranoid_search_keeps_to_its_node_budget():
    crowded = Position.from_observation(POSITIONS[1])
    unlimited = ParanoidSearcher(crowded.stride, crowded.size, evaluation="voronoi")
    unlimited.iterate(crowded.free, crowded.me, (crowded.op,), max_rounds=3)
    search = ParanoidSearcher(crowded.stride, crowded.size, evaluation="voronoi", node_limit=20)
    search.iterate(crowded.free, crowded.me, (crowded.op,), max_rounds=3)
    assert unlimited.nodes > 21 and search.nodes == 21


def test_the_budget_of_a_move():
    assert search_budget(0.0, 0, 35_000, 1.0) == (0.8, 35_000)  # the default: nodes, 80% of the limit as a guard
    assert search_budget(0.0, 5_000, 35_000, 2.0) == (1.6, 5_000)
    assert search_budget(0.25, 0, 35_000, 1.0) == (0.25, 0)  # think: the clock alone
    assert search_budget(0.25, 800, 35_000, 1.0) == (0.25, 800)
    assert search_budget(0.0, 0, 35_000, 1.0, by_clock=True) == (0.1, 0)  # learned weights: the clock
    assert search_budget(0.0, 0, 35_000, 0.1) == (pytest.approx(0.08), 10_500)  # a short limit: 30% of nodes


@pytest.mark.slow
def test_a_negative_budget_is_refused_before_any_game(tmp_path):
    result = subprocess.run([sys.executable, "-m", "arena", "play", "chamber:nodes=-5", "random"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == "error: bot spec 'chamber:nodes=-5': nodes must not be negative"


SEARCH_BOTS = "minimax:nodes=1500,voronoi:nodes=1500,chamber:nodes=1500"


@pytest.mark.slow
def test_the_search_bots_give_the_same_results_with_one_and_two_workers(tmp_path):
    """The shipped search bots (node budgets, not clocks, stop their searches; small ones here, to be quick), one
    game each way per pair on empty_room: the same games however many workers play them."""
    outputs, records = [], []
    for workers in (1, 2):
        db = tmp_path / f"w{workers}.db"
        result = subprocess.run([sys.executable, "-m", "arena", "tournament", "empty_room", "--games", "1",
                                 "-b", SEARCH_BOTS, "--seed", "11", "-f", "json", "-w", str(workers),
                                 "--db", str(db)], capture_output=True, text=True, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        outputs.append(json.loads(result.stdout))
        with Store(db) as store:
            records.append([(row.record["players"], row.record["turns"], row.record["result"], row.record["seed"])
                            for row in store.games(1)])
    assert outputs[0] == outputs[1]
    assert records[0] == records[1]
    assert {entry["bot"] for entry in outputs[0]["standings"]} == set(SEARCH_BOTS.split(","))
    assert outputs[0]["games_played"] == len(records[0]) == 6
    assert all(not row[2].get("failures") for row in records[0]), "a search bot failed: its game says nothing"
