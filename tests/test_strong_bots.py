"""The search bots (minimax, voronoi, chamber) and the engine they share: exact results at fixed depths."""

import random

import pytest

from arena import run_match
from arena.core.game import MatchInfo
from arena.engines.tron.search import (
    ASPIRATION,
    DRAW,
    WIN,
    Position,
    Searcher,
    Timeout,
    articulation_points,
    chamber_space,
    flood,
    free_bits,
    inner_edges,
    one_pass_region,
    parity_bound,
    territory_value,
    voronoi,
)
from arena.games.tron.observation import TronObservation
from arena.plugins.registry import PluginConfig, load_registry
from bots.chamber import DEFAULT_VERSION, Chamber
from tests.tron_positions import AHEAD, BEHIND, FACE_TO_FACE, bfs_distances, board_of, observe, random_positions

SEARCH_BOTS = ("minimax", "voronoi", "chamber")


@pytest.fixture(scope="module")
def registry():
    return load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))


def play(registry, name, rows, moves="simultaneous", **params):
    """The action bot ``name`` (with ``params``) chooses in the position ``rows`` as seat 0."""
    cls = registry.bots[name].cls
    bot = cls(**params)
    bot.rng = random.Random(0)
    bot.start(MatchInfo(game="tron", seat=0, num_seats=2, role=None, options={"moves": moves}, map_name=None,
                        seed=0, time_limit=1.0))
    return bot.act(observe(rows, moves))


# -- the engine ------------------------------------------------------------------------------------------------

def test_free_bits_and_flood_count_reachable_cells():
    obs = observe(["1..#....",
                   "...#..2.",
                   "####...."])
    free = free_bits(obs.cells)
    assert free.bit_count() == 3 * 8 - 6 - 2  # walls and heads are not free
    assert flood(free, 1 << obs.heads[0], obs.stride).bit_count() == 5
    assert flood(free, 1 << obs.heads[1], obs.stride).bit_count() == 11


def test_voronoi_counts_cells_strictly_closer_and_leaves_ties_to_nobody():
    obs = observe(["1...2"])
    mine, theirs, connected = voronoi(free_bits(obs.cells), obs.heads[0], obs.heads[1], obs.stride)
    assert (mine, theirs, connected) == (1, 1, True)  # the middle cell is as close to both
    obs = observe(["1....",
                   "....2"])
    assert voronoi(free_bits(obs.cells), obs.heads[0], obs.heads[1], obs.stride) == (4, 4, True)
    obs = observe(["1.#..2"])
    assert voronoi(free_bits(obs.cells), obs.heads[0], obs.heads[1], obs.stride) == (1, 2, False)


def plain_voronoi(cells, a, b, stride):
    da, db = bfs_distances(cells, a, stride), bfs_distances(cells, b, stride)
    far = 10 ** 9
    return (sum(1 for c, d in da.items() if c != a and d < db.get(c, far)),
            sum(1 for c, d in db.items() if c != b and d < da.get(c, far)))



def test_bitboard_voronoi_equals_two_plain_breadth_first_searches():
    for obs in random_positions(40):
        a, b = obs.heads
        mine, theirs, connected = voronoi(free_bits(obs.cells), a, b, obs.stride)
        assert (mine, theirs) == plain_voronoi(obs.cells, a, b, obs.stride)
        # connected: some cell the first head reaches (or the head) is next to one the second reaches
        reach_a, reach_b = bfs_distances(obs.cells, a, obs.stride), bfs_distances(obs.cells, b, obs.stride)
        assert connected == any(cell + step in reach_b for cell in reach_a
                                for step in (1, -1, obs.stride, -obs.stride))


