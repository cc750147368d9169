"""Tron rule sets: options and the rules preset, mirrored starts, every powerup, free-for-all, tournaments."""

from __future__ import annotations

import pickle
from collections import Counter

import numpy as np
import pytest

from arena.core.errors import ArenaError, MapError
from arena.core.maps import parse_map, resolve_map
from arena.games.tron.game import TronGame
from arena.games.tron.observation import PowerupObservation, TronObservation
from arena.games.tron.rules import BARRIER, EMPTY, TRAIL, WALL
from arena.play.referee import run_match
from arena.tournament.definition import load_definition
from arena.tournament.plan import plan_tournament
from arena.tournament.selection import load_maps
from tests.helpers import REPO, round_robin_run

SHIPPED_TRON_BOTS = ["chaser", "floodfill", "random", "wallhugger"]


def make_game(text: str, seed: int = 0, **options: str) -> TronGame:
    return TronGame(parse_map(text), TronGame.resolve_options(options), np.random.default_rng(seed))


def at(game: TronGame, x: int, y: int) -> int:
    return game.board.cells[game.board.index(x, y)]


def heads(game: TronGame) -> list[tuple[int, int] | None]:
    return [None if h < 0 else game.board.xy(h) for h in game.board.heads]


def cells_with(game: TronGame, value: int) -> list[tuple[int, int]]:
    board = game.board
    return [board.xy(i) for i, v in enumerate(board.cells) if v == value]


def move(game: TronGame, action: str) -> int:
    """Let the one seat that acts now (alternating, or on a speed run) make ``action``; return that seat."""
    (seat,) = game.to_act()
    game.apply({seat: action})
    return seat


# --- options and the rules preset -------------------------------------------------------------------


def test_defaults_resolve_to_ai_challenge_and_name_only_moves():
    assert TronGame.resolve_options({}) == {"moves": "simultaneous"}
    assert TronGame.resolve_options({"title": "x", "rules": "aichallenge"}) == {"moves": "simultaneous"}
    assert {key: option.default for key, option in TronGame.options.items()} == {
        "moves": "simultaneous", "starts": "map", "powerups": "off", "rules": "aichallenge"}


def test_brown_preset_sets_alternating_mirrored_powerups():
    assert TronGame.resolve_options({"rules": "brown"}) == {
        "moves": "alternating", "starts": "mirrored", "powerups": "on"}


def test_an_option_set_on_its_own_wins_over_the_preset():
    assert TronGame.resolve_options({"rules": "brown", "moves": "simultaneous"}) == {
        "moves": "simultaneous", "starts": "mirrored", "powerups": "on"}
    assert TronGame.resolve_options({"rules": "brown", "starts": "map", "powerups": "off"}) == {
        "moves": "alternating"}
    assert TronGame.resolve_options({"rules": "aichallenge", "powerups": "on"}) == {
        "moves": "simultaneous", "powerups": "on"}


@pytest.mark.parametrize(("given", "expected"), [
    ({"moves": "alternating"}, {"moves": "alternating"}),
    ({"starts": "mirrored"}, {"moves": "simultaneous", "starts": "mirrored"}),
    ({"powerups": "on"}, {"moves": "simultaneous", "powerups": "on"}),
    ({"starts": "map", "powerups": "off"}, {"moves": "simultaneous"}),
])
def test_each_option_works_alone(given, expected):
    assert TronGame.resolve_options(given) == expected


def test_resolving_resolved_options_changes_nothing():
    for given in ({}, {"rules": "brown"}, {"rules": "brown", "moves": "simultaneous"}, {"powerups": "on"}):
        resolved = TronGame.resolve_options(given)
        assert TronGame.resolve_options(resolved) == resolved


