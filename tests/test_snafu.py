"""Snafu: random starts and headings, relative actions, the deadly edge, ties, the mindless bot, tournaments."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from arena.core.errors import ArenaError, MapError
from arena.core.game import MatchInfo
from arena.core.maps import parse_map, resolve_map
from arena.games.tron.rules import EMPTY, TRAIL
from arena.games.tron.snafu import SnafuGame, SnafuObservation, open_map, parse_size
from arena.play.referee import replay_position, run_match
from arena.tournament.definition import load_definition
from arena.tournament.plan import plan_tournament
from tests.helpers import REPO, round_robin_run

SNAFU_BOTS = ["chamber", "chaser", "cla", "floodfill", "mindless", "minimax", "npz", "random", "voronoi",
              "wallhugger"]
QUICK_SNAFU_BOTS = ["chaser", "floodfill", "mindless", "random", "wallhugger"]  # none reads the clock
OPEN_7 = ("." * 7,) * 7


def new_game(seed: int, game_map=None, **options: str) -> SnafuGame:
    return SnafuGame(game_map, SnafuGame.resolve_options(options), np.random.default_rng(seed))


def heads(game: SnafuGame) -> list[tuple[int, int] | None]:
    return [None if h < 0 else game.board.xy(h) for h in game.board.heads]


def headings(game: SnafuGame) -> tuple[str, ...]:
    return game.observe(0).headings


# --- options and maps ------------------------------------------------------------------------------------


def test_size_option_defaults_to_the_map_and_takes_any_width_x_height():
    assert SnafuGame.resolve_options({}) == {"size": "map"}
    assert SnafuGame.resolve_options({"game": "snafu", "title": "t", "size": "15x15"}) == {"size": "15x15"}
    assert SnafuGame.resolve_options({"size": " 20X10 "}) == {"size": "20x10"}
    assert SnafuGame.resolve_options({"size": "map"}) == {"size": "map"}
    assert parse_size("30x30") == (30, 30)


@pytest.mark.parametrize(("given", "message"), [
    ({"size": "15"}, "option size = '15' is not 'map' or WIDTHxHEIGHT, such as 15x15"),
    ({"size": "0x5"}, "option size = '0x5': each side must be 1 to 1000, with room for two players"),
    ({"size": "1x1"}, "option size = '1x1': each side must be 1 to 1000, with room for two players"),
    ({"moves": "alternating"}, "game 'snafu' has no option 'moves' (known options: size)"),
])
def test_bad_options_are_one_line_errors(given, message):
    with pytest.raises(ArenaError) as info:
        SnafuGame.resolve_options(given)
    assert str(info.value) == message


def test_shipped_snafu_maps_are_open_boards_for_the_snafu_game():
    for name, size in (("snafu_15x15", 15), ("snafu_30x30", 30)):
        game_map = resolve_map(name)
        assert game_map.header["game"] == "snafu"
        assert game_map.rows == ("." * size,) * size
        SnafuGame.check_map(game_map)
        assert SnafuGame.num_players(game_map) == 2


def test_check_map_rejects_starts_unknown_characters_and_tiny_boards():
    def error(text: str) -> str:
        with pytest.raises(MapError) as info:
            SnafuGame.check_map(parse_map(text, path="s.txt"))
        return str(info.value)

    assert error("; game = snafu\n...\n.1.\n") == \
        "s.txt:3:2: start '1': snafu players start on random cells, so maps have no starts"
    assert error("...\n..*\n") == "s.txt:2:3: unknown character '*' (snafu maps use '.' or ' ' empty, '#' wall)"
    assert error("#.#\n###\n") == "s.txt:1:1: a snafu map needs at least two empty cells for the random starts"
    SnafuGame.check_map(parse_map("#..\n...\n"))


def test_open_map_builds_a_snafu_map_in_memory():
    game_map = open_map(20, 10)
    assert game_map.name == "snafu_20x10"
    assert game_map.header["game"] == "snafu"
    assert (game_map.width, game_map.height) == (20, 10)
    SnafuGame.check_map(game_map)


# --- setup: random starts and headings ---------------------------------------------------------------------


def test_random_starts_and_headings_from_fixed_seeds():
    game = new_game(0)
    assert (game.board.width, game.board.height) == (15, 15)
    assert heads(game) == [(10, 12), (8, 9)]
    assert headings(game) == ("E", "E")
    game = new_game(1)
    assert heads(game) == [(0, 7), (10, 7)]
    assert headings(game) == ("W", "N")
    game = new_game(2)
    assert heads(game) == [(13, 3), (7, 12)]
    assert headings(game) == ("E", "E")


def test_starts_are_two_cells_then_two_headings_from_the_generator():
    for seed in range(20):
        rng = np.random.default_rng(seed)
        cells = rng.choice(15 * 15, size=2, replace=False)
        expected_headings = tuple("NESW"[int(h)] for h in rng.integers(4, size=2))
        game = new_game(seed)
        assert heads(game) == [(int(c) % 15, int(c) // 15) for c in cells]
        assert headings(game) == expected_headings


def test_same_seed_same_setup_and_setups_vary():
    setups = {(tuple(heads(new_game(seed))), headings(new_game(seed))) for seed in range(100)}
    assert len(setups) == 100
    assert heads(new_game(7)) == heads(new_game(7)) and headings(new_game(7)) == headings(new_game(7))
    all_headings = {h for seed in range(100) for h in headings(new_game(seed))}
    assert all_headings == {"N", "E", "S", "W"}


def test_the_board_comes_from_the_map_or_the_size_option():
    big = resolve_map("snafu_30x30")
    game = new_game(0, big)
    assert (game.board.width, game.board.height) == (30, 30)
    assert heads(game) == [(14, 25), (3, 19)]
    game = new_game(0, big, size="20x10")
    assert (game.board.width, game.board.height) == (20, 10)
    assert heads(game) == [(9, 8), (7, 6)]
    walled = parse_map("; game = snafu\n#.\n.#\n")
    game = new_game(0, walled)
    assert sorted(heads(game)) == [(0, 1), (1, 0)]


def test_random_starts_avoid_walls():
    game_map = parse_map("; game = snafu\n#####\n#...#\n#####\n")
    for seed in range(30):
        assert set(heads(new_game(seed, game_map))) <= {(1, 1), (2, 1), (3, 1)}


# --- relative actions ----------------------------------------------------------------------------------------


def test_legal_actions_are_straight_left_right():
    game = new_game(0)
    assert tuple(game.legal_actions(0)) == ("straight", "left", "right")
    for action in ("straight", "left", "right"):
        assert game.is_legal(1, action)
    for action in ("N", "E", "back", "Straight", "", None, 0, ("left",), object()):
        assert game.is_legal(0, action) is False


@pytest.mark.parametrize(("heading", "action", "expected_heading", "expected_cell"), [
    ("N", "straight", "N", (3, 2)), ("N", "left", "W", (2, 3)), ("N", "right", "E", (4, 3)),
    ("E", "straight", "E", (4, 3)), ("E", "left", "N", (3, 2)), ("E", "right", "S", (3, 4)),
    ("S", "straight", "S", (3, 4)), ("S", "left", "E", (4, 3)), ("S", "right", "W", (2, 3)),
    ("W", "straight", "W", (2, 3)), ("W", "left", "S", (3, 4)), ("W", "right", "N", (3, 2)),
])
def test_each_relative_action_from_each_heading(heading, action, expected_heading, expected_cell):
    game = SnafuGame.from_position(OPEN_7, [(3, 3), (0, 6)], [heading, "N"])
    game.apply({0: action, 1: "straight"})
    assert game.result is None
    assert heads(game) == [expected_cell, (0, 5)]
    assert headings(game) == (expected_heading, "N")
    assert game.board.cells[game.board.index(3, 3)] == TRAIL + 0


def test_turning_around_takes_two_rights_and_never_reverses():
    game = SnafuGame.from_position(OPEN_7, [(3, 3), (0, 6)], ["N", "N"])
    for action, cell in (("right", (4, 3)), ("right", (4, 4)), ("right", (3, 4))):
        game.apply({0: action, 1: "straight"})
        assert heads(game)[0] == cell
    game.apply({0: "right", 1: "right"})  # north, into its own first cell
    assert game.result is not None
    assert game.result.reason == "player 1 moved into its own trail; player 2 wins"
    assert game.result.ranks == (2, 1)


# --- the end: walls, the edge, ties -------------------------------------------------------------------------


def test_leaving_the_board_loses():
    game = SnafuGame.from_position(OPEN_7, [(0, 3), (5, 5)], ["W", "N"])
    game.apply({0: "straight", 1: "straight"})
    assert game.result is not None
    assert game.result.ranks == (2, 1)
    assert game.result.reason == "player 1 moved off the board; player 2 wins"


def test_each_edge_is_deadly():
    for start, heading in (((3, 0), "N"), ((6, 3), "E"), ((3, 6), "S"), ((0, 3), "W")):
        game = SnafuGame.from_position(OPEN_7, [(2, 2), start], ["S", heading])
        game.apply({0: "straight", 1: "straight"})
        assert game.result is not None and game.result.ranks == (1, 2)
        assert game.result.reason == "player 2 moved off the board; player 1 wins"


def test_a_start_facing_the_edge_survives_by_turning():
    game = new_game(1)  # seat 0 starts on (0, 7) facing west
    game.apply({0: "right", 1: "straight"})
    assert game.result is None
    assert heads(game) == [(0, 6), (10, 6)]


def test_hitting_a_wall_or_a_trail_loses():
    game = SnafuGame.from_position(("..#....", *OPEN_7[1:]), [(1, 0), (4, 4)], ["E", "W"])
    game.apply({0: "straight", 1: "straight"})
    assert game.result.reason == "player 1 moved into a wall; player 2 wins"
    game = SnafuGame.from_position(OPEN_7, [(1, 1), (3, 3)], ["E", "N"])
    game.apply({0: "straight", 1: "straight"})  # to (2, 1) and (3, 2)
    game.apply({0: "straight", 1: "left"})  # to (3, 1) and (2, 2)
    assert game.result is None
    game.apply({0: "straight", 1: "right"})  # seat 1 turns north into (2, 1), seat 0's trail
    assert game.result.reason == "player 2 moved into player 1's trail; player 1 wins"
    assert game.result.ranks == (1, 2)


def test_both_leaving_the_board_in_the_same_turn_is_a_tie():
    game = SnafuGame.from_position(OPEN_7, [(0, 0), (6, 6)], ["N", "E"])
    game.apply({0: "straight", 1: "straight"})
    assert game.result is not None
    assert game.result.ranks == (1, 1)
    assert game.result.is_draw
    assert game.result.reason == "player 1 moved off the board; player 2 moved off the board; draw"


def test_entering_the_same_cell_is_a_tie():
    game = SnafuGame.from_position(OPEN_7, [(1, 3), (5, 3)], ["E", "W"])
    game.apply({0: "straight", 1: "straight"})
    assert game.result is None
    game.apply({0: "straight", 1: "straight"})
    assert game.result.ranks == (1, 1)
    assert game.result.reason == "players 1 and 2 moved into the same cell; draw"
    assert game.board.cells[game.board.index(3, 3)] == EMPTY


def test_meeting_head_on_is_a_tie():
    game = SnafuGame.from_position(OPEN_7, [(2, 3), (3, 3)], ["E", "W"])
    game.apply({0: "straight", 1: "straight"})
    assert game.result.ranks == (1, 1)
    assert game.result.reason == "player 1 moved into player 2's head; player 2 moved into player 1's head; draw"


# --- observation ----------------------------------------------------------------------------------------------


def test_observation_speaks_in_relative_actions():
    game = SnafuGame.from_position(("##.....", *OPEN_7[1:]), [(0, 1), (4, 4)], ["N", "S"])
    obs = game.observe(0)
    assert isinstance(obs, SnafuObservation)
    assert obs.heading == "N" and obs.headings == ("N", "S")
    assert obs.legal_moves() == ["straight", "left", "right"]
    assert obs.safe_moves() == ["right"]  # a wall ahead, the edge to the left
    stride = obs.stride
    assert dict(obs.delta) == {"straight": -stride, "left": -1, "right": 1}
    assert obs.xy(obs.head + obs.delta["right"]) == (1, 1)
    assert obs.walls_around("right") == 2  # the wall north of (1, 1) and its own head west
    assert obs.position == (0, 1) and obs.opponents() == [(4, 4)]
    assert obs.moves == "simultaneous"
    other = game.observe(1)
    assert other.heading == "S"
    assert dict(other.delta) == {"straight": stride, "left": 1, "right": -1}
    assert other.safe_moves() == ["straight", "left", "right"]


def test_observation_follows_the_new_heading_and_pickles():
    game = SnafuGame.from_position(OPEN_7, [(3, 3), (0, 6)], ["N", "N"])
    game.apply({0: "right", 1: "straight"})
    obs = game.observe(0)
    assert obs.heading == "E"
    assert dict(obs.delta) == {"straight": 1, "left": -obs.stride, "right": obs.stride}
    copy = pickle.loads(pickle.dumps(obs))
    assert type(copy) is SnafuObservation
    assert (copy.heading, copy.headings, copy.cells, dict(copy.delta)) == \
        (obs.heading, obs.headings, obs.cells, dict(obs.delta))
    assert copy.safe_moves() == obs.safe_moves() == ["straight", "left", "right"]
    with pytest.raises(TypeError):
        obs.delta["straight"] = 0  # type: ignore[index]


def test_render_shows_heads_and_trails():
    game = SnafuGame.from_position(("...", "..#", "..."), [(0, 0), (2, 2)], ["E", "N"])
    game.apply({0: "straight", 1: "left"})
    assert game.render() == "a1.\n..#\n.2b"


# --- the mindless bot ------------------------------------------------------------------------------------------


@pytest.fixture
def mindless(shipped_registry):
    def make(seed: int = 0):
        player = shipped_registry.bot("mindless").cls()
        player.rng = random.Random(seed)
        player.start(MatchInfo("snafu", 0, 2, None, {}, None, seed, 1.0))
        return player

    return make


def test_mindless_goes_straight_while_nothing_is_ahead(mindless):
    game = SnafuGame.from_position(OPEN_7, [(0, 6), (6, 0)], ["N", "S"])
    player = mindless()
    for _ in range(6):
        assert player.act(game.observe(0)) == "straight"
        game.apply({0: "straight", 1: "straight"})
    assert game.result is None
    assert heads(game) == [(0, 0), (6, 6)]


def test_mindless_turns_at_random_among_the_turns_without_a_wall(mindless):
    game = SnafuGame.from_position((".#.", "...", "..."), [(1, 1), (0, 2)], ["N", "E"])  # a wall ahead
    choices = {mindless(seed).act(game.observe(0)) for seed in range(40)}
    assert choices == {"left", "right"}
    assert [mindless(seed).act(game.observe(0)) for seed in range(6)] == \
        [random.Random(seed).choice(["left", "right"]) for seed in range(6)]


def test_mindless_takes_the_only_free_turn(mindless):
    game = SnafuGame.from_position(OPEN_7, [(0, 0), (6, 6)], ["N", "S"])  # ahead and left are off the board
    assert {mindless(seed).act(game.observe(0)) for seed in range(20)} == {"right"}


def test_mindless_boxed_in_picks_any_legal_action(mindless):
    game = SnafuGame.from_position(("..",), [(1, 0), (0, 0)], ["N", "N"])
    obs = game.observe(0)
    assert obs.safe_moves() == []
    assert {mindless(seed).act(obs) for seed in range(40)} == {"straight", "left", "right"}


def test_mindless_plays_snafu_only(shipped_registry):
    assert shipped_registry.bot("mindless").games == ("snafu",)
    assert "mindless" not in [entry.name for entry in shipped_registry.bots_for("tron")]


def test_mindless_plays_a_full_game_in_snafu(shipped_registry):
    outcome = run_match("snafu", ["mindless", "mindless"], game_map="snafu_15x15", seed=2, registry=shipped_registry)
    assert outcome.failure_kinds == {}
    for turn in outcome.actions:
        assert set(turn.values()) <= {"straight", "left", "right"}


# --- matches and tournaments -------------------------------------------------------------------------------------


def test_run_match_without_a_map_uses_the_size_option(shipped_registry):
    outcome = run_match("snafu", ["floodfill", "mindless"], options={"size": "20x10"}, seed=4,
                        registry=shipped_registry)
    record = outcome.record()
    assert record["game"] == "snafu" and record["map"] is None
    assert record["options"] == {"size": "20x10"}
    assert outcome.failure_kinds == {}
    again = run_match("snafu", ["floodfill", "mindless"], options={"size": "20x10"}, seed=4,
                      registry=shipped_registry)
    assert again.actions == outcome.actions and again.ranks == outcome.ranks


@pytest.mark.parametrize("map_name", ["snafu_15x15", pytest.param("snafu_30x30", marks=pytest.mark.slow)])
def test_snafu_tournament_end_to_end(shipped_registry, shipped_config, map_name):
    assert sorted(entry.name for entry in shipped_registry.bots_for("snafu")) == SNAFU_BOTS
    # The bots that don't read the clock, so that the same seed replays the same games.
    run, outcomes = round_robin_run([str(REPO / "maps" / f"{map_name}.txt")], QUICK_SNAFU_BOTS, shipped_registry,
                                    shipped_config, games=2, seed=9)
    assert run.game is SnafuGame
    assert len(outcomes) == 20
    assert all(outcome.failure_kinds == {} for outcome in outcomes.values())
    for outcome in outcomes.values():
        assert all(set(turn) == {0, 1} for turn in outcome.actions)
    standings = run.standings()
    assert sorted(row.label for row in standings.rows) == QUICK_SNAFU_BOTS
    _, again = round_robin_run([str(REPO / "maps" / f"{map_name}.txt")], QUICK_SNAFU_BOTS, shipped_registry,
                               shipped_config, games=2, seed=9)
    assert [(o.ranks, o.actions) for _, o in sorted(again.items())] == \
        [(o.ranks, o.actions) for _, o in sorted(outcomes.items())]


def test_snafu_tournament_with_the_size_option(shipped_registry, shipped_config):
    run, outcomes = round_robin_run(["snafu_15x15"], ["floodfill", "mindless"], shipped_registry, shipped_config,
                                    games=4, seed=1, options={"size": "8x6"})
    assert len(outcomes) == 4
    for index, outcome in outcomes.items():
        assert outcome.options == {"size": "8x6"}
        game = replay_position(run.setups[index], outcome, shipped_registry)
        assert (game.board.width, game.board.height) == (8, 6)
        assert game.result is not None and game.result.ranks == outcome.ranks


def test_the_shipped_snafu_tournament_file(shipped_registry):
    tournament = plan_tournament(load_definition(REPO / "tournaments" / "snafu.toml"), shipped_registry)
    assert tournament.game is SnafuGame
    assert [game_map.name for game_map in tournament.maps] == ["snafu_15x15", "snafu_30x30"]
    assert sorted(spec.name for spec in tournament.bots) == QUICK_SNAFU_BOTS
    assert len(tournament.first_stage()) == 2 * 10 * 20
