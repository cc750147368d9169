"""Tron rules driven directly through TronGame, and the referee (arena.play.referee.run_match) around them."""

from __future__ import annotations

import contextlib
import hashlib
import re

import numpy as np
import pytest

from arena.core.failure import Failure
from arena.core.game import forfeit_ranks
from arena.core.maps import parse_map
from arena.games.tron.game import TronGame, TronObservation
from arena.games.tron.rules import DEAD, EMPTY, TRAIL
from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, load_registry
from tests.helpers import line_of


def make_game(text: str, moves: str = "simultaneous") -> TronGame:
    return TronGame(parse_map(text), TronGame.resolve_options({"moves": moves}), np.random.default_rng(0))


def cell(game: TronGame, x: int, y: int) -> int:
    return game.board.cells[game.board.index(x, y)]


def head(game: TronGame, seat: int) -> tuple[int, int] | None:
    index = game.board.heads[seat]
    return None if index == DEAD else game.board.xy(index)


CORRIDOR = """\
#######
#1...2#
#######
"""

OPEN_3X3 = """\
1..
...
..2
"""


# --- simultaneous moves (the default) ------------------------------------------------------------


def test_default_move_order_is_simultaneous_and_everyone_acts():
    game = TronGame(parse_map(CORRIDOR), TronGame.resolve_options({}), np.random.default_rng(0))
    assert game.moves == "simultaneous"
    assert game.num_seats == 2
    assert tuple(game.to_act()) == (0, 1)
    assert game.result is None


def test_legal_actions_are_the_four_directions():
    game = make_game(CORRIDOR)
    assert tuple(game.legal_actions(0)) == ("N", "E", "S", "W")
    assert tuple(game.legal_actions(1)) == ("N", "E", "S", "W")


def test_moving_into_a_wall_crashes_and_the_other_player_wins():
    game = make_game(CORRIDOR)
    game.apply({0: "N", 1: "W"})
    assert game.result is not None
    assert game.result.ranks == (2, 1)
    assert game.result.reason == "player 1 moved into a wall; player 2 wins"
    assert game.result.winners() == (1,)
    assert not game.result.is_draw
    assert game.board.alive == [False, True]
    assert head(game, 0) is None
    assert head(game, 1) == (4, 1)


def test_moving_off_an_open_edge_crashes():
    game = make_game(OPEN_3X3)
    game.apply({0: "E", 1: "S"})
    assert game.result is not None
    assert game.result.ranks == (1, 2)
    assert game.result.reason == "player 2 moved off the board; player 1 wins"


def test_moving_off_the_west_edge_crashes():
    game = make_game(OPEN_3X3)
    game.apply({0: "W", 1: "N"})
    assert game.result is not None
    assert game.result.reason == "player 1 moved off the board; player 2 wins"
    assert game.result.ranks == (2, 1)


def test_moving_into_the_other_players_trail_crashes():
    game = make_game("#######\n#1....#\n#.....#\n#....2#\n#######\n")
    for actions in ({0: "E", 1: "N"}, {0: "S", 1: "W"}, {0: "S", 1: "W"}):
        game.apply(actions)
        assert game.result is None
    # seat 0's trail is (1,1) (2,1) (2,2); its head is (2,3). Seat 1 at (3,2) moves west into the trail.
    assert head(game, 0) == (2, 3)
    assert head(game, 1) == (3, 2)
    game.apply({0: "E", 1: "W"})
    assert game.result is not None
    assert game.result.reason == "player 2 moved into player 1's trail; player 1 wins"
    assert game.result.ranks == (1, 2)


def test_reversing_into_its_own_trail_crashes():
    game = make_game(CORRIDOR)
    game.apply({0: "E", 1: "W"})
    assert game.result is None
    game.apply({0: "W", 1: "W"})
    assert game.result is not None
    assert game.result.reason == "player 1 moved into its own trail; player 2 wins"
    assert game.result.ranks == (2, 1)
    assert head(game, 1) == (3, 1)


def test_both_reversing_in_the_same_turn_is_a_draw():
    game = make_game("######\n#.1..#\n#..2.#\n######\n")
    game.apply({0: "E", 1: "E"})
    game.apply({0: "W", 1: "W"})
    assert game.result is not None
    assert game.result.reason == "player 1 moved into its own trail; player 2 moved into its own trail; draw"


