"""The compiled search engine searches exactly the tree the Python one does, only faster."""

import random
import time

import pytest

from arena.engines.tron.compiled import CLOCK_EVERY, CompiledSearch, evaluate, warm_up
from arena.engines.tron.search import ASPIRATION, DRAW, WIN, Position, Searcher, Timeout
from tests.tron_positions import AHEAD, BEHIND, FACE_TO_FACE, observe, random_positions


def open_30_positions(count, seed):
    """Positions on the 30x30 open map after fewer than 60 random safe rounds."""
    return random_positions(count, seed, maps=("open_30",), turns=60)


POSITIONS = random_positions(10, seed=11) + open_30_positions(3, seed=2)


def assert_same_replies(python, compiled, pos, depths):
    """Both searchers value the opponent's reply to each of our moves alike, with the same nodes and leaves, at
    each depth (killers and history carry over between calls, in both engines alike)."""
    for depth in depths:
        for step in python.steps:
            target = pos.me + step
            if not pos.free >> target & 1:
                continue
            free = pos.free & ~(1 << target)
            expected = python._root_reply(free, target, pos.op, depth, -2 * WIN, 2 * WIN)
            assert compiled._root_reply(free, target, pos.op, depth, -2 * WIN, 2 * WIN) == expected
            assert (compiled.nodes, compiled.horizon) == (python.nodes, python.horizon)


@pytest.mark.parametrize("evaluation", ["voronoi", pytest.param("chamber", marks=pytest.mark.slow)])
@pytest.mark.parametrize("simultaneous", [True, False])
@pytest.mark.parametrize("ordering", ["killers", "history"])
def test_every_reply_has_the_same_value_nodes_and_leaves_in_both_engines(evaluation, simultaneous, ordering):
    # The Python chamber search takes half a second a 30x30 position at depth 7: killers with chamber stop at 5
    # there (chamber orders by history; killers at depth 7 on 30x30 are searched with voronoi)
    big_deep = evaluation == "voronoi" or ordering == "history"
    for obs in POSITIONS:
        pos = Position.from_observation(obs)
        python = Searcher(pos.stride, pos.size, evaluation=evaluation, simultaneous=simultaneous, engine="python",
                          ordering=ordering)
        compiled = Searcher(pos.stride, pos.size, evaluation=evaluation, simultaneous=simultaneous,
                            engine="compiled", ordering=ordering)
        assert_same_replies(python, compiled, pos, (1, 2, 3, 5, 7) if big_deep or pos.stride < 32 else (1, 2, 3, 5))
        if ordering == "history":
            assert compiled.compiled.history.tolist() == [list(python.history[0]), list(python.history[1])]


@pytest.mark.parametrize("draw", [0, 150])
@pytest.mark.parametrize("simultaneous", [True, False])
def test_a_draw_worth_more_gives_the_same_tree_in_both_engines(draw, simultaneous):
    heads_close = [observe(rows) for rows in (FACE_TO_FACE, AHEAD, BEHIND)]  # where head-on draws are reachable
    for obs in POSITIONS[:8] + heads_close:
        pos = Position.from_observation(obs)
        python, compiled = (Searcher(pos.stride, pos.size, evaluation="chamber", simultaneous=simultaneous,
                                     engine=engine, ordering="history", draw=draw) for engine in ("python", "compiled"))
        assert_same_replies(python, compiled, pos, (1, 3, 5))


@pytest.mark.parametrize("weights", [(3, 5), (7, -4), (0, 1)])
def test_other_evaluation_weights_give_the_same_tree_in_both_engines(weights):
    for obs in POSITIONS[:8] + POCKETS:
        pos = Position.from_observation(obs)
        python, compiled = (Searcher(pos.stride, pos.size, evaluation="chamber", engine=engine, ordering="history",
                                     draw=0, weights=weights) for engine in ("python", "compiled"))
        engine = compiled.compiled
        assert evaluate(engine.cells(pos.free), pos.me, pos.op, pos.stride, engine.evaluation, engine.colour, *weights,
                        engine.counters, engine.tags, engine.scratch, engine.chambers) == python.evaluate(
            pos.free, pos.me, pos.op)
        assert_same_replies(python, compiled, pos, (1, 3, 5))


@pytest.mark.parametrize(("evaluation", "ordering", "aspiration", "draw"),
                         [("voronoi", "killers", 0, DRAW), ("chamber", "history", ASPIRATION, DRAW),
                          ("chamber", "history", ASPIRATION, 0)])