def test_parity_bound_counts_alternating_colours():
    obs = observe(["1....",
                   "#####",
                   "2...."])
    free = free_bits(obs.cells)
    region = flood(free, 1 << obs.heads[0], obs.stride)
    assert parity_bound(region, obs.heads[0], obs.stride, len(obs.cells)) == 4  # a corridor: every cell
    obs = observe(["...",
                   ".1.",
                   "...",
                   "###",
                   "2.."])
    free = free_bits(obs.cells)
    region = flood(free, 1 << obs.heads[0], obs.stride)
    # From the centre of a 3x3 room: 4 edge cells (the other colour) and 4 corners: at most 8 moves.
    assert parity_bound(region, obs.heads[0], obs.stride, len(obs.cells)) == 8
    obs = observe(["1..",
                   "...",
                   "...",
                   "###",
                   "2.."])
    free = free_bits(obs.cells)
    region = flood(free, 1 << obs.heads[0], obs.stride)
    # From a corner: 4 edge cells and only 4 other corners: 2 * 4 moves at most.
    assert parity_bound(region, obs.heads[0], obs.stride, len(obs.cells)) == 8


def test_territory_value_counts_cells_and_the_edges_between_them():
    room = observe(["1...",
                    "....",
                    "####",
                    "2..."])
    corridor = observe(["1.......",
                        "########",
                        "2......."])
    values = []
    for obs, edges, moves in ((room, 8, 7), (corridor, 6, 7)):
        region = flood(free_bits(obs.cells), 1 << obs.heads[0], obs.stride)
        assert region.bit_count() == 7
        assert inner_edges(region, obs.stride) == edges
        values.append(territory_value(region, obs.heads[0], obs.stride, len(obs.cells)))
        assert values[-1] == 2 * moves + 7 * edges  # moves: the cells bounded by parity
    assert values[0] > values[1]  # the same seven cells are worth more as a room than as a corridor


def cells_at(obs, *places):
    """The bitboard of the cells at ``(x, y)`` places of an observation's rows."""
    return sum(1 << (y + 1) * obs.stride + x + 1 for x, y in places)


def test_one_pass_region_keeps_only_the_best_branch_beyond_each_cut_cell():
    obs = observe(["1...",
                   "....",
                   "#.#.",
                   "#.##",
                   "#.##"])
    region = flood(free_bits(obs.cells), 1 << obs.heads[0], obs.stride)
    kept = one_pass_region(region, obs.heads[0], obs.stride)
    # Dead ends hang off the room: a corridor of three cells, a single cell, and the cell below the head
    # (a pass can't come back through the head's cell, so the room reaches it through one cell). One
    # pass takes one of them: the corridor.
    assert kept == region & ~cells_at(obs, (3, 2), (0, 1))
    assert kept.bit_count() == 9 and inner_edges(kept, obs.stride) == 10
    # 9 cells, 5 of them the colour of the first move: at most 2 * 4 + 1 = 9 moves.
    assert territory_value(region, obs.heads[0], obs.stride, len(obs.cells)) == 2 * 9 + 7 * 10


def test_one_pass_region_takes_one_side_when_the_head_stands_in_a_doorway():
    obs = observe(["...#....",
                   "...1....",
                   "...#...."])
    region = flood(free_bits(obs.cells), 1 << obs.heads[0], obs.stride)
    east = cells_at(obs, *((x, y) for x in range(4, 8) for y in range(3)))
    assert one_pass_region(region, obs.heads[0], obs.stride) == east  # the bigger room, either side of the door
    obs = observe(["...#...",
                   "...1...",
                   "...#..."])
    region = flood(free_bits(obs.cells), 1 << obs.heads[0], obs.stride)
    east = cells_at(obs, *((x, y) for x in range(4, 7) for y in range(3)))
    assert one_pass_region(region, obs.heads[0], obs.stride) == east  # equal rooms: the first tried (N, E, ...)


def test_one_pass_region_keeps_a_room_around_the_head_and_the_corridor_leaving_it():
    obs = observe(["....",
                   ".1..",
                   "....",
                   "....",
                   "#.##",
                   "#.##"])
    region = flood(free_bits(obs.cells), 1 << obs.heads[0], obs.stride)
    assert one_pass_region(region, obs.heads[0], obs.stride) == region
    corridor = observe(["1......."])
    region = flood(free_bits(corridor.cells), 1 << corridor.heads[0], corridor.stride)
    assert one_pass_region(region, corridor.heads[0], corridor.stride) == region