def test_both_players_entering_the_same_cell_both_crash_in_a_draw():
    game = make_game("#####\n#1.2#\n#####\n")
    game.apply({0: "E", 1: "W"})
    assert game.result is not None
    assert game.result.ranks == (1, 1)
    assert game.result.is_draw
    assert game.result.winners() == (0, 1)
    assert game.result.reason == "players 1 and 2 moved into the same cell; draw"
    assert cell(game, 2, 1) == EMPTY  # nobody got the contested cell


def test_swapping_cells_head_on_both_crash_in_a_draw():
    game = make_game("####\n#12#\n####\n")
    game.apply({0: "E", 1: "W"})
    assert game.result is not None
    assert game.result.ranks == (1, 1)
    assert game.result.reason == "player 1 moved into player 2's head; player 2 moved into player 1's head; draw"


def test_moving_into_the_cell_the_other_player_is_leaving_crashes():
    game = make_game("#####\n#12.#\n#####\n")
    game.apply({0: "E", 1: "E"})
    assert game.result is not None
    assert game.result.ranks == (2, 1)
    assert game.result.reason == "player 1 moved into player 2's head; player 2 wins"
    assert head(game, 1) == (3, 1)
    assert cell(game, 2, 1) == TRAIL + 1


def test_following_a_trail_one_step_behind_crashes():
    game = make_game("#######\n#.12..#\n#######\n")
    game.apply({0: "W", 1: "E"})
    assert game.result is None
    game.apply({0: "E", 1: "E"})
    assert game.result is not None
    assert game.result.reason == "player 1 moved into its own trail; player 2 wins"


def test_the_cell_left_becomes_a_trail_and_the_new_cell_is_the_head():
    game = make_game(CORRIDOR)
    game.apply({0: "E", 1: "W"})
    assert cell(game, 1, 1) == TRAIL + 0
    assert cell(game, 2, 1) == TRAIL + 0
    assert cell(game, 5, 1) == TRAIL + 1
    assert cell(game, 4, 1) == TRAIL + 1
    assert cell(game, 3, 1) == EMPTY
    assert head(game, 0) == (2, 1)
    assert head(game, 1) == (4, 1)
    assert game.board.turn == 1


def test_three_players_crashed_players_trail_stays_and_blocks():
    text = "#######\n#1....#\n#.....#\n#2...3#\n#######\n"
    game = make_game(text)
    game.apply({0: "E", 1: "N", 2: "N"})
    game.apply({0: "N", 1: "E", 2: "W"})  # seat 0 crashes at (2,1); its trail (1,1) (2,1) stays
    assert game.result is None
    assert game.board.alive == [False, True, True]
    assert cell(game, 1, 1) == TRAIL + 0
    assert cell(game, 2, 1) == TRAIL + 0
    assert head(game, 0) is None
    # seat 1 at (2,2) moves north into the dead seat 0's old head cell: a trail, not a head
    game.apply({1: "N", 2: "W"})
    assert game.result is not None
    assert game.result.reason == "player 2 moved into player 1's trail; player 3 wins"
    assert game.result.ranks == (3, 2, 1)


def test_three_players_same_turn_crash_shares_first_place():
    game = make_game("#######\n#1....#\n#.....#\n#2...3#\n#######\n")
    game.apply({0: "N", 1: "E", 2: "W"})
    assert game.result is None
    assert list(game.to_act()) == [1, 2]
    game.apply({1: "E", 2: "W"})
    assert game.result is not None
    assert game.result.ranks == (3, 1, 1)
    assert game.result.reason == "players 2 and 3 moved into the same cell; players 2 and 3 share first place"
    assert game.result.winners() == (1, 2)
    assert not game.result.is_draw


def test_three_players_two_crash_together_and_the_third_wins():
    game = make_game("#######\n#1....#\n#.....#\n#2...3#\n#######\n")
    game.apply({0: "E", 1: "W", 2: "E"})
    assert game.result is not None
    assert game.result.ranks == (1, 2, 2)
    assert game.result.reason == "player 2 moved into a wall; player 3 moved into a wall; player 1 wins"


def test_three_players_all_crash_at_once_is_a_draw():
    game = make_game("#######\n#1....#\n#.....#\n#2...3#\n#######\n")
    game.apply({0: "N", 1: "S", 2: "E"})
    assert game.result is not None
    assert game.result.ranks == (1, 1, 1)
    assert game.result.reason == ("player 1 moved into a wall; player 2 moved into a wall; player 3 moved into a wall; "
                                  "draw")