@pytest.mark.parametrize(("given", "message"), [
    ({"rules": "snafu"}, "option rules = 'snafu' is not one of: aichallenge, brown"),
    ({"starts": "random"}, "option starts = 'random' is not one of: map, mirrored"),
    ({"powerups": "yes"}, "option powerups = 'yes' is not one of: off, on"),
    ({"speed": "on"}, "game 'tron' has no option 'speed' (known options: moves, powerups, rules, starts)"),
])
def test_bad_options_are_one_line_errors(given, message):
    with pytest.raises(ArenaError) as info:
        TronGame.resolve_options(given)
    assert str(info.value) == message


def test_a_bad_option_in_a_map_header_names_its_line(tmp_path, shipped_registry):
    path = tmp_path / "bad.txt"
    path.write_text("; title = t\n; powerups = maybe\n####\n#12#\n####\n")
    with pytest.raises(MapError) as info:
        load_maps([str(path)], shipped_registry)
    assert str(info.value) == f"{path}:2:1: option powerups = 'maybe' is not one of: off, on"


def test_map_header_preset_reaches_the_game_and_the_record(shipped_registry):
    outcome = run_match("tron", ["random", "random"], game_map="powerup_room", seed=1, registry=shipped_registry)
    assert outcome.options == {"moves": "alternating", "starts": "mirrored", "powerups": "on"}
    assert outcome.record()["options"] == outcome.options
    assert all(len(turn) == 1 for turn in outcome.actions)


def test_options_given_to_run_match_override_the_map_header(shipped_registry):
    outcome = run_match("tron", ["random", "random"], game_map="powerup_room", seed=1,
                        options={"moves": "simultaneous"}, registry=shipped_registry)
    assert outcome.options == {"moves": "simultaneous", "starts": "mirrored", "powerups": "on"}
    assert len(outcome.actions[0]) == 2


# --- map characters -----------------------------------------------------------------------------------


def test_powerup_characters_are_valid_tron_map_cells():
    game_map = parse_map("########\n#1*!@..#\n#..^?.2#\n########\n")
    TronGame.check_map(game_map)
    assert TronGame.num_players(game_map) == 2


def test_an_x_barrier_is_not_a_map_character():
    game_map = parse_map("#####\n#1x2#\n#####\n", path="x.txt")
    with pytest.raises(MapError) as info:
        TronGame.check_map(game_map)
    assert str(info.value) == ("x.txt:2:3: unknown character 'x' (tron maps use '#', ' ' or '.', starts '1'-'4', "
                               "and powerups '*', '!', '@', '^', '?')")


POWERUP_ROW = "#########\n#1*!@^?2#\n#########\n"


def test_with_powerups_off_powerup_cells_are_plain_empty_cells():
    game = make_game(POWERUP_ROW)
    assert [at(game, x, 1) for x in range(2, 7)] == [EMPTY] * 5
    obs = game.observe(0)
    assert type(obs) is TronObservation
    assert obs.powerups() == {}
    assert obs.powerup("E") is None
    assert obs.armor == (False, False) and obs.speed == (False, False) and obs.run_left == 1
    assert game.render() == "#########\n#1.....2#\n#########"
    game.apply({0: "E", 1: "W"})
    game.apply({0: "E", 1: "W"})
    assert game.result is None
    assert heads(game) == [(3, 1), (5, 1)]


def test_with_powerups_on_each_character_is_its_powerup():
    game = make_game(POWERUP_ROW, seed=0, powerups="on")
    obs = game.observe(0)
    assert type(obs) is PowerupObservation
    assert obs.powerups() == {(2, 1): "trap", (3, 1): "bomb", (4, 1): "armor", (5, 1): "speed", (6, 1): "speed"}
    assert [at(game, x, 1) for x in range(2, 7)] == [EMPTY] * 5
    assert game.render() == "#########\n#1*!@^^2#\n#########"


QUESTIONS = "#######\n#1???.#\n#.?.?.#\n#.???2#\n#######\n"