def test_ties_between_root_moves_go_at_random_with_an_rng():
    obs = observe(["....",
                   ".1..",
                   "....",
                   "....",
                   "####",
                   "..2."])
    pos = Position.from_observation(obs)
    plain = Searcher(pos.stride, pos.size).root_order(pos.free, pos.me, pos.op)
    assert plain == Searcher(pos.stride, pos.size).root_order(pos.free, pos.me, pos.op)
    firsts = {Searcher(pos.stride, pos.size, rng=random.Random(seed)).root_order(pos.free, pos.me, pos.op)[0]
              for seed in range(30)}
    assert len(firsts) > 1  # (the opponent is walled off: moves only differ by the room they leave)
    again = [Searcher(pos.stride, pos.size, rng=random.Random(7)).root_order(pos.free, pos.me, pos.op)
             for _ in range(2)]
    assert again[0] == again[1]


def test_articulation_points_and_chambers():
    rows = ["..#......",
            "..1......",
            "..#......",
            "#########",
            "2........"]
    obs = observe(rows)
    free, head, s = free_bits(obs.cells), obs.heads[0], obs.stride
    # The cells next to the head lead into the rooms: each is the only way into its room.
    assert articulation_points(free, head, s) == (1 << obs.index(1, 1)) | (1 << obs.index(3, 1))
    assert chamber_space(free, head, s, len(obs.cells)) == 18  # the right room, 6x3
    obs = observe([".....",
                   "1.#..",
                   "..#..",
                   "#####",
                   "2...."])
    free, head, s = free_bits(obs.cells), obs.heads[0], obs.stride
    # The room on the left joins the room on the right only through (2, 0): an articulation point,
    # and so are its two neighbours on the top row.
    assert articulation_points(free, head, s) == (1 << obs.index(1, 0)) | (1 << obs.index(2, 0)) | (
        1 << obs.index(3, 0))
    # One pass: down and round the left room (missing its corner (0, 0)), through the door, then the
    # whole right room: 5 + 6 = 11 of the 12 free cells. The estimate is exact here.
    assert chamber_space(free, head, s, len(obs.cells)) == 11


def test_chamber_space_counts_only_one_branch():
    obs = observe(["....#....",
                   "....1....",
                   "....#....",
                   "#########",
                   "2........"])
    free, head, s = free_bits(obs.cells), obs.heads[0], obs.stride
    assert flood(free, 1 << head, s).bit_count() == 24
    assert chamber_space(free, head, s, len(obs.cells)) == 12  # one side: 12 cells, the other is lost


def brute_force(search, free, me, op, depth, ours):
    """Plain minimax (no pruning) with the searcher's rules and evaluation."""
    steps = search.steps
    if ours:
        if depth <= 0:
            return search.evaluate(free, me, op)
        values = [brute_force(search, free & ~(1 << me + d), me + d, op, depth - 1, False)
                  for d in steps if free >> me + d & 1]
        if not values:
            return -WIN - depth if any(free >> op + d & 1 for d in steps) else DRAW
        return max(values)
    values = [brute_force(search, free & ~(1 << op + d), me, op + d, depth - 1, True)
              for d in steps if free >> op + d & 1]
    if op - me in steps:
        values.append(DRAW)
    return min(values) if values else WIN + depth


@pytest.mark.parametrize(("evaluation", "ordering"),
                         [("area", "killers"), ("voronoi", "killers"), ("chamber", "killers"),
                          ("chamber", "history")])
def test_alpha_beta_returns_the_minimax_value(evaluation, ordering):
    for obs in random_positions(12, seed=5):
        pos = Position.from_observation(obs)
        for depth in (2, 4):
            search = Searcher(pos.stride, pos.size, evaluation=evaluation, ordering=ordering)
            step, value = search.root(pos.free, pos.me, pos.op, depth)
            children = {d: brute_force(search, pos.free & ~(1 << pos.me + d), pos.me + d, pos.op, depth - 1, False)
                        for d in search.steps if pos.free >> pos.me + d & 1}
            if children:
                assert value == max(children.values())
                assert children[step] == value