FOUR = """\
#########
#1.....3#
#.......#
#.......#
#4.....2#
#########
"""


def test_four_players_ranked_by_elimination_order():
    game = make_game(FOUR)
    assert game.num_seats == 4
    assert [head(game, seat) for seat in range(4)] == [(1, 1), (7, 4), (7, 1), (1, 4)]
    game.apply({0: "N", 1: "W", 2: "S", 3: "E"})
    assert game.result is None
    assert list(game.to_act()) == [1, 2, 3]
    game.apply({1: "S", 2: "S", 3: "E"})
    assert game.result is None
    assert list(game.to_act()) == [2, 3]
    game.apply({2: "E", 3: "N"})
    assert game.result is not None
    assert game.result.ranks == (4, 3, 2, 1)
    assert game.result.reason == "player 3 moved into a wall; player 4 wins"


def test_four_players_pairs_crashing_together_share_places():
    game = make_game(FOUR)
    game.apply({0: "N", 1: "S", 2: "W", 3: "E"})
    assert game.result is None
    assert game.board.alive == [False, False, True, True]
    assert list(game.to_act()) == [2, 3]
    game.apply({2: "N", 3: "S"})
    assert game.result is not None
    assert game.result.ranks == (3, 3, 1, 1)
    assert game.result.reason == ("player 3 moved into a wall; player 4 moved into a wall; "
                                  "players 3 and 4 share first place")


# --- alternating moves -----------------------------------------------------------------------------


def test_alternating_moves_go_in_seat_order():
    game = make_game("#########\n#1.....2#\n#########\n", moves="alternating")
    assert game.moves == "alternating"
    assert tuple(game.to_act()) == (0,)
    game.apply({0: "E"})
    assert tuple(game.to_act()) == (1,)
    assert head(game, 0) == (2, 1)
    assert head(game, 1) == (7, 1)
    game.apply({1: "W"})
    assert tuple(game.to_act()) == (0,)
    assert head(game, 1) == (6, 1)
    assert game.board.turn == 2
    assert game.result is None


def test_alternating_wall_crashes_the_mover_only():
    game = make_game(CORRIDOR, moves="alternating")
    game.apply({0: "N"})
    assert game.result is not None
    assert game.result.ranks == (2, 1)
    assert game.result.reason == "player 1 moved into a wall; player 2 wins"


def test_alternating_second_seat_crashing_loses():
    game = make_game(CORRIDOR, moves="alternating")
    game.apply({0: "E"})
    game.apply({1: "E"})
    assert game.result is not None
    assert game.result.ranks == (1, 2)
    assert game.result.reason == "player 2 moved into a wall; player 1 wins"


def test_alternating_moving_into_the_other_head_crashes_the_mover_only():
    game = make_game("#####\n#1.2#\n#####\n", moves="alternating")
    game.apply({0: "E"})
    assert game.result is None
    game.apply({1: "W"})
    assert game.result is not None
    assert game.result.ranks == (1, 2)
    assert game.result.reason == "player 2 moved into player 1's head; player 1 wins"
    assert head(game, 0) == (2, 1)


def test_alternating_moving_into_a_trail_crashes_the_mover_only():
    game = make_game("######\n#1...#\n#...2#\n######\n", moves="alternating")
    for seat, move in ((0, "E"), (1, "N"), (0, "S"), (1, "W"), (0, "W")):
        game.apply({seat: move})
        assert game.result is None
    assert head(game, 0) == (1, 2)
    assert head(game, 1) == (3, 1)
    game.apply({1: "W"})
    assert game.result is not None
    assert game.result.ranks == (1, 2)
    assert game.result.reason == "player 2 moved into player 1's trail; player 1 wins"


def test_alternating_reversing_crashes_into_its_own_trail():
    game = make_game(CORRIDOR, moves="alternating")
    game.apply({0: "E"})
    game.apply({1: "W"})
    game.apply({0: "W"})
    assert game.result is not None
    assert game.result.reason == "player 1 moved into its own trail; player 2 wins"