def test_question_marks_become_random_powerups_from_the_seed():
    first = make_game(QUESTIONS, seed=0, powerups="on").observe(0).powerups()
    assert first == {(2, 1): "speed", (3, 1): "armor", (4, 1): "armor", (2, 2): "bomb", (4, 2): "bomb",
                     (2, 3): "trap", (3, 3): "trap", (4, 3): "trap"}
    second = make_game(QUESTIONS, seed=1, powerups="on").observe(0).powerups()
    assert second == {(2, 1): "bomb", (3, 1): "armor", (4, 1): "speed", (2, 2): "speed", (4, 2): "trap",
                      (2, 3): "trap", (3, 3): "speed", (4, 3): "speed"}
    assert make_game(QUESTIONS, seed=0, powerups="on").observe(1).powerups() == first
    kinds = Counter(kind for seed in range(50)
                    for kind in make_game(QUESTIONS, seed=seed, powerups="on").observe(0).powerups().values())
    assert set(kinds) == {"trap", "bomb", "armor", "speed"}
    assert sum(kinds.values()) == 50 * 8


def test_question_marks_draw_nothing_with_powerups_off():
    game = make_game(QUESTIONS, seed=0)
    assert game.render() == "#######\n#1....#\n#.....#\n#....2#\n#######"


# --- mirrored starts ------------------------------------------------------------------------------------


def mirrored(game_map, seed: int, **options: str) -> list[tuple[int, int]]:
    game = TronGame(game_map, TronGame.resolve_options({"starts": "mirrored", **options}),
                    np.random.default_rng(seed))
    return heads(game)


def test_mirrored_starts_from_fixed_seeds():
    room = resolve_map("empty_room")
    assert mirrored(room, 0) == [(5, 10), (7, 2)]
    assert mirrored(room, 1) == [(2, 6), (10, 6)]
    assert mirrored(room, 2) == [(3, 10), (9, 2)]


def test_mirrored_starts_draw_uniformly_among_the_documented_candidates():
    room = resolve_map("empty_room")
    candidates = [(x, y) for y, row in enumerate(room.rows) for x, char in enumerate(row)
                  if char != "#" and (x, y) != (6, 6)]
    for seed in range(20):
        index = int(np.random.default_rng(seed).integers(len(candidates)))
        assert mirrored(room, seed)[0] == candidates[index]


def test_mirrored_starts_ignore_the_map_starts_and_never_use_the_centre():
    room = resolve_map("empty_room")
    seen = set()
    for seed in range(300):
        (x, y), other = mirrored(room, seed)
        assert other == (12 - x, 12 - y)
        assert (x, y) != (6, 6)
        assert room.rows[y][x] != "#"
        seen.add((x, y))
    assert len(seen) > 80  # spread over the room, not just the map's own starts
    game = TronGame(room, TronGame.resolve_options({"starts": "mirrored"}), np.random.default_rng(0))
    assert at(game, 2, 2) == EMPTY  # the map's 1 is an ordinary empty cell
    assert at(game, 10, 10) == EMPTY
    assert at(game, 5, 10) == TRAIL + 0
    assert at(game, 7, 2) == TRAIL + 1


def test_mirrored_starts_skip_walls_and_powerups():
    game_map = parse_map("#####\n#1*.#\n#.#.#\n#.*2#\n#####\n")
    placed = Counter()
    for seed in range(100):
        first, second = mirrored(game_map, seed, powerups="on")
        assert second == (4 - first[0], 4 - first[1])
        placed[first] += 1
    # (2, 1) and (2, 3) hold powerups, the centre is a wall: the other six cells are the candidates
    assert set(placed) == {(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)}


def test_mirrored_starts_with_four_players_are_two_mirrored_pairs():
    corners = resolve_map("four_corners")
    assert mirrored(corners, 0) == [(13, 13), (3, 3), (12, 10), (4, 6)]
    for seed in range(50):
        a, b, c, d = mirrored(corners, seed)
        assert b == (16 - a[0], 16 - a[1]) and d == (16 - c[0], 16 - c[1])
        assert len({a, b, c, d}) == 4


