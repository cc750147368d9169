"""Paranoid alpha-beta for 3-4 player Tron: move order, evaluation, collisions, crashes, the bots."""

import random

import pytest

from arena import run_match
from arena.core.game import MatchInfo
from arena.engines.tron.paranoid import ParanoidSearcher, several_opponents_step, value
from arena.engines.tron.search import WIN, Position, Timeout, flood
from arena.plugins.registry import PluginConfig, load_registry
from tests.tron_positions import bfs_distances, observe


@pytest.fixture(scope="module")
def registry():
    return load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))


def test_opponents_are_listed_in_the_order_they_move_after_us():
    rows = ["1.2",
            "...",
            "4.3"]
    obs = observe(rows, seat=1)
    pos = Position.from_observation(obs)
    assert pos.me == obs.heads[1]
    assert pos.ops == (obs.heads[2], obs.heads[3], obs.heads[0])
    assert pos.op == obs.heads[2]


def test_voronoi_value_against_several_opponents_matches_a_plain_bfs():
    rows = ["..........",
            ".1....#...",
            "......#.2.",
            "...####...",
            "3........."]
    obs = observe(rows)
    pos = Position.from_observation(obs)
    mine_d = bfs_distances(obs.cells, pos.me, obs.stride)
    theirs_d = [bfs_distances(obs.cells, op, obs.stride) for op in pos.ops]
    far = 10 ** 9
    free = [c for c in range(len(obs.cells)) if obs.cells[c] == 0]
    nearest_op = {c: min(d.get(c, far) for d in theirs_d) for c in free}
    mine = sum(1 for c in free if mine_d.get(c, far) < nearest_op[c])
    theirs = sum(1 for c in free if nearest_op[c] < mine_d.get(c, far))
    assert mine > 0 and theirs > 0
    assert value("voronoi", pos.free, pos.me, pos.ops, pos.stride, pos.size) == mine - theirs // 2
    areas = [flood(pos.free, 1 << h, pos.stride).bit_count() for h in (pos.me, *pos.ops)]
    assert value("area", pos.free, pos.me, pos.ops, pos.stride, pos.size) == areas[0] - max(areas[1:])


def test_the_search_keeps_out_of_reach_of_every_opponent():
    # East and west are equally roomy, but seat 3's head (not the nearest opponent) can also step east
    # of us this turn: a head-on crash, our loss with other players left.
    rows = ["#########",
            "#...1.3.#",
            "#.......#",
            "#2......#"]
    obs = observe(rows)
    pos = Position.from_observation(obs)
    east = pos.me + 1
    for seed in range(5):
        search = ParanoidSearcher(pos.stride, pos.size, rng=random.Random(seed))
        step, result, rounds = search.iterate(pos.free, pos.me, pos.ops, max_rounds=2)
        assert step != 1 and rounds == 2 and abs(result) < WIN
    assert east == pos.ops[1] - 1


def test_opponents_without_a_move_crash_and_we_win():
    rows = ["#####",
            "#2#3#",
            "##.##",
            "#.1.#"]
    obs = observe(rows)
    pos = Position.from_observation(obs)
    assert pos.free >> pos.me - pos.stride & 1  # the cell between them is free, but both are walled in
    step, result, _ = ParanoidSearcher(pos.stride, pos.size).iterate(pos.free, pos.me, pos.ops)
    assert result >= WIN
    assert step in (-1, 1, -pos.stride)


def test_several_opponents_step_fills_alone_when_cut_off_from_all():
    rows = ["1..#2.",
            "...#..",
            "...#3."]
    pos = Position.from_observation(observe(rows))
    assert pos.in_contact() == ()
    assert several_opponents_step(pos, "voronoi", deadline=float("inf"), rng=None, depth=4) is None
    rows[0] = "1...2."
    pos = Position.from_observation(observe(rows))
    assert pos.in_contact() == (pos.ops[0],)


class CutShort(ParanoidSearcher):
    """A searcher whose clock runs out once ``finished`` root moves of its 2-round search are done."""

    finished = 0
    started = 0

    def _theirs(self, free, me, ops, index, rounds, alpha, beta):
        if index == 0 and rounds == 2:  # the first opponent's reply to a root move of the 2-round search
            self.started += 1
            if self.started > self.finished:
                raise Timeout
        return super()._theirs(free, me, ops, index, rounds, alpha, beta)


def test_a_search_cut_short_keeps_a_better_move_it_had_already_found():
    pos = Position.from_observation(observe(["#################",
                                             "#.##........#####",
                                             "#.##........3.###",
                                             "####..........###",
                                             "####..........###",
                                             "#..1............#",
                                             "#...............#",
                                             "#......###......#",
                                             "#......###......#",
                                             "#......###......#",
                                             "#.....4.........#",
                                             "#..####.........#",
                                             "#.####..........#",
                                             "#.#..........####",
                                             "#.#.........#####",
                                             "#...........###2#",
                                             "#################"]))
    east, south = 1, pos.stride
    ops = pos.in_contact()
    assert len(ops) == 2
    whole = ParanoidSearcher(pos.stride, pos.size)
    assert whole.root(pos.free, pos.me, ops, 1, [east, south, -1]) == (east, -37)
    assert whole.root(pos.free, pos.me, ops, 2, [east, south, -1]) == (south, -41)
    for finished, expected in ((1, (east, -37, 1)), (2, (south, -41, 1)), (3, (south, -41, 2))):
        search = CutShort(pos.stride, pos.size)
        search.finished = finished
        assert search.iterate(pos.free, pos.me, ops) == expected


@pytest.mark.parametrize("name", ["minimax", "voronoi", "chamber"])
@pytest.mark.parametrize("moves", ["simultaneous", "alternating"])
def test_search_bots_outlast_simple_bots_in_four_player_games(registry, name, moves):
    wins = 0
    for seed in range(4):
        field = ["random", f"{name}:depth=4", "wallhugger", "random"]
        outcome = run_match("tron", field, game_map="four_corners", options={"moves": moves}, seed=seed,
                            registry=registry)
        assert outcome.failure_kinds == {}
        wins += outcome.ranks[1] == 1
    assert wins >= 3


def test_a_bot_answers_with_a_legal_move_in_a_three_player_position(registry):
    rows = ["#######",
            "#1....#",
            "#.....#",
            "#..2..#",
            "#....3#"]
    for name in ("minimax", "voronoi", "chamber"):
        bot = registry.bots[name].cls(depth=6)
        bot.rng = random.Random(0)
        bot.start(MatchInfo(game="tron", seat=0, num_seats=3, role=None, options={}, map_name=None, seed=0,
                            time_limit=1.0))
        obs = observe(rows)
        assert bot.act(obs) in obs.safe_moves()