def test_alternating_three_players_skip_dead_seats_and_rank_by_elimination():
    game = make_game("#######\n#1....#\n#.....#\n#2...3#\n#######\n", moves="alternating")
    game.apply({0: "E"})
    assert tuple(game.to_act()) == (1,)
    game.apply({1: "S"})  # seat 1 crashes
    assert game.result is None
    assert tuple(game.to_act()) == (2,)
    game.apply({2: "N"})
    assert tuple(game.to_act()) == (0,)
    game.apply({0: "E"})
    assert tuple(game.to_act()) == (2,)
    game.apply({2: "E"})  # seat 2 crashes
    assert game.result is not None
    assert game.result.ranks == (1, 3, 2)
    assert game.result.reason == "player 3 moved into a wall; player 1 wins"


def test_alternating_skips_a_dead_last_seat_and_wraps_to_seat_zero():
    game = make_game("#######\n#1....#\n#.....#\n#2...3#\n#######\n", moves="alternating")
    game.apply({0: "E"})
    game.apply({1: "N"})
    game.apply({2: "S"})  # seat 2 crashes
    assert game.result is None
    assert tuple(game.to_act()) == (0,)
    game.apply({0: "E"})
    assert tuple(game.to_act()) == (1,)
    game.apply({1: "E"})
    assert tuple(game.to_act()) == (0,)


def test_alternating_four_players_skip_two_dead_seats():
    game = make_game(FOUR, moves="alternating")
    game.apply({0: "S"})
    game.apply({1: "E"})  # seat 1 crashes
    assert tuple(game.to_act()) == (2,)
    game.apply({2: "N"})  # seat 2 crashes
    assert game.result is None
    assert tuple(game.to_act()) == (3,)
    game.apply({3: "N"})
    assert tuple(game.to_act()) == (0,)
    game.apply({0: "E"})
    assert tuple(game.to_act()) == (3,)
    game.apply({3: "W"})  # seat 3 crashes
    assert game.result is not None
    assert game.result.ranks == (1, 4, 3, 2)
    assert game.result.reason == "player 4 moved into a wall; player 1 wins"


# --- is_legal ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("moves", ["simultaneous", "alternating"])
def test_is_legal_accepts_exactly_the_four_direction_strings(moves):
    game = make_game(CORRIDOR, moves=moves)
    for action in ("N", "E", "S", "W"):
        assert game.is_legal(0, action) is True
        assert game.is_legal(1, action) is True
    for action in ("n", "e", "", "NE", " N", "N ", "X", None, 3, 0, 1.0, b"N", ["N"], ("N",), {"N": 1}, {"N"},
                   object()):
        assert game.is_legal(0, action) is False, action


# --- observations -------------------------------------------------------------------------------------

OBS_MAP = """\
######
#1.#.#
#...2#
#....#
######
"""


def test_observation_fields_on_a_known_position():
    game = make_game(OBS_MAP)
    obs = game.observe(0)
    assert isinstance(obs, TronObservation)
    assert obs.seat == 0
    assert obs.width == 6
    assert obs.height == 5
    assert obs.stride == 8
    assert obs.moves == "simultaneous"
    assert obs.turn == 0
    assert obs.position == (1, 1)
    assert obs.head == obs.index(1, 1)
    assert obs.xy(obs.index(4, 2)) == (4, 2)
    assert obs.opponents() == [(4, 2)]
    assert obs.safe_moves() == ["E", "S"]
    assert obs.walls_around("E") == 3  # (2,1): wall north and east, own head west
    assert obs.walls_around("S") == 2  # (1,2): own head north, wall west
    assert obs.walls_around("N") == 4  # (1,0), a wall: off-board north, head south, walls east and west
    assert obs.walls_around("W") == 4  # (0,1), a wall: walls north and south, off-board west, head east
    assert obs.is_free(2, 1) is True
    assert obs.is_free(4, 1) is True
    assert obs.is_free(3, 1) is False  # wall
    assert obs.is_free(1, 1) is False  # own head
    assert obs.is_free(4, 2) is False  # opponent's head
    assert obs.is_free(-1, 2) is False
    assert obs.is_free(6, 2) is False
    assert obs.is_free(2, -1) is False
    assert obs.is_free(2, 5) is False


def test_observation_for_the_other_seat():
    game = make_game(OBS_MAP)
    obs = game.observe(1)
    assert obs.seat == 1
    assert obs.position == (4, 2)
    assert obs.opponents() == [(1, 1)]
    assert obs.safe_moves() == ["N", "S", "W"]
    assert obs.walls_around("N") == 4  # (4,1): walls north, east and west, own head south
    assert obs.walls_around("W") == 2  # (3,2): wall north, own head east
    assert obs.walls_around("S") == 3  # (4,3): own head north, walls south and east