def test_an_aspiration_window_around_a_wrong_guess_still_finds_the_exact_value():
    checked = 0
    for obs in random_positions(12, seed=5):
        pos = Position.from_observation(obs)
        order = Searcher(pos.stride, pos.size, evaluation="chamber").root_order(pos.free, pos.me, pos.op)
        if not order:
            continue
        expected = Searcher(pos.stride, pos.size, evaluation="chamber").root(pos.free, pos.me, pos.op, 4, order)
        if abs(expected[1]) >= WIN // 4:
            continue
        for guess in (expected[1], expected[1] - 300, expected[1] + 300):  # inside, above and below the window
            search = Searcher(pos.stride, pos.size, evaluation="chamber", ordering="history", aspiration=ASPIRATION)
            assert search.root(pos.free, pos.me, pos.op, 4, list(order), guess=guess) == expected
        checked += 1
    assert checked >= 8


def test_history_ordering_tries_the_killer_of_the_ply_then_the_moves_that_cut_off_most():
    pos = Position.from_observation(observe(["........",
                                             "...1....",
                                             "........",
                                             ".......2"]))
    north, east, south, west = -pos.stride, 1, pos.stride, -1
    search = Searcher(pos.stride, pos.size, evaluation="chamber", ordering="history")
    search.top = 5  # a reply searched 5 plies deep: a node 3 plies from the horizon is ply 2
    assert search._ordered(3, pos.free, pos.me, 0) == [north, east, south, west]  # no scores: N, E, S, W
    search._cut_off(3, pos.me, west, 0)  # the killer of ply 2, and 3 * 3 to (us, this cell, west)
    search._cut_off(2, pos.me, south, 0)  # the killer of ply 3, and 2 * 2 to south
    search._cut_off(1, pos.me, south, 1)  # the opponent's history is its own
    assert search.history[0][4 * pos.me + 3] == 9 and search.history[0][4 * pos.me + 2] == 4
    assert search.history[1][4 * pos.me + 2] == 1
    assert search.killers == {2: west, 3: south, 4: south}
    assert search._ordered(3, pos.free, pos.me, 0) == [west, south, north, east]
    assert search._ordered(2, pos.free, pos.me, 0) == [south, west, north, east]
    assert search._ordered(3, pos.free & ~(1 << pos.me + west), pos.me, 0) == [south, north, east]
    killers = Searcher(pos.stride, pos.size, evaluation="chamber")
    killers._cut_off(3, pos.me, west, 0)  # by remaining depth, and no history
    assert killers.killers == {3: west} and killers._ordered(3, pos.free, pos.me, 0) == (west, north, east, south)


class CutShort(Searcher):
    """A searcher whose clock runs out once ``finished`` root moves of its 4-ply search are done (or at
    the first root move of a deeper search)."""

    finished = 0
    started = 0

    def _root_reply(self, free, me, op, depth, alpha, beta):
        if depth >= 3:  # the 4-ply search asks for replies 3 plies deep, once per root move
            self.started += 1
            if self.started > self.finished:
                raise Timeout
        return super()._root_reply(free, me, op, depth, alpha, beta)


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_search_cut_short_keeps_a_better_move_it_had_already_found(engine):
    pos = Position.from_observation(observe(["#############",
                                             "#...........#",
                                             "#.#.........#",
                                             "#.#.........#",
                                             "#.1.#####...#",
                                             "#...#####...#",
                                             "#...#####...#",
                                             "#...#####...#",
                                             "#...#####...#",
                                             "#...........#",
                                             "#.........#.#",
                                             "#.........#2#",
                                             "#############"]))
    east, south = 1, pos.stride
    whole = Searcher(pos.stride, pos.size, evaluation="voronoi")
    assert whole.root_order(pos.free, pos.me, pos.op)[:2] == [east, south]
    assert whole.root(pos.free, pos.me, pos.op, 2) == (east, 19)
    assert whole.root(pos.free, pos.me, pos.op, 4) == (south, 12)
    for finished, expected in ((1, (east, 19, 2)), (2, (south, 12, 2)), (3, (south, 12, 4))):
        search = CutShort(pos.stride, pos.size, evaluation="voronoi", engine=engine)
        search.finished = finished
        # one move done: only the 2-ply choice has a 4-ply value; two: south beat it; three: 4 plies done
        assert search.iterate(pos.free, pos.me, pos.op) == expected


