"""A chess game's replay page, driven in a real headless Chromium: the 8x8 board of named squares holds exactly
the pieces python-chess has after each move, the move list is in SAN with the evaluations, and it steps like
every game's page."""

import chess
import numpy as np

from arena.core.maps import parse_map
from arena.core.records import build_record
from arena.games.chess.game import ChessGame
from arena.report.replay_page import build_replay_html
from tests.test_replay_viewer import Viewer

START = "; game = chess\nstartpos moves e2e4 e7e5\n"
MOVES = ["g1f3 cp 30", "b8c6", "f1c4 cp 25", "f8c5 cp -20", "c2c3 mate 9", "g8f6"]
GLYPHS = {"k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}


def chess_record():
    game_map = parse_map(START, name="open_game")
    game = ChessGame(game_map, ChessGame.resolve_options({"max_moves": "3"}), np.random.default_rng(0))
    for move in MOVES:
        game.apply({game.to_act()[0]: move})
    assert game.result is not None
    return build_record(game="chess", options={"max_moves": "3"}, game_map=game_map, seed=0,
                        players=[{"seat": 0, "bot": "white_bot", "version": "1"},
                                 {"seat": 1, "bot": "black_bot", "version": "2"}],
                        turns=[{i % 2: move} for i, move in enumerate(MOVES)], result=game.result)


def expected_squares(plies):
    """What each occupied square must show after the book moves and ``plies`` of MOVES: ``w♞``, ``b♟``."""
    board = chess.Board()
    for move in ["e2e4", "e7e5", *(m.split()[0] for m in MOVES[:plies])]:
        board.push_uci(move)
    return {chess.square_name(square): ("w" if piece.color else "b") + GLYPHS[piece.symbol().lower()]
            for square, piece in board.piece_map().items()}


def shown_squares(page):
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll("#squares [data-square]")]
        .filter(s => s.dataset.piece).map(s => [s.dataset.square, s.dataset.piece]))""")


def test_the_chess_page_draws_the_board_move_by_move_with_san_and_evaluations(tmp_path, shipped_registry,
                                                                              browser_page):
    record = chess_record()
    path = tmp_path / "chess.html"
    path.write_text(build_replay_html(record, shipped_registry))
    viewer = Viewer(browser_page, path)
    page = viewer.page
    assert page.locator("#squares [data-square]").count() == 64
    assert page.locator("#board").is_hidden()
    assert shown_squares(page) == expected_squares(0)
    assert page.locator("#status").inner_text() == "white to move; book moves: e4 e5"
    assert page.locator("#movelist li").all_inner_texts() == [
        "2. Nf3 +0.30", "2... Nc6", "3. Bc4 +0.25", "3... Bc5 +0.20", "4. c3 #9", "4... Nf6"]
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert viewer.turn() == "turn 3 / 6"
    assert shown_squares(page) == expected_squares(3)
    assert shown_squares(page)["c4"] == "w♝" and "f1" not in shown_squares(page)
    assert page.locator("#movelist li.current").inner_text() == "3. Bc4 +0.25"
    assert page.locator("[data-square=f1]").evaluate("s => getComputedStyle(s).backgroundColor") == "rgb(205, 210, 106)"
    page.locator("#movelist li", has_text="4. c3").locator("a").click()
    assert viewer.turn() == "turn 5 / 6" and shown_squares(page) == expected_squares(5)
    page.keyboard.press("End")
    assert shown_squares(page) == expected_squares(6)
    assert page.locator("#outcome").inner_text() == "Turn 6: adjudicated draw: 3 moves played"
    assert page.locator("li.player").nth(0).inner_text().startswith("player 1: white_bot")
    assert viewer.errors == [] and set(viewer.requests) == {viewer.uri}