def test_observation_after_moves_sees_trails_and_turn():
    game = make_game(OBS_MAP)
    game.apply({0: "S", 1: "W"})
    obs = game.observe(0)
    assert obs.turn == 1
    assert obs.position == (1, 2)
    assert obs.opponents() == [(3, 2)]
    assert obs.is_free(1, 1) is False
    assert obs.is_free(4, 2) is False
    assert obs.cells[obs.index(1, 1)] == TRAIL + 0
    assert obs.cells[obs.index(4, 2)] == TRAIL + 1
    assert obs.safe_moves() == ["E", "S"]
    obs = game.observe(1)
    assert obs.safe_moves() == ["S", "W"]


def test_observation_opponents_leaves_out_dead_seats():
    game = make_game("#######\n#1....#\n#.....#\n#2...3#\n#######\n")
    game.apply({0: "N", 1: "E", 2: "N"})
    assert game.observe(1).opponents() == [(5, 2)]
    assert game.observe(2).opponents() == [(2, 3)]


def test_observation_cells_is_an_immutable_snapshot():
    game = make_game(OBS_MAP)
    obs = game.observe(0)
    before = bytes(obs.cells)
    assert type(obs.cells) is bytes
    with pytest.raises(TypeError):
        obs.cells[obs.index(2, 1)] = 1  # type: ignore[index]
    game.apply({0: "E", 1: "W"})
    assert obs.cells == before
    assert obs.position == (1, 1)
    assert obs.opponents() == [(4, 2)]
    assert obs.safe_moves() == ["E", "S"]
    assert obs.is_free(2, 1) is True
    assert obs.turn == 0
    later = game.observe(0)
    assert later.cells != before
    assert later.is_free(2, 1) is False
    assert later.position == (2, 1)


def test_observation_alternating_reports_the_move_order():
    game = make_game(OBS_MAP, moves="alternating")
    assert game.observe(0).moves == "alternating"


def test_observation_delta_cannot_change_the_game():
    game = make_game(CORRIDOR)
    obs = game.observe(0)
    with contextlib.suppress(TypeError):
        obs.delta["E"] = 0
    game.apply({0: "E", 1: "W"})
    assert game.result is None
    assert head(game, 0) == (2, 1)


# --- render ---------------------------------------------------------------------------------------------


def test_render_without_color_at_the_start():
    game = make_game(OBS_MAP)
    assert game.render() == "######\n#1.#.#\n#...2#\n#....#\n######"


def test_render_without_color_shows_heads_trails_and_open_cells():
    game = make_game("#######\n#1....#\n#  .  #\n#2...3#\n#######\n")
    game.apply({0: "E", 1: "N", 2: "W"})
    game.apply({0: "N", 1: "E", 2: "N"})  # seat 0 crashes; its trail stays, its head is gone
    assert game.result is None
    assert game.render() == "\n".join([
        "#######",
        "#aa...#",
        "#b2.3.#",
        "#b..cc#",
        "#######",
    ])
    assert game.render(color=False) == game.render()


def test_render_with_color_uses_markup():
    game = make_game("####\n#12#\n####\n")
    text = game.render(color=True)
    assert "[bold bright_red]1[/]" in text
    assert "[bold bright_blue]2[/]" in text
    assert "[grey50]#[/]" in text


# --- the referee: run_match with test bots ----------------------------------------------------------------

TEST_BOTS = '''\
"""Bots for tests/test_tron_rules.py."""

import sys
import time

from arena import bot


@bot(name="t_east", game="tron")
def east(obs, rng):
    return "E"


@bot(name="t_west", game="tron")
def west(obs, rng):
    return "W"


@bot(name="t_raise", game="tron")
def raiser(obs, rng):
    raise ValueError("boom")


@bot(name="t_late_raise", game="tron")
def late_raiser(obs, rng):
    if obs.turn >= 2:
        raise RuntimeError(f"late at turn {obs.turn}")
    return "E"


@bot(name="t_x", game="tron")
def returns_x(obs, rng):
    return "X"


@bot(name="t_none", game="tron")
def returns_none(obs, rng):
    return None


@bot(name="t_sleep", game="tron")
def sleeper(obs, rng):
    time.sleep(0.1)
    return "E"


@bot(name="t_exit", game="tron")
def exiter(obs, rng):
    sys.exit(3)


@bot(name="t_random", game="tron")
def random_safe(obs, rng):
    moves = obs.safe_moves()
    return rng.choice(moves) if moves else "N"
'''