def test_fill_search_fills_a_room_completely():
    board = board_of(["1...",
                      "....",
                      "..##",
                      "####",
                      "2..."])
    search = Searcher(board.stride, len(board.cells))
    steps = 0
    while True:
        free = free_bits(board.cells)
        step, _, _ = search.fill_root(free, board.heads[0], max_depth=12)
        if not free >> board.heads[0] + step & 1:
            break
        board.cells[board.heads[0] + step] = 3
        board.heads[0] += step
        steps += 1
    assert steps == 9  # every free cell of the room


# -- the bots ----------------------------------------------------------------------------------------------------

DEAD_END = ["1.....#",
            ".######",
            ".......",
            ".......",
            "......2"]


@pytest.mark.parametrize("name", SEARCH_BOTS)
@pytest.mark.parametrize("moves", ["simultaneous", "alternating"])
def test_bots_avoid_a_dead_end(registry, name, moves):
    assert play(registry, name, DEAD_END, moves, depth=4) == "S"


TWO_ROOMS = ["..#......",
             "..1......",
             "..#......",
             "#########",
             "2........"]


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_bots_take_the_bigger_chamber(registry, name):
    assert play(registry, name, TWO_ROOMS, depth=4) == "E"


def test_chamber_fills_its_space_to_the_end_once_cut_off(registry):
    rows = [".1....",
            "......",
            "....##",
            "######",
            "2....."]
    board = board_of(rows)
    bot = registry.bots["chamber"].cls(depth=8)
    bot.rng = random.Random(0)
    bot.start(MatchInfo(game="tron", seat=0, num_seats=2, role=None, options={}, map_name=None, seed=0,
                        time_limit=1.0))
    moves = 0
    while True:
        action = bot.act(TronObservation(board, 0, "alternating"))
        board.move_alternating(0, action)
        if not board.alive[0]:
            break
        moves += 1
    assert moves == 15  # all 15 free cells of its room



def test_simultaneous_search_scores_the_cell_between_the_heads_as_a_draw():
    for moves, draw in (("simultaneous", True), ("alternating", False)):
        pos = Position.from_observation(observe(FACE_TO_FACE, moves))
        search = Searcher(pos.stride, pos.size, simultaneous=pos.simultaneous)
        east = pos.me + 1
        value = search._reply(pos.free & ~(1 << east), east, pos.op, 3, -2 * WIN, 2 * WIN)
        assert (value == DRAW) is draw


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_simultaneous_search_keeps_out_of_a_head_on_draw(registry, name):
    # East is the cell between the heads: the opponent can enter it in the same turn. A draw worse than any
    # position in play (chamber's version 1) keeps every bot out of it.
    params = {"version": 1} if name == "chamber" else {}
    assert play(registry, name, FACE_TO_FACE, "simultaneous", depth=4, **params) != "E"



def test_chamber_values_a_head_on_draw_as_an_even_position(registry):
    # Version 2 (the default) values a draw at 0. Ahead, the door is worth just that (the opponent would
    # take the draw) and the bot keeps out; behind, the door is its best move and the opponent, which would
    # rather see it lose, declines the draw. Version 1, fearing the draw, keeps out of the door either way.
    for rows, door_value, others in ((AHEAD, 0, (-43, 235, 187)), (BEHIND, -194, (-296, -219, -287))):
        pos = Position.from_observation(observe(rows))
        search = Searcher(pos.stride, pos.size, evaluation="chamber", draw=0, engine="python")
        values = {step: search._root_reply(pos.free & ~(1 << pos.me + step), pos.me + step, pos.op, 3,
                                           -2 * WIN, 2 * WIN) for step in search.steps}
        assert values[1] == door_value
        assert (values[-pos.stride], values[pos.stride], values[-1]) == others
    assert play(registry, "chamber", AHEAD, depth=4) == "S"
    assert play(registry, "chamber", BEHIND, depth=4) == "E"
    assert play(registry, "chamber", BEHIND, depth=4, version=1) != "E"


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_fixed_depth_searches_choose_exact_moves(registry, name):
    rows = ["......",
            ".1....",
            "...#..",
            "......",
            "....2."]
    # 4 plies: the area evaluation sees 0 for E and -1 for the others; Voronoi sees +1 for S.
    expected = {"minimax": "E", "voronoi": "S", "chamber": "S"}
    assert play(registry, name, rows, depth=4) == expected[name]