def test_iterative_deepening_chooses_the_same_moves_in_both_engines(evaluation, ordering, aspiration, draw):
    for index, obs in enumerate(POSITIONS):
        pos = Position.from_observation(obs)
        searchers = [Searcher(pos.stride, pos.size, evaluation=evaluation, engine=engine, ordering=ordering,
                              aspiration=aspiration, rng=random.Random(index), draw=draw)
                     for engine in ("python", "compiled")]
        results = [searcher.iterate(pos.free, pos.me, pos.op, max_depth=6) for searcher in searchers]
        assert results[0] == results[1]
        assert searchers[0].nodes == searchers[1].nodes


POCKETS = [observe(["1...",  # dead ends of three cells and one off the room
                     "....",
                     "#.#.",
                     "#.##",
                     "#.#2"]),
           observe(["...#....",  # a head in the doorway between two rooms
                    "...1....",
                    "...#...2"])]


@pytest.mark.parametrize("evaluation", ["voronoi", "chamber"])
def test_the_compiled_evaluation_equals_the_python_one_on_every_position(evaluation):
    for obs in POSITIONS + POCKETS:
        pos = Position.from_observation(obs)
        python = Searcher(pos.stride, pos.size, evaluation=evaluation, engine="python")
        engine = CompiledSearch(pos.stride, pos.size, evaluation, True, 2, 7)
        compiled = evaluate(engine.cells(pos.free), pos.me, pos.op, pos.stride, engine.evaluation, engine.colour,
                            2, 7, engine.counters, engine.tags, engine.scratch, engine.chambers)
        assert compiled == python.evaluate(pos.free, pos.me, pos.op)


def test_a_compiled_search_past_its_deadline_times_out_and_the_engine_still_works():
    pos = Position.from_observation(open_30_positions(1, seed=5)[0])
    engine = CompiledSearch(pos.stride, pos.size, "voronoi", True, 2, 7)
    step = next(step for step in (-pos.stride, 1, pos.stride, -1) if pos.free >> pos.me + step & 1)
    free, me = pos.free & ~(1 << pos.me + step), pos.me + step
    value, nodes, _, timed_out = engine.reply(free, me, pos.op, 40, -2 * WIN, 2 * WIN, time.perf_counter() - 1)
    assert timed_out and value == 0
    assert nodes == 256  # the clock is read every 256 nodes
    python = Searcher(pos.stride, pos.size, engine="python")
    expected = python._reply(free, me, pos.op, 3, -2 * WIN, 2 * WIN)
    fresh = CompiledSearch(pos.stride, pos.size, "voronoi", True, 2, 7)
    assert engine.reply(free, me, pos.op, 3, -2 * WIN, 2 * WIN, float("inf"))[0] == expected
    assert fresh.reply(free, me, pos.op, 3, -2 * WIN, 2 * WIN, float("inf"))[0] == expected


def test_a_searcher_raises_timeout_when_the_compiled_search_runs_out_of_time():
    pos = Position.from_observation(open_30_positions(1, seed=5)[0])
    search = Searcher(pos.stride, pos.size, deadline=time.perf_counter() - 1)
    assert search.compiled is not None
    with pytest.raises(Timeout):
        search.root(pos.free, pos.me, pos.op, 40)


def test_auto_takes_the_compiled_engine_only_where_it_searches_the_same_tree():
    assert Searcher(15, 225, evaluation="voronoi").compiled is not None
    assert Searcher(15, 225, evaluation="chamber").compiled is not None
    assert Searcher(15, 225, evaluation="area").compiled is None
    assert Searcher(15, 225, evaluation="voronoi", clock=lambda: 0.0).compiled is None
    assert Searcher(15, 225, evaluation="voronoi", learned=lambda *args: 0).compiled is None
    assert Searcher(15, 225, evaluation="voronoi", engine="python").compiled is None
    assert Searcher(1026, 1026 * 1026, evaluation="chamber").compiled is None  # too big to pack its counts
    with pytest.raises(ValueError, match="compiled search has only"):
        Searcher(15, 225, evaluation="area", engine="compiled")
    with pytest.raises(ValueError, match="unknown search engine 'fast'"):
        Searcher(15, 225, engine="fast")



def test_every_warm_up_search_reads_the_clock_so_the_first_move_does_not_pay_for_it():
    assert warm_up() > CLOCK_EVERY