def test_mirrored_starts_need_a_mirrored_pair_of_empty_cells():
    game_map = parse_map("12#\n###\n", name="lopsided")
    with pytest.raises(ArenaError) as info:
        mirrored(game_map, 0)
    assert str(info.value) == "lopsided: not enough mirrored pairs of empty cells for 2 random starts"


# --- trap -------------------------------------------------------------------------------------------------

TRAP = """\
#########
#1*.....#
#.......#
#.......#
#.....2.#
#.......#
#########
"""


@pytest.mark.parametrize(("seed", "expected"), [
    (0, [(7, 2), (4, 3), (4, 5)]),
    (1, [(6, 2), (7, 2), (4, 4)]),
    (2, [(4, 2), (5, 2), (4, 3)]),
])
def test_trap_puts_three_barriers_on_the_ring_around_the_opponent(seed, expected):
    game = make_game(TRAP, seed=seed, moves="alternating", powerups="on")
    move(game, "E")
    assert heads(game) == [(2, 1), (6, 4)]
    barriers = cells_with(game, BARRIER)
    assert barriers == expected
    free_ring = {(4, 2), (5, 2), (6, 2), (7, 2), (4, 3), (4, 4), (4, 5)}  # x = 8 and y = 6 are walls
    assert set(barriers) <= free_ring
    assert game.observe(1).powerups() == {}


def test_trap_with_fewer_free_ring_cells_fills_them_all_and_spares_powerups():
    game = make_game("2.#....\n..#....\n..@#...\n.......\n...1*..\n", moves="alternating", powerups="on")
    move(game, "E")
    # The ring of (0, 0) on the board: (2, 0) and (2, 1) are walls, (2, 2) holds armor.
    assert cells_with(game, BARRIER) == [(0, 2), (1, 2)]
    assert game.observe(1).powerups() == {(2, 2): "armor"}


def test_a_trap_barrier_crashes_whoever_moves_into_it():
    game = make_game("2.#....\n..#....\n..@#...\n.......\n...1*..\n", moves="alternating", powerups="on")
    move(game, "E")
    move(game, "S")  # seat 1 to (0, 1)
    move(game, "E")
    move(game, "S")  # into the barrier at (0, 2)
    assert game.result is not None
    assert game.result.ranks == (1, 2)
    assert game.result.reason == "player 2 moved into a barrier; player 1 wins"


def test_render_shows_barriers_and_powerups():
    game = make_game("2.#....\n..#....\n..@#...\n.......\n...1*..\n", moves="alternating", powerups="on")
    assert game.render() == "2.#....\n..#....\n..@#...\n.......\n...1*.."
    move(game, "E")
    assert game.render() == "2.#....\n..#....\nxx@#...\n.......\n...a1.."
    colored = game.render(color=True)
    assert "[bold magenta]@[/]" in colored and "[grey50]x[/]" in colored


# --- bomb --------------------------------------------------------------------------------------------------

BOMB = """\
###############
#1............#
#.............#
#...........!.#
#2............#
###############
"""


def test_bomb_clears_every_barrier_in_the_9x9_square_and_nothing_else():
    game = make_game(BOMB, moves="alternating", powerups="on")
    for _ in range(11):
        move(game, "E")
        move(game, "E")
    move(game, "S")
    move(game, "E")
    assert game.render().splitlines()[1:5] == [
        "#aaaaaaaaaaaa.#",
        "#...........1.#",
        "#...........!.#",
        "#bbbbbbbbbbbb2#",
    ]
    move(game, "S")  # seat 0 onto the bomb at (12, 3): the square is x 8..16, y -1..7
    assert game.result is None
    assert game.render().splitlines() == [
        "###############",
        "#aaaaaaa......#",
        "#.............#",
        "#...........1.#",
        "#bbbbbbb.....2#",
        "###############",
    ]
    assert heads(game) == [(12, 3), (13, 4)]
    assert at(game, 13, 4) == TRAIL + 1  # a head is not a barrier
    assert at(game, 14, 1) == WALL and at(game, 12, 0) == WALL and at(game, 12, 5) == WALL
    assert game.observe(0).powerups() == {}


