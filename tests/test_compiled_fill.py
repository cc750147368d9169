"""The compiled space-filling search searches exactly the tree the Python one does: same moves, values, nodes."""

import random
from functools import lru_cache

import numpy as np
import pytest

from arena.core.game import MatchInfo
from arena.core.maps import resolve_map
from arena.engines.tron import evaluation, searcher
from arena.engines.tron.compiled_fill import CompiledFill, warm_up
from arena.engines.tron.search import Position, Searcher, chamber_space, flood, free_bits, parity_bound
from arena.games.tron.game import TronGame
from arena.play.referee import run_match
from arena.plugins.registry import load_registry
from bots.chamber import Chamber
from tests.tron_positions import board_of, observe

MAPS = ("empty_room", "center_block", "diagonal_blocks", "open_30", "pillars_30")


@lru_cache(maxsize=1)
def cut_off_positions() -> tuple[Position, ...]:
    """Positions of real games (``chamber:depth=2`` against ``floodfill``, seeds 1 to 3 on each map) after the
    players are cut off, every other turn, for each seat with a choice of moves."""
    found = []
    registry = load_registry()
    for map_name in MAPS:
        for seed in (1, 2, 3):
            outcome = run_match("tron", ["chamber:depth=2", "floodfill"], game_map=map_name, seed=seed,
                                registry=registry)
            game = TronGame(resolve_map(map_name), {}, np.random.default_rng(seed))
            for turn, actions in enumerate(outcome.actions):
                for seat in (0, 1):
                    pos = Position.from_observation(game.observe(seat))
                    choices = sum(1 for step in (-pos.stride, 1, pos.stride, -1) if pos.free >> pos.me + step & 1)
                    if turn % 2 == seat and len(pos.ops) == 1 and not pos.in_contact() and choices > 1:
                        found.append(pos)
                game.apply(actions)
    return tuple(found)


def fill_root(pos: Position, engine: str, node_limit: int, seed: int, max_depth: int = 40):
    """``fill_root``'s ``(step, value, depth)`` and the nodes it searched, by ``engine``."""
    search = Searcher(pos.stride, pos.size, evaluation="chamber", engine=engine, node_limit=node_limit,
                      rng=random.Random(seed))
    return search.fill_root(pos.free, pos.me, max_depth=max_depth), search.nodes


@pytest.mark.slow
def test_the_positions_come_from_every_map_and_are_many():
    positions = cut_off_positions()
    assert len(positions) >= 60
    assert {pos.stride for pos in positions} == {15, 32}  # the 13x13 maps and the 30x30 ones


@pytest.mark.slow
def test_chamber_space_is_the_same_in_both_engines():
    for pos in cut_off_positions():
        engine = CompiledFill(pos.stride, pos.size)
        board = engine.board(pos.free)
        for head in (pos.me, pos.op):
            assert engine.chamber_space(board, head) == chamber_space(pos.free, head, pos.stride, pos.size)


# Every position at a small node limit; at the larger ones, where the Python search takes up to seconds a
# position, a share of them: every 2nd, and every 8th from the 5th (from the 1st, the share holds the 25th,
# which alone takes the Python search 4 s at 5,000 nodes; every share of eight ends at many depths)
@pytest.mark.parametrize(("node_limit", "start", "every"), [(60, 0, 1), pytest.param(700, 0, 2, marks=pytest.mark.slow),
                                                            pytest.param(5000, 4, 8, marks=pytest.mark.slow)])
def test_fill_root_gives_the_same_move_value_depth_and_nodes_in_both_engines(node_limit, start, every):
    for index, pos in enumerate(cut_off_positions()[start::every]):
        expected = fill_root(pos, "python", node_limit, index)
        assert fill_root(pos, "compiled", node_limit, index) == expected, (index, node_limit)


def test_a_fixed_depth_without_a_node_limit_gives_the_same_values():
    for index, pos in enumerate(cut_off_positions()[::4]):
        assert fill_root(pos, "compiled", 0, index, max_depth=2) == fill_root(pos, "python", 0, index, max_depth=2)


