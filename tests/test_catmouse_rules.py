import pickle

import numpy as np
import pytest

from arena.core.errors import ArenaError, MapError
from arena.core.maps import parse_map, resolve_map
from arena.games.catmouse.game import CatMouseGame
from arena.games.catmouse.layouts import layout_from_map, layout_rows, open_map
from arena.games.catmouse.rules import CAT, MOUSE, GameState, open_layout


def game_map(text, name="board"):
    return parse_map("; game = catmouse\n" + text, name=name)


def test_default_board_and_starts():
    game = CatMouseGame(None, {}, np.random.default_rng(0))
    assert (game.layout.height, game.layout.width) == (8, 7)
    assert game.render() == "\n".join(["......M"] + ["......."] * 6 + ["C......"])
    assert game.to_act() == (0,) and game.role_of(0) == "cat" and game.role_of(1) == "mouse"
    assert game.legal_actions(0) == ("U", "R") and game.legal_actions(1) == ()


def test_map_starts_default_to_the_corners_and_obstacles_are_read():
    layout = layout_from_map(game_map("#..\n...\n...\n"))
    assert (layout.cat_start, layout.mouse_start, layout.blocked[0]) == (6, 2, True)
    layout = layout_from_map(game_map(".#M\n.#.\nC..\n"))
    assert layout_rows(layout) == [".#M", ".#.", "C.."]
    assert layout.moves_from[layout.cat_start] == (("U", 3), ("R", 7))


@pytest.mark.parametrize(("text", "message"), [
    ("C.x\n...\n", "board:2:3: unknown character 'x' (catmouse maps use '#', '.' or ' ', and starts 'C' and 'M')"),
    ("C.C\n..M\n", "board:2:3: duplicate start 'C' (also at line 2, column 1)"),
    ("..M\n#..\n", "board:3:1: no 'C' start, and the default bottom-left corner is an obstacle"),
    ("C#M\n##.\n", "board:2:1: the cat's start has no free neighbour to move to"),
    ("C##\n###\n", "board:2:1: a catmouse board needs at least two free cells"),
])
def test_bad_maps_are_one_line_errors_naming_line_and_column(text, message):
    with pytest.raises(MapError) as error:
        CatMouseGame.check_map(game_map(text))
    assert str(error.value) == message


def test_options_resolve_and_bad_values_are_rejected():
    assert CatMouseGame.resolve_options({"game": "catmouse", "max_moves": "12"}) == \
        {"first": "cat", "max_moves": "12", "repeat": "off"}
    for value in ("0", "-3", "abc", "100001", "1.5"):
        with pytest.raises(ArenaError, match=f"option max_moves = '{value}' is not one of: auto, 100000"):
            CatMouseGame.resolve_options({"max_moves": value})
    with pytest.raises(ArenaError, match="game 'catmouse' has no option 'speed'"):
        CatMouseGame.resolve_options({"speed": "2"})


def test_the_mouse_survives_its_default_number_of_moves():
    layout = open_layout(2, 2)  # cat (0, 1), mouse (1, 0): with the cat first the mouse is never caught
    state = GameState(layout, CAT, layout.default_move_limit())
    moves = 0
    while state.winner is None:
        if state.to_move == CAT:
            state.play("U" if state.cat == 2 else "D")
        else:
            state.play("D" if state.mouse == 1 else "U")
        moves += 1
    assert (state.winner, state.ending, state.mouse_moves, moves) == (MOUSE, "evaded", 8, 16)


def test_catches_and_suicides():
    layout = open_layout(1, 3)  # C . M
    state = GameState(layout, CAT, 5)
    state.play("R")
    assert state.winner is None and state.legal_moves() == ("L",)
    state.play("L")
    assert (state.winner, state.ending, state.plies) == (CAT, "walked into the cat", 2)
    state = GameState(open_layout(1, 2), CAT, 5)
    state.play("R")
    assert (state.winner, state.ending) == (CAT, "caught")
    with pytest.raises(ValueError, match="the game is over"):
        state.play("L")