def test_bomb_also_clears_trap_barriers():
    game = make_game("#######\n#1*...#\n#.....#\n#..!..#\n#..2..#\n#######\n", moves="alternating",
                     powerups="on")
    move(game, "E")
    assert cells_with(game, BARRIER) == [(5, 2), (1, 3), (1, 4)]
    move(game, "N")  # seat 1 onto the bomb
    assert cells_with(game, BARRIER) == []
    assert game.render() == "#######\n#.1...#\n#.....#\n#..2..#\n#.....#\n#######"


# --- armor -------------------------------------------------------------------------------------------------

ARMOR = """\
#######
#1@...#
#.....#
#....2#
#######
"""


def test_armor_survives_exactly_one_move_into_a_barrier():
    game = make_game(ARMOR, moves="alternating", powerups="on")
    move(game, "E")
    assert game.board.armor == [True, False]
    assert game.observe(1).armor == (True, False)
    move(game, "W")
    move(game, "W")  # back into its own trail at (1, 1): survived
    assert game.result is None
    assert heads(game) == [(1, 1), (4, 3)]
    assert game.board.armor == [False, False]
    assert at(game, 2, 1) == TRAIL + 0
    move(game, "W")
    move(game, "E")  # into its trail at (2, 1) again: no armor left
    assert game.result is not None
    assert game.result.reason == "player 1 moved into its own trail; player 2 wins"


def test_armor_survives_the_opponents_trail():
    game = make_game("######\n#1@..#\n#....#\n#2...#\n######\n", moves="alternating", powerups="on")
    move(game, "E")  # armor at (2, 1)
    move(game, "E")
    move(game, "S")
    move(game, "E")  # seat 1's trail is now (1, 3) and (2, 3); its head is (3, 3)
    move(game, "S")  # into (2, 3)
    assert game.result is None
    assert heads(game) == [(2, 3), (3, 3)]
    assert at(game, 2, 3) == TRAIL + 0
    assert game.board.armor == [False, False]


def test_armor_does_not_survive_a_wall():
    game = make_game(ARMOR, moves="alternating", powerups="on")
    move(game, "E")
    move(game, "W")
    move(game, "N")
    assert game.result is not None
    assert game.result.reason == "player 1 moved into a wall; player 2 wins"


def test_armor_does_not_survive_a_head():
    game = make_game("######\n#1@.2#\n#....#\n######\n", powerups="on")
    game.apply({0: "E", 1: "W"})  # seat 0 takes the armor; seat 1 to (3, 1)
    game.apply({0: "E", 1: "S"})  # seat 0 into the cell seat 1 is leaving: a head
    assert game.result is not None
    assert game.result.ranks == (2, 1)
    assert game.result.reason == "player 1 moved into player 2's head; player 2 wins"


def test_armor_in_simultaneous_moves():
    game = make_game("#######\n#1@...#\n#.....#\n#....2#\n#######\n", powerups="on")
    game.apply({0: "E", 1: "W"})
    assert game.observe(0).armor == (True, False)
    game.apply({0: "W", 1: "W"})  # seat 0 back into its trail
    assert game.result is None
    assert heads(game) == [(1, 1), (3, 3)]
    assert game.observe(0).armor == (False, False)


def test_armor_cannot_share_a_cell():
    game = make_game("######\n#1@..#\n#....#\n#..2.#\n######\n", powerups="on")
    game.apply({0: "E", 1: "N"})
    game.apply({0: "S", 1: "E"})  # seat 1's trail: (3, 3), (3, 2); heads (2, 2) and (4, 2)
    game.apply({0: "E", 1: "W"})  # both into (3, 2): seat 0 has armor for it, but not for company
    assert game.result is not None
    assert game.result.ranks == (1, 1)
    assert game.result.reason == "players 1 and 2 moved into the same cell; draw"
    assert game.board.armor == [True, False]