RULE_SETS = [
    ("tron", "empty_room", {}),
    ("tron", "center_block", {"moves": "alternating"}),
    ("tron", "powerup_room", {}),  # Brown rules: alternating, mirrored starts, powerups
    ("tron", "four_corners", {}),
    ("tron", "four_corners", {"moves": "alternating"}),
    ("snafu", None, {"size": "15x15"}),
]


@pytest.mark.parametrize("name", SEARCH_BOTS)
@pytest.mark.parametrize(("game", "map_name", "options"), RULE_SETS)
def test_bots_play_every_rule_set_without_failures(registry, name, game, map_name, options):
    field = [f"{name}:depth=2", "floodfill"]
    if map_name == "four_corners":
        field = [f"{name}:depth=2", "floodfill", "wallhugger", f"{name}:depth=2"]
    for seed in (1, 2):
        outcome = run_match(game, field, game_map=map_name, options=options, seed=seed, registry=registry)
        assert outcome.failure_kinds == {}
        assert outcome.turns > 4


def test_chamber_plays_by_its_versions_weights_unless_given_others():
    registry = load_registry()

    def moves(spec):
        outcome = run_match("tron", [spec, "floodfill"], game_map="empty_room", seed=3, registry=registry)
        return outcome.actions

    two = moves("chamber:depth=3,version=2")
    assert moves("chamber:depth=3,version=2,cells=2,edges=7") == two  # version 2's weights, spelled out
    assert moves("chamber:depth=3,version=2,cells=1,edges=0") != two  # cells alone: another evaluation, another game
    four = moves("chamber:depth=3,version=4")
    assert four == moves("chamber:depth=3,version=2,cells=7,edges=7") != two  # version 4: the fitted weights
    assert moves("chamber:depth=3,version=4,cells=2,edges=7") == two  # given weights win over the version's
    assert moves("chamber:depth=3") == moves(f"chamber:depth=3,version={DEFAULT_VERSION}")


def test_chamber_refuses_two_zero_weights_or_weights_that_are_not_whole_numbers():
    with pytest.raises(ValueError, match="cells and edges can't both be 0"):
        Chamber.check_parameters({"cells": 0, "edges": 0})
    with pytest.raises(ValueError, match="edges must be a whole number"):
        Chamber.check_parameters({"edges": 1.5})
    Chamber.check_parameters({"cells": 0, "edges": 1})


SEARCH_NAMES = {
    "bitboards": ("bit", "colour_mask", "flood", "free_bits", "inner_edges", "neighbours", "parity_bound",
                  "territories", "voronoi", "voronoi_regions"),
    "evaluation": ("CELL_WEIGHT", "DRAW", "EDGE_WEIGHT", "TERRITORY_WEIGHTS", "WIN", "articulation_points",
                   "chamber_space", "finished_subtrees", "one_pass_region", "territory_terms", "territory_value"),
    "searcher": ("ASPIRATION", "COMPILED_MAX_CELLS", "ENGINES", "ORDERINGS", "Searcher", "Timeout"),
    "position": ("Position", "action_for"),
    "move_budget": ("GUARD_SHARE", "default_budget", "search_budget"),
}


def test_the_search_module_still_exports_every_name_stored_bots_import_from_it():
    """Stored bots import from ``arena.engines.tron.search``: each name it had is still there, the very object
    of the module that now holds it; and the compiled search scores wins and draws with the same values."""
    import importlib

    import arena.engines.tron.search as search
    from arena.engines.tron import compiled

    for module, names in SEARCH_NAMES.items():
        home = importlib.import_module(f"arena.engines.tron.{module}")
        for name in names:
            assert getattr(search, name) is getattr(home, name), name
    assert sorted(search.__all__) == sorted(name for names in SEARCH_NAMES.values() for name in names)
    assert (compiled.WIN, compiled.DRAW) == (search.WIN, search.DRAW) == (100_000, -50_000)