def test_repetition_counts_the_side_to_move():
    state = GameState(open_layout(3, 3), CAT, None, repeat=True)
    # cat (0, 2) and mouse (2, 0) swing back and forth; the cells repeat after two moves, the position
    # (cells and side to move) after four.
    for move, ended in (("U", False), ("L", False), ("D", False), ("R", True)):
        state.play(move)
        assert (state.winner is not None) == ended
    assert (state.winner, state.ending, state.plies) == (MOUSE, "repeated", 4)


def test_illegal_moves_are_refused():
    state = GameState(open_layout(3, 3), CAT, 10)
    for move in ("D", "L", "N", ""):
        with pytest.raises(ValueError, match="not a legal move for the cat"):
            state.play(move)
    game = CatMouseGame(open_map(3, 3), {}, np.random.default_rng(0))
    assert not game.is_legal(0, "D") and not game.is_legal(1, "U") and game.is_legal(0, "U")
    assert not game.is_legal(0, ["U"]) and not game.is_legal(0, None)


def test_game_results_and_reasons():
    game = CatMouseGame(game_map("C.M\n"), {"first": "mouse"}, np.random.default_rng(0))
    game.apply({1: "L"})
    assert game.result is None and game.to_act() == (0,)
    game.apply({0: "R"})
    assert game.result.ranks == (1, 2) and game.result.reason == "the cat caught the mouse at (1, 0) after 2 moves"
    game = CatMouseGame(game_map("C.M\n"), {"max_moves": "1"}, np.random.default_rng(0))
    game.apply({0: "R"})
    game.apply({1: "L"})
    assert game.result.ranks == (1, 2)
    assert game.result.reason == "the mouse walked into the cat at (1, 0) after 2 moves"
    game = CatMouseGame(game_map("C...M\n"), {"max_moves": "1"}, np.random.default_rng(0))
    game.apply({0: "R"})
    game.apply({1: "L"})
    assert game.result.ranks == (2, 1) and game.result.reason == "the mouse evaded the cat for 1 move of its own"
    game = CatMouseGame(open_map(3, 3), {"repeat": "on"}, np.random.default_rng(0))
    for seat, move in ((0, "U"), (1, "L"), (0, "D"), (1, "R")):
        game.apply({seat: move})
    assert game.result.ranks == (2, 1)
    assert game.result.reason == ("the position repeated (cat (0, 2), mouse (2, 0), cat to move) after 4 moves: "
                                  "the mouse escapes")


def test_observation_helpers_and_pickling():
    game = CatMouseGame(game_map("..M\n.#.\nC..\n"), {}, np.random.default_rng(0))
    obs = game.observe(0)
    assert (obs.role, obs.position, obs.opponent, obs.to_move, obs.turn) == ("cat", (0, 2), (2, 0), "cat", 0)
    assert obs.legal_moves() == ["U", "R"] and not obs.is_free(1, 1) and obs.is_free(2, 1)
    assert obs.moves_from(1, 0) == [("L", (0, 0)), ("R", (2, 0))]
    assert obs.target("U") == (0, 1) and obs.max_moves == 12 and obs.repeat is False
    copy = pickle.loads(pickle.dumps(obs))
    assert (copy.cat, copy.mouse, copy.blocked, copy.legal_moves()) == (obs.cat, obs.mouse, obs.blocked, ["U", "R"])


def test_render_marks_a_caught_mouse():
    game = CatMouseGame(game_map("C.M\n"), {"first": "mouse"}, np.random.default_rng(0))
    game.apply({1: "L"})
    game.apply({0: "R"})
    assert game.render() == ".X." and "[bold bright_red]X[/]" in game.render(color=True)


def test_shipped_maps_load():
    for name, size, first in (("catmouse_8x7", (8, 7), "cat"), ("catmouse_5x5", (5, 5), "mouse"),
                              ("catmouse_15x15", (15, 15), "mouse"), ("catmouse_barn", (9, 11), "mouse")):
        shipped = resolve_map(name)
        layout = layout_from_map(shipped)
        assert (layout.height, layout.width) == size
        assert CatMouseGame.resolve_options(shipped.header)["first"] == first