# --- speed -------------------------------------------------------------------------------------------------

SPEED = """\
################
#1^^...........#
#..............#
#.............2#
################
"""


def test_speed_gives_five_moves_in_a_row_from_the_next_turn():
    game = make_game(SPEED, moves="alternating", powerups="on")
    order = []
    for action in ["E", "W", "S", "E", "E", "E", "E", "W"]:
        seat = game.to_act()[0]
        obs = game.observe(seat)
        order.append((seat, obs.run_left, obs.speed))
        move(game, action)
    assert order == [
        (0, 1, (False, False)),  # onto the speed boost at (2, 1)
        (1, 1, (True, False)),  # the opponent moves once more, and sees the boost
        (0, 5, (False, False)),
        (0, 4, (False, False)),
        (0, 3, (False, False)),
        (0, 2, (False, False)),
        (0, 1, (False, False)),
        (1, 1, (False, False)),
    ]
    assert heads(game) == [(6, 2), (12, 3)]
    assert tuple(game.to_act()) == (0,)


def test_a_boost_picked_up_during_a_run_waits_for_the_opponents_move():
    game = make_game(SPEED, moves="alternating", powerups="on")
    move(game, "E")
    move(game, "W")
    seats = [move(game, "E") for _ in range(5)]  # the first of these takes the second boost at (3, 1)
    assert seats == [0] * 5
    assert game.board.speed == [True, False]
    assert move(game, "W") == 1
    assert [move(game, "E") for _ in range(5)] == [0] * 5
    assert move(game, "W") == 1
    assert heads(game) == [(12, 1), (11, 3)]


def test_speed_in_simultaneous_moves_is_five_solo_turns():
    game = make_game(SPEED, powerups="on")
    game.apply({0: "E", 1: "W"})
    acting = []
    for _ in range(6):
        seats = tuple(game.to_act())
        acting.append((seats, game.observe(seats[0]).run_left))
        game.apply({seat: "E" if seat == 0 else "W" for seat in seats})
    assert acting == [((0,), 5), ((0,), 4), ((0,), 3), ((0,), 2), ((0,), 1), ((0, 1), 1)]
    assert heads(game) == [(8, 1), (12, 3)]
    # the boost taken at (3, 1) during the run starts after that turn together
    assert tuple(game.to_act()) == (0,)


def test_boosts_taken_in_the_same_turn_run_one_after_the_other_in_seat_order():
    game = make_game("##########\n#1^....^2#\n#........#\n#........#\n##########\n", powerups="on")
    game.apply({0: "E", 1: "W"})
    assert game.board.speed == [False, False]  # both runs are under way or due
    plan = [{0: "S"}, {0: "E"}, {0: "E"}, {0: "E"}, {0: "E"},
            {1: "S"}, {1: "S"}, {1: "W"}, {1: "W"}, {1: "W"},
            {0: "N", 1: "W"}]
    for actions in plan:
        assert tuple(game.to_act()) == tuple(actions)
        game.apply(actions)
    assert game.result is None
    assert heads(game) == [(6, 1), (3, 3)]
    assert tuple(game.to_act()) == (0, 1)


def test_a_speed_run_ends_when_the_runner_crashes():
    game = make_game("#####\n#1^.#\n#...#\n#..2#\n#####\n", moves="alternating", powerups="on")
    move(game, "E")
    move(game, "W")
    move(game, "E")
    move(game, "E")  # into the wall: the run ends with the game
    assert game.result is not None
    assert game.result.reason == "player 1 moved into a wall; player 2 wins"


# --- observations with powerups ------------------------------------------------------------------------------