REFEREE_CORRIDOR = "; title = Corridor\n##########\n#1......2#\n##########\n"


@pytest.fixture(scope="module")
def bots_file(tmp_path_factory):
    directory = tmp_path_factory.mktemp("test_bots")
    path = directory / "test_bots.py"
    path.write_text(TEST_BOTS)
    return path


@pytest.fixture(scope="module")
def registry(bots_file):
    config = PluginConfig(bot_dirs=(str(bots_file.parent),), use_cwd_bots=False, use_env_path=False)
    loaded = load_registry(config)
    assert [problem for problem in loaded.problems if str(bots_file.parent) in problem] == []
    return loaded


def play(registry, bots, text=REFEREE_CORRIDOR, seed=0, time_limit=1.0, name="corridor"):
    return run_match("tron", bots, game_map=parse_map(text, name=name), seed=seed, time_limit=time_limit,
                     registry=registry)


def test_test_bots_are_registered_from_the_bot_directory(registry, bots_file):
    for name in ("t_east", "t_west", "t_raise", "t_x", "t_none", "t_sleep", "t_exit", "t_random"):
        entry = registry.bot(name)
        assert entry.source == str(bots_file)
        assert entry.games == ("tron",)
    assert registry.game("tron") is TronGame


def test_normal_game_plays_to_a_rules_result(registry):
    outcome = play(registry, ["t_east", "t_west"])
    # seat 0 from x=1 and seat 1 from x=8 meet: after 3 turns they stand at 4 and 5, then swap heads.
    assert outcome.turns == 4
    assert outcome.ranks == (1, 1)
    assert outcome.reason == "player 1 moved into player 2's head; player 2 moved into player 1's head; draw"
    assert outcome.failure_kinds == {}


def test_bot_that_raises_loses_with_crash_and_says_where(registry, bots_file):
    outcome = play(registry, ["t_east", "t_raise"])
    assert outcome.failure_kinds == {1: "crash"}
    assert outcome.ranks == (1, 2)
    line = line_of(bots_file, 'raise ValueError("boom")')
    detail = f"raised ValueError on move 1: boom ({bots_file}:{line}, in raiser)"
    assert outcome.reason == f"player 2 (t_raise) {detail}"
    assert outcome.turns == 0
    traceback = f'  File "{bots_file}", line {line}, in raiser\n    raise ValueError("boom")\nValueError: boom'
    assert outcome.failures == {1: Failure("crash", detail, traceback)}
    assert outcome.record()["failures"] == [{"seat": 1, "kind": "crash", "detail": detail, "traceback": traceback}]


def test_bot_that_raises_mid_game_keeps_the_turns_before(registry, bots_file):
    outcome = play(registry, ["t_late_raise", "t_west"])
    assert outcome.failure_kinds == {0: "crash"}
    assert outcome.ranks == (2, 1)
    line = line_of(bots_file, 'raise RuntimeError(f"late')
    assert outcome.reason == (f"player 1 (t_late_raise) raised RuntimeError on move 3: late at turn 2 "
                              f"({bots_file}:{line}, in late_raiser)")
    assert outcome.turns == 2
    assert outcome.record()["turns"] == [{"0": "E", "1": "W"}, {"0": "E", "1": "W"}]


@pytest.mark.parametrize(("bot_name", "shown"), [("t_x", "'X'"), ("t_none", "None")])
def test_bot_returning_an_illegal_value_loses_with_illegal(registry, bot_name, shown):
    outcome = play(registry, [bot_name, "t_west"])
    assert outcome.failures == {0: Failure("illegal", f"returned {shown} on move 1, which is not a legal action")}
    assert outcome.ranks == (2, 1)
    assert outcome.reason == f"player 1 ({bot_name}) returned {shown} on move 1, which is not a legal action"
    assert outcome.record()["failures"] == [{"seat": 0, "kind": "illegal",
                                             "detail": f"returned {shown} on move 1, which is not a legal action"}]
    assert outcome.turns == 0


def test_failed_seats_share_last_place_and_the_rest_share_first():
    assert forfeit_ranks(2, [0]) == (2, 1)
    assert forfeit_ranks(4, [3, 1]) == (1, 3, 1, 3)
    assert forfeit_ranks(3, [0, 1, 2]) == (1, 1, 1)


