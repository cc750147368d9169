"""Chess: the rules and adjudication on exact positions, the conformance kit, and engines over the uci protocol
(a scripted UCI engine for the protocol's every line, Stockfish for a real match)."""

import json
import re
import sys
from pathlib import Path

import chess
import numpy as np
import pytest

from arena.cli.main import app
from arena.core.clock import time_control
from arena.core.maps import parse_map
from arena.games.chess.game import ChessGame
from arena.games.chess.position import STANDARD_FEN
from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, load_registry
from arena.testing.game_checks import check_game
from tests.cli_runner import CliRunner
from tests.needs import program_path

ECHO = Path(__file__).parent / "data" / "uci" / "echo_engine.py"
runner = CliRunner()


def position(text):
    return parse_map(f"; game = chess\n{text}\n", name="test")


def play(text, moves, **options):
    game = ChessGame(position(text), ChessGame.resolve_options(options), np.random.default_rng(0))
    for move in moves:
        assert game.result is None and game.is_legal(game.to_act()[0], move), move
        game.apply({game.to_act()[0]: move})
    return game


@pytest.fixture(scope="module")
def registry():
    return load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))


def echo(name, *options):
    spec = f"exec:command={sys.executable} {ECHO},protocol=uci,name={name}"
    return ",".join([spec, *(f"option.{option}" for option in options)])