def test_powerup_observation_helpers_and_pickling():
    game = make_game(POWERUP_ROW, powerups="on", moves="alternating")
    obs = game.observe(0)
    assert obs.safe_moves() == ["E"]  # a powerup cell is free
    assert obs.powerup("E") == "trap"
    assert obs.powerup("N") is None
    assert obs.walls_around("E") == 3
    assert obs.legal_moves() == ["N", "E", "S", "W"]
    copy = pickle.loads(pickle.dumps(obs))
    assert type(copy) is PowerupObservation
    assert copy.powerups() == obs.powerups()
    assert (copy.armor, copy.speed, copy.run_left, copy.cells) == (obs.armor, obs.speed, obs.run_left, obs.cells)
    assert copy.delta == obs.delta
    move(game, "E")
    assert game.observe(1).powerups() == {(3, 1): "bomb", (4, 1): "armor", (5, 1): "speed", (6, 1): "speed"}
    assert obs.powerups()[(2, 1)] == "trap"  # the old snapshot did not change


def test_legal_moves_in_plain_tron():
    game = make_game("####\n#12#\n####\n")
    obs = game.observe(0)
    assert obs.legal_moves() == ["N", "E", "S", "W"]
    assert obs.safe_moves() == []


# --- free-for-all -------------------------------------------------------------------------------------------

THREE = "#######\n#1....#\n#.....#\n#2...3#\n#######\n"
FOUR = "#########\n#1.....3#\n#.......#\n#.......#\n#4.....2#\n#########\n"


def test_three_players_entering_one_cell_all_crash_and_share_a_place():
    game = make_game("#####\n#.1.#\n#2.3#\n#...#\n#####\n")
    game.apply({0: "S", 1: "E", 2: "W"})
    assert game.result is not None
    assert game.result.ranks == (1, 1, 1)
    assert game.result.reason == "players 1, 2 and 3 moved into the same cell; draw"


def test_four_players_one_out_then_the_other_three_at_once():
    game = make_game(FOUR)
    game.apply({0: "N", 1: "W", 2: "W", 3: "E"})
    assert game.result is None and game.board.alive == [False, True, True, True]
    game.apply({1: "S", 2: "N", 3: "S"})
    assert game.result is not None
    assert game.result.ranks == (4, 1, 1, 1)
    assert game.result.reason == ("player 2 moved into a wall; player 3 moved into a wall; player 4 moved into a wall; "
                                  "players 2, 3 and 4 share first place")


def test_four_players_two_then_one_then_the_winner():
    game = make_game(FOUR)
    game.apply({0: "N", 1: "S", 2: "W", 3: "E"})
    game.apply({2: "S", 3: "N"})
    game.apply({2: "N", 3: "E"})
    assert game.result is not None
    assert game.result.ranks == (3, 3, 2, 1)
    assert game.result.reason == "player 3 moved into its own trail; player 4 wins"


def test_four_players_with_the_brown_preset():
    game = TronGame(resolve_map("four_corners"), TronGame.resolve_options({"rules": "brown"}),
                    np.random.default_rng(0))
    assert heads(game) == [(13, 13), (3, 3), (12, 10), (4, 6)]
    for seat in range(4):
        assert move(game, "N") == seat
    assert heads(game) == [(13, 12), (3, 2), (12, 9), (4, 5)]
    assert tuple(game.to_act()) == (0,)


# --- tournaments, end to end ----------------------------------------------------------------------------------


def play_rule_set(registry, config, maps, bots, **definition):
    run, outcomes = round_robin_run(maps, bots, registry, config, workers=1, games=2, seed=5, **definition)
    assert len(outcomes) == run.plan.total_games() == len(run.played)
    assert all(outcome.failure_kinds == {} for outcome in outcomes.values())
    return run, outcomes