def test_bot_over_the_time_limit_loses_with_timeout(registry):
    outcome = play(registry, ["t_sleep", "t_west"], time_limit=0.05)
    assert outcome.failure_kinds == {0: "timeout"}
    assert outcome.ranks == (2, 1)
    match = re.fullmatch(r"player 1 \(t_sleep\) took (\d+\.\d{3}) s on move 1, over the 0\.05 s limit",
                         outcome.reason)
    assert match is not None, outcome.reason
    assert float(match.group(1)) >= 0.1
    assert outcome.think_time[0] >= 0.1
    assert outcome.turns == 0


def test_bot_calling_sys_exit_loses_with_crash_and_the_process_goes_on(registry, bots_file):
    outcome = play(registry, ["t_east", "t_exit"])
    assert outcome.failure_kinds == {1: "crash"}
    assert outcome.ranks == (1, 2)
    line = line_of(bots_file, "sys.exit(3)")
    assert outcome.reason == f"player 2 (t_exit) raised SystemExit on move 1: 3 ({bots_file}:{line}, in exiter)"
    again = play(registry, ["t_exit", "t_west"])
    assert again.failure_kinds == {0: "crash"}
    assert again.ranks == (2, 1)


def test_both_seats_failing_in_the_same_turn_share_last_place(registry, bots_file):
    outcome = play(registry, ["t_raise", "t_x"])
    assert outcome.failure_kinds == {0: "crash", 1: "illegal"}
    assert outcome.ranks == (1, 1)
    line = line_of(bots_file, 'raise ValueError("boom")')
    assert outcome.reason == (f"player 1 (t_raise) raised ValueError on move 1: boom ({bots_file}:{line}, in raiser); "
                              "player 2 (t_x) returned 'X' on move 1, which is not a legal action")
    assert outcome.record()["result"] == {"ranks": [1, 1], "reason": outcome.reason}


def test_record_has_every_field(registry, bots_file):
    outcome = play(registry, ["t_east", "t_west"], seed=5)
    version = hashlib.sha256(bots_file.read_bytes()).hexdigest()[:8]
    record = dict(outcome.record())
    think_time = record.pop("think_time")
    assert record == {
        "format": "arena-record/1",
        "game": "tron",
        "options": {"moves": "simultaneous"},
        "map": {"name": "corridor", "text": REFEREE_CORRIDOR},
        "seed": 5,
        "players": [
            {"seat": 0, "bot": "t_east", "version": version},
            {"seat": 1, "bot": "t_west", "version": version},
        ],
        "turns": [{"0": "E", "1": "W"}] * 4,
        "result": {
            "ranks": [1, 1],
            "reason": "player 1 moved into player 2's head; player 2 moved into player 1's head; draw",
        },
        "failures": [],
    }
    assert len(think_time) == 2
    assert all(isinstance(seconds, float) and seconds >= 0 for seconds in think_time)


def test_record_of_an_alternating_game_has_one_seat_per_turn(registry):
    text = "; moves = alternating\n#######\n#1...2#\n#######\n"
    outcome = play(registry, ["t_east", "t_west"], text=text)
    assert outcome.record()["options"] == {"moves": "alternating"}
    assert outcome.record()["turns"] == [{"0": "E"}, {"1": "W"}, {"0": "E"}, {"1": "W"}]
    assert outcome.ranks == (1, 2)
    assert outcome.reason == "player 2 moved into player 1's head; player 1 wins"


def without_timing(record):
    return {key: value for key, value in record.items() if key != "think_time"}


def test_same_seed_gives_the_same_record(registry):
    empty_room = (
        "#############\n" + "#...........#\n" + "#.1.........#\n" + "#...........#\n" * 7
        + "#.........2.#\n" + "#...........#\n" + "#############\n"
    )
    first = play(registry, ["t_random", "t_random"], text=empty_room, seed=11, name="room")
    second = play(registry, ["t_random", "t_random"], text=empty_room, seed=11, name="room")
    assert first.turns > 5
    assert without_timing(first.record()) == without_timing(second.record())
    assert first.ranks == second.ranks
    other = play(registry, ["t_random", "t_random"], text=empty_room, seed=12, name="room")
    assert without_timing(other.record())["turns"] != without_timing(first.record())["turns"]