def test_the_rules_end_games_as_chess_does():
    fools = play("startpos", ["f2f3", "e7e5", "g2g4", "d8h4"])
    assert fools.result.ranks == (2, 1) and fools.result.reason == "checkmate: black (player 2) wins"
    assert fools.record_extras()["chess"] == {
        "start_fen": chess.STARTING_FEN, "book": 0, "uci": ["f2f3", "e7e5", "g2g4", "d8h4"],
        "san": ["f3", "e5", "g4", "Qh4#"], "fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "scores": [None, None, None, None]}
    assert play("fen 7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", ["f1f7"]).result.reason == "stalemate"
    assert play("fen 7k/8/6K1/8/8/8/8/6n1 w - - 0 1", []).result.reason == "insufficient material"
    assert play("fen 7k/8/6K1/8/8/8/8/6R1 w - - 99 80", ["g1g2"]).result.reason == "fifty-move rule"
    knights = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    assert play("startpos", knights).result.reason == "threefold repetition"
    # book moves from the map count: the game starts after them, their SAN in the record
    booked = play("startpos moves e2e4 e7e5", ["g1f3"], max_moves="1")
    assert booked.record_extras()["chess"]["san"] == ["e4", "e5", "Nf3"] and booked.result is None
    assert booked.observe(1).uci_position() == "startpos moves e2e4 e7e5 g1f3"
    assert play("startpos moves e2e4 e7e5", ["g1f3", "b8c6"], max_moves="1").result.reason == \
        "adjudicated draw: 1 moves played"


def test_adjudication_reads_the_evaluations_in_the_moves():
    resign = dict(resign_movecount="2", resign_score="500")
    # white is -500 or worse twice in a row: it loses; one move without an evaluation starts its count again
    game = play("startpos", ["e2e4 cp -500", "e7e5 cp 20", "d2d4", "d7d5", "g1f3 cp -700", "b8c6", "f1b5 mate -3"],
                **resign)
    assert game.result.ranks == (2, 1)
    assert game.result.reason == ("adjudicated: white's evaluation was -500 cp or worse for 2 moves: black "
                                  "(player 2) wins")
    assert game.record_extras()["chess"]["scores"][-1] == {"mate": -3}
    draw = dict(draw_movenumber="2", draw_movecount="2", draw_score="10")
    moves = ["e2e4 cp 10", "e7e5 cp -10", "g1f3 cp 0", "b8c6 cp 5"]
    assert play("startpos", moves, **draw).result.reason == "adjudicated draw: evaluations within 10 cp for 2 moves"
    assert play("startpos", moves[:3], **draw).result is None
    assert play("startpos", ["e2e4 cp 10", "e7e5 cp -11", *moves[2:]], **draw).result is None
    game = play("startpos", [])
    for bad in ("e2e5", "e2e4 cp", "e2e4 cp x", "e2e4 pawn 3", "e2e4  cp 3", 42, None, "e2e4 cp 99999999"):
        assert not game.is_legal(0, bad), bad
    assert not game.is_legal(1, "e7e5")


def test_bad_maps_and_options_are_one_line_errors():
    from arena.core.errors import ArenaError, MapError

    for text, message in (("startpos moves e2e5", "e2e5 is not a legal move in"),
                          ("fen 8/8/8/8/8/8/8/8 w - - 0 1", "is not a legal position (no white king"),
                          ("fen nonsense", "bad FEN 'nonsense'")):
        with pytest.raises(MapError, match=re.escape(message)):
            ChessGame.check_map(position(text))
    with pytest.raises(ArenaError, match="option max_moves = '-3' is not a whole number from 0"):
        ChessGame.resolve_options({"max_moves": "-3"})
    assert ChessGame.resolve_options({"max_moves": "250"})["max_moves"] == "250"


def test_chess_passes_the_conformance_kit():
    report = check_game(ChessGame, games=1)
    assert report.ok, report.render()


def test_an_engine_gets_its_options_the_position_and_both_clocks(registry, tmp_path):
    log = tmp_path / "engine.log"
    spec = echo("echo", "Skill Level=3", "Hash=16", f"Log={log}")
    outcome = run_match("chess", [spec, "chess_random"], game_map="chess_start", seed=3, registry=registry,
                        options={"max_moves": "3"}, time_limit=None,
                        time_control=time_control("10+0.1"))
    assert outcome.failures == {} and outcome.reason == "adjudicated draw: 3 moves played"
    record = outcome.record()
    white = [turn["0"] for turn in record["turns"] if "0" in turn]
    # the echo engine plays the first legal move in UCI order, scoring it by the moves played so far
    assert white == ["a2a3 cp 0", "a1a2 cp 2", "a2a1 cp 4"]
    assert record["chess"]["scores"][0::2] == [{"cp": 0}, {"cp": 2}, {"cp": 4}]
    lines = log.read_text().splitlines()
    assert lines[:6] == ["uci", "setoption name Skill Level value 3", "setoption name Hash value 16",
                         f"setoption name Log value {log}", "ucinewgame", "isready"]
    black = record["chess"]["uci"][1::2]
    assert lines[6] == "position startpos" and lines[8] == f"position startpos moves a2a3 {black[0]}"
    go = [line.split() for line in lines if line.startswith("go")]
    assert len(go) == 3 and all(words[0:2] == ["go", "wtime"] and words[3] == "btime" and
                                words[5:] == ["winc", "100", "binc", "100"] for words in go)
    assert go[0][4] == "10000"  # black's clock, untouched before its first move
    assert 10000 < int(go[1][4]) <= 10100  # black moved once: its bank less its move, plus the increment
    assert 9900 < int(go[0][2]) <= 10000  # white's own clock, as it stands while it thinks
    assert lines[-1] == "quit"


def test_a_fixed_time_a_move_is_go_movetime(registry, tmp_path):
    log = tmp_path / "engine.log"
    outcome = run_match("chess", [echo("echo", f"Log={log}"), "chess_random"], game_map="chess_start", seed=3,
                        registry=registry, options={"max_moves": "1"}, time_limit=0.4)
    assert outcome.failures == {}
    assert [line for line in log.read_text().splitlines() if line.startswith("go")] == ["go movetime 360"]


@pytest.mark.parametrize(("mode", "kind", "detail"), [
    ("illegal", "illegal", "answered 'bestmove a1a1': a1a1 is not a legal move in "
                           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 on move 1"),
    ("hang", "timeout", "did not answer within 0.35 s (the time limit and its grace), and was killed on move 1"),
    ("garbage", "timeout", "did not answer within 0.35 s (the time limit and its grace); its last other line was "
                           "'this is not uci', and was killed on move 1"),
    ("crash", "crash", "exited (exit status 3) on move 1"),
])
def test_an_engine_that_misbehaves_loses_with_the_reason(registry, mode, kind, detail):
    outcome = run_match("chess", [echo("bad", f"Mode={mode}"), "chess_random"], game_map="chess_start",
                        registry=registry, time_limit=0.3)
    assert outcome.failure_kinds == {0: kind} and outcome.ranks == (2, 1)
    assert outcome.reason == f"player 1 (bad) {detail}"


def test_engine_specs_are_checked_before_any_game(registry):
    from arena.core.errors import ArenaError

    for spec, message in ((echo("e", "Hash=1").replace("protocol=uci", "protocol=arena-json"),
                           "the arena-json protocol takes no option.NAME=VALUE parameters"),
                          (echo("e", " value =1"), "an engine option needs a name")):
        with pytest.raises(ArenaError, match=message):
            registry.spec(spec)


@pytest.mark.slow
@pytest.mark.needs("stockfish")
def test_stockfish_plays_a_stored_rated_tournament(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sf = f"exec:command={program_path('stockfish')},protocol=uci,name=sf,option.Skill Level=0,option.Threads=1"
    result = runner.invoke(app, ["tournament", "chess_start", "-b", f"{sf},chess_random", "-n", "2", "-w", "1",
                                 "--time-control", "0.3+0.01", "-o", "max_moves=6", "--db", "c.db"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["export", "1", "--db", "c.db", "--jsonl", "games.jsonl"]).exit_code == 0
    games = [json.loads(line) for line in Path("games.jsonl").read_text().splitlines()]
    assert len(games) == 2
    for record in games:
        assert record["failures"] == []
        board = chess.Board()
        seat_of_sf = next(p["seat"] for p in record["players"] if p["bot"] == "sf")
        for turn in record["turns"]:
            ((seat, action),) = turn.items()
            move, *score = action.split(" ")
            assert chess.Move.from_uci(move) in board.legal_moves
            board.push_uci(move)
            assert (score[:1] in (["cp"], ["mate"])) == (int(seat) == seat_of_sf)
        assert record["chess"]["fen"] == board.fen()
    assert {tuple(p["bot"] for p in record["players"]) for record in games} == {("sf", "chess_random"),
                                                                               ("chess_random", "sf")}
    assert "run 1 stored in c.db" in result.output
    rated = runner.invoke(app, ["ratings", "--db", "c.db", "-f", "csv"])
    assert rated.exit_code == 0 and "sf" in rated.output and "chess_random" in rated.output


def test_the_start_position_written_out_is_python_chess_own():
    assert STANDARD_FEN == chess.STARTING_FEN