@pytest.mark.parametrize(("maps", "options", "expected"), [
    (["empty_room"], {}, {"moves": "simultaneous"}),
    (["center_block"], {"moves": "alternating"}, {"moves": "alternating"}),
    (["powerup_room"], {}, {"moves": "alternating", "starts": "mirrored", "powerups": "on"}),
    (["empty_room"], {"rules": "brown", "moves": "simultaneous"},
     {"moves": "simultaneous", "starts": "mirrored", "powerups": "on"}),
])
def test_tournament_of_each_two_player_rule_set(shipped_registry, shipped_config, maps, options, expected):
    run, outcomes = play_rule_set(shipped_registry, shipped_config, maps, SHIPPED_TRON_BOTS, options=options)
    assert len(outcomes) == 6 * 2
    assert {tuple(sorted(outcome.options.items())) for outcome in outcomes.values()} == {
        tuple(sorted(expected.items()))}
    firsts = Counter(run.setups[index].bots[0].name for index in outcomes)
    assert set(firsts.values()) == {3}  # each bot moves first equally often
    standings = run.standings()
    assert sorted(row.label for row in standings.rows) == SHIPPED_TRON_BOTS
    _again, replayed = play_rule_set(shipped_registry, shipped_config, maps, SHIPPED_TRON_BOTS, options=options)
    assert [(o.ranks, o.reason, o.actions) for _, o in sorted(replayed.items())] == \
        [(o.ranks, o.reason, o.actions) for _, o in sorted(outcomes.items())]


def test_free_for_all_tournament_with_four_bots(shipped_registry, shipped_config):
    bots = ["chaser", "floodfill", "random", "wallhugger"]
    run, outcomes = play_rule_set(shipped_registry, shipped_config, ["four_corners"], bots)
    assert len(outcomes) == 4
    for index, outcome in outcomes.items():
        assert len(outcome.ranks) == 4 and min(outcome.ranks) == 1
        assert len(run.setups[index].bots) == 4
    standings = run.standings()
    assert sorted(row.label for row in standings.rows) == sorted(bots)
    assert sum(row.games for row in standings.rows) == 16


def test_free_for_all_tournament_under_brown_rules(shipped_registry, shipped_config):
    bots = ["chaser", "floodfill", "random", "wallhugger"]
    _run, outcomes = play_rule_set(shipped_registry, shipped_config, ["four_corners"], bots,
                                  options={"rules": "brown"})
    assert len(outcomes) == 4
    assert all(len(turn) == 1 for outcome in outcomes.values() for turn in outcome.actions)


def test_the_shipped_brown_tournament_file_plays_brown_rules_everywhere(shipped_registry):
    definition = load_definition(REPO / "tournaments" / "brown.toml")
    assert definition.options == {"rules": "brown"}
    tournament = plan_tournament(definition, shipped_registry)
    assert tournament.game is TronGame
    setups = tournament.first_stage()
    assert len(setups) == 4 * 6 * 20
    assert {tuple(sorted(TronGame.resolve_options(setup.options).items())) for setup in setups} == {
        (("moves", "alternating"), ("powerups", "on"), ("starts", "mirrored"))}


@pytest.mark.parametrize("options", [{"starts": "mirrored"}, {"powerups": "on"}, {"rules": "brown"}])
def test_a_deferred_generator_is_made_only_when_the_game_draws_and_draws_the_same(options):
    from arena.core.game import DeferredGenerator

    room = resolve_map("empty_room")
    plain = DeferredGenerator(7)
    TronGame(room, TronGame.resolve_options({}), plain)  # type: ignore[arg-type]
    assert not plain.made  # the map's starts, no powerups: nothing drawn, no Generator made

    resolved = TronGame.resolve_options(options)
    deferred = DeferredGenerator(7)
    late = TronGame(room, resolved, deferred)  # type: ignore[arg-type]
    given = np.random.default_rng(7)
    now = TronGame(room, resolved, given)
    assert deferred.made
    assert late.board.heads == now.board.heads and late.render() == now.render()
    assert deferred.get().bit_generator.state == given.bit_generator.state  # the same draws, the same Generator