def test_the_comparison_would_catch_a_wrong_estimate(monkeypatch):
    """The positions tell ``chamber_space`` from near misses: a Python reference with a wrong parity bound (the
    colours swapped) or without chambers (the parity bound of the whole region) gives another move, value or
    depth than the compiled search at some position (the smallest positions are searched first, up to the first
    that differs), where the right reference gives the compiled search's."""
    positions = cut_off_positions()
    compiled = [fill_root(pos, "compiled", 700, index) for index, pos in enumerate(positions)]
    smallest_first = sorted(range(len(positions)), key=lambda index: positions[index].free.bit_count())

    def swapped(region, head, stride, size):
        return parity_bound(region, head + 1, stride, size)

    def whole_region(free, head, stride, size):
        return parity_bound(flood(free, 1 << head, stride), head, stride, size)

    # each where the Python search looks it up: chamber_space's own parity bounds, the searcher's leaf estimate
    for module, *mutation in ((evaluation, "parity_bound", swapped), (searcher, "chamber_space", whole_region)):
        with monkeypatch.context() as patch:
            patch.setattr(module, *mutation)
            differs = next((index for index in smallest_first
                            if fill_root(positions[index], "python", 700, index)[0] != compiled[index][0]), None)
        assert differs is not None, mutation[0]
        assert fill_root(positions[differs], "python", 700, differs) == compiled[differs], mutation[0]
    # and the node limit binds: searches stop at many depths, so nodes are compared where they cut the search
    assert len({result[0][2] for result in compiled}) >= 4


SNAKE_WIDTH = 21


def snake_rows() -> list[str]:
    """A 1-wide corridor winding over nine rows (about 170 cells, every one an articulation point), ending in
    a fork between a long and a short dead end: deeper than ``chamber_space`` follows a chain of chambers."""
    inner = SNAKE_WIDTH - 2
    rows = ["1" + "." * (inner - 1)]
    for row in range(8):
        gap = inner - 1 if row % 2 == 0 else 0
        rows.append("".join("." if x == gap else "#" for x in range(inner)))
        rows.append("." * inner)
    rows.append("####.#############.")  # the fork: a door to 8 cells and one to 10
    rows.append("........#..........")
    rows.append("2##################")
    return rows


def test_a_chain_of_chambers_deeper_than_the_cap_is_counted_alike():
    board = board_of(snake_rows())
    free = free_bits(board.cells)
    head = board.heads[0]
    engine = CompiledFill(board.stride, len(board.cells))
    value = chamber_space(free, head, board.stride, len(board.cells))
    assert engine.chamber_space(engine.board(free), head) == value
    assert value == flood(free, 1 << head, board.stride).bit_count()  # past the cap: all of it, both dead ends


def test_the_warm_up_searches():
    assert warm_up() > 1


@pytest.mark.parametrize(("version", "fight", "fill"), [(1, 70_000, 70_000), (2, 70_000, 70_000),
                                                        (3, 70_000, 210_000), (4, 70_000, 70_000)])
def test_version_3_of_chamber_fills_with_three_times_the_fight_budget(monkeypatch, version, fight, fill):
    budgets = []
    for method in ("fill_root", "iterate"):
        original = getattr(Searcher, method)

        def spy(self, *args, original=original, **kwargs):
            budgets.append(self.node_limit)
            return original(self, *args, **kwargs)

        monkeypatch.setattr(Searcher, method, spy)
    bot = Chamber(version=version)
    bot.rng = random.Random(0)
    bot.start(MatchInfo(game="tron", seat=0, num_seats=2, role=None, options={}, map_name=None, seed=0,
                        time_limit=1.0))
    bot.act(observe(["1....", ".....", "#####", "..2.."]))  # cut off: the fill
    bot.act(observe(["1....", ".....", "...2."]))  # in contact: the fight
    assert budgets == [fill, fight]
