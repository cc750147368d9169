from functools import cache

import numpy as np
import pytest

from arena.core.maps import parse_map
from arena.engines.catmouse.parity import parity_table
from arena.engines.catmouse.solver import cached_solution, perfect_moves, solve, start_result
from arena.games.catmouse import solver
from arena.games.catmouse.layouts import layout_from_map
from arena.games.catmouse.rules import CAT, MOUSE, open_layout
from arena.play.referee import run_match


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "cache"))
    solver.clear_memory()
    yield
    solver.clear_memory()


def brute_force(layout, horizon):
    """Moves to a forced catch by plain minimax search, up to ``horizon`` moves (None beyond)."""

    @cache
    def within(cat, mouse, side, plies):
        if plies == 0:
            return False
        if side == CAT:
            return any(target == mouse or within(target, mouse, MOUSE, plies - 1)
                       for _, target in layout.moves_from[cat])
        return all(target == cat or within(cat, target, CAT, plies - 1) for _, target in layout.moves_from[mouse])

    def value(cat, mouse, side):
        return next((plies for plies in range(1, horizon + 1) if within(cat, mouse, side, plies)), None)

    return value


@pytest.mark.parametrize("rows", [
    ["C..", "...", "..M"],
    ["C...", "...M"],
    ["C.#.", "....", "#..M"],
    ["..M", ".#.", "C.."],
])
def test_solver_agrees_with_plain_minimax_on_every_position(rows):
    layout = layout_from_map(parse_map("\n".join(rows) + "\n"))
    solution = solve(layout)
    value = brute_force(layout, 40)
    free = [cell for cell in range(layout.cells) if not layout.blocked[cell]]
    for cat in free:
        for mouse in free:
            if cat != mouse:
                for side in (CAT, MOUSE):
                    assert solution.moves_to_catch(cat, mouse, side) == value(cat, mouse, side), (cat, mouse, side)


def test_parity_table_matches_the_colour_rule_and_shows_where_the_article_is_wrong():
    table = parity_table(2, 8)
    cells = table.cells
    assert cells["cat"][0] == ["mouse", "cat 3", "mouse", "cat 7", "mouse", "cat 11", "mouse"]
    assert cells["cat"][1][1] == "mouse*"  # 3x3 with the cat first: the article says the cat wins
    assert cells["mouse"][0][:2] == ["cat 2", "mouse*"]
    assert cells["cat"][6][5] == "cat 23"  # the article's 8x7 board, cat first
    assert cells["mouse"][3][3] == "cat 14"
    assert table.summary().startswith("The article's claim holds on 65 of 98 boards")
    assert "holds on 98 of 98" in table.summary() and table.summary().endswith("mouse moves): 0.")
    assert "| rows \\ columns | 2 | 3 | 4 | 5 | 6 | 7 | 8 |" in table.markdown()


def test_move_limit_can_turn_a_won_game_into_an_escape():
    layout = open_layout(8, 7)
    assert start_result(layout, CAT, None) == ("cat", 23)
    assert start_result(layout, CAT, 12) == ("cat", 23)  # the catch comes before the mouse's 12th move
    assert start_result(layout, CAT, 11) == ("mouse", 23)
    assert start_result(open_layout(8, 8), CAT, None) == ("mouse", None)


def test_solutions_are_cached_on_disk(tmp_path):
    layout = open_layout(6, 5)
    first = cached_solution(layout)
    files = list((tmp_path / "cache" / "catmouse").glob("solution-*.npz"))
    assert len(files) == 1
    solver.clear_memory()
    again = cached_solution(layout)
    assert again is not first and np.array_equal(again.cat_to_move, first.cat_to_move)
    files[0].write_bytes(b"not a numpy file")
    solver.clear_memory()
    repaired = cached_solution(layout)
    assert np.array_equal(repaired.mouse_to_move, first.mouse_to_move)
    assert files[0].read_bytes()[:2] == b"PK"


def test_perfect_moves_and_perfect_play():
    layout = open_layout(3, 3)
    solution = solve(layout)
    # Cat on the centre, mouse in a corner, mouse to move: both its moves lead next to the cat.
    assert perfect_moves(solution, layout, 4, 0, MOUSE) == ["D", "R"]
    assert perfect_moves(solution, layout, 4, 1, CAT) == ["U"]
    outcome = run_match("catmouse", ["perfect", "perfect"], game_map="catmouse_8x7", seed=4)
    assert outcome.ranks == (1, 2) and outcome.turns == 23
    outcome = run_match("catmouse", ["perfect", "perfect"], game_map="catmouse_8x8", seed=4)
    assert outcome.ranks == (2, 1) and outcome.reason == "the mouse evaded the cat for 32 moves of its own"
