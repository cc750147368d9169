"""Chess openings (--openings): EPD and PGN books read into start positions, each opening played as a pair of
games with the colours reversed, kept with the run so a resumed run plays the same ones; compare's SPRT pairs
are the two games of an opening; real engines (Ethereal, GNU Chess) play through uci from a book."""

import json
import sys
from pathlib import Path

import chess
import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.games.chess.openings import read_openings
from arena.plugins.registry import PluginConfig, load_registry
from arena.storage.store import Store
from arena.tournament.definition import TournamentDefinition, load_definition
from arena.tournament.openings import OpeningsChoice
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import open_run
from arena.tournament.sprt import plan_compare
from tests.cli_runner import CliRunner
from tests.helpers import REPO
from tests.needs import program_path

ECHO = Path(__file__).parent / "data" / "uci" / "echo_engine.py"
runner = CliRunner()

EPD = """# three openings
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id "Open Game";

rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 2; c0 "Closed Game";
"""
PGN = """[Event "book"]
[Opening "Ruy Lopez"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *

[Event "endgame"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. Kd2 Kd7 *
"""


@pytest.fixture(scope="module")
def registry():
    return load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))


def echo(name, *options):
    return ",".join([f"exec:command={sys.executable} {ECHO},protocol=uci,name={name}",
                     *(f"option.{option}" for option in options)])


def test_epd_and_pgn_books_are_read_as_start_positions(tmp_path):
    (tmp_path / "book.epd").write_text(EPD)
    (tmp_path / "book.pgn").write_text(PGN)
    epd = read_openings(tmp_path / "book.epd")
    assert [(m.name, m.header.get("title"), m.rows) for m in epd] == [
        ("book:2", "Open Game", ("fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",)),
        ("book:4", None, ("fen rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",)),
        ("book:5", "Closed Game", ("fen rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",))]
    pgn = read_openings(tmp_path / "book.pgn", plies=3)
    assert [(m.name, m.header.get("title"), m.rows) for m in pgn] == [
        ("book:1", "Ruy Lopez", ("startpos moves e2e4 e7e5 g1f3",)),
        ("book:6", None, ("fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e1d2 e8d7",))]
    shipped = read_openings(REPO / "openings" / "chess-starters.epd")
    assert len(shipped) == 41 and shipped[0].header["title"] == "Ruy Lopez, Morphy Defence"
    for game_map in shipped:  # every one a legal position a few moves into a game, white or black to move
        board = chess.Board(game_map.rows[0].removeprefix("fen "))
        assert board.is_valid() and 5 <= board.fullmove_number <= 7 and not board.is_check()
    toml = tmp_path / "t.toml"
    toml.write_text('openings = "book.pgn"\nopenings_plies = 2\n')
    definition = load_definition(toml)
    assert (definition.maps, definition.openings, definition.openings_plies, definition.games) == (
        (), str(tmp_path / "book.pgn"), 2, 2)


def test_bad_books_and_flags_are_one_line_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.epd").write_text(EPD + "not a position at all\n")
    Path("bad.pgn").write_text(PGN + '\n[Event "x"]\n\n1. d4 d5 2. Ke3 *\n')
    Path("empty.pgn").write_text("hello\n")
    Path("book.txt").write_text("e4\n")
    for arguments, message in (
        (["--openings", "bad.epd"], "bad.epd:6: not an EPD position: "),
        (["--openings", "bad.pgn"], "bad.pgn:11: not a readable PGN game: illegal san: 'Ke3' in "),
        (["--openings", "empty.pgn"], "empty.pgn:1: not an opening: a PGN game with neither moves nor a FEN tag"),
        (["--openings", "book.txt"], "book.txt: chess reads openings from .epd or .pgn files"),
        (["--openings", "nowhere.epd"], "nowhere.epd: no such openings file (shipped: chess-starters.epd)"),
        (["--openings", "chess-starters", "--openings-count", "42"],
         "--openings-count 42: chess-starters holds only 41 openings"),
        (["--openings", "chess-starters", "--openings-order", "shuffled"],
         "--openings-order 'shuffled' is not one of: sequential, random"),
        (["chess_start", "--openings-plies", "4"],
         "--openings-order, --openings-plies and --openings-count go with --openings"),
        (["center_block", "--openings", "chess-starters"], "--openings: game 'tron' reads no openings files"),
    ):
        result = runner.invoke(app, ["tournament", "-b", "chess_random", "--db", "x.db", *arguments])
        assert result.exit_code == 2, (arguments, result.output)
        assert result.output.startswith(f"error: {message}") and result.output.count("\n") == 1, result.output
    assert not Path("x.db").exists()


def test_each_opening_is_a_pair_with_colours_reversed_and_a_resumed_run_keeps_them(registry, tmp_path,
                                                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("book.epd").write_text(EPD)
    bots = ("chess_random", echo("echo"))
    definition = TournamentDefinition((), bots=bots, games=2, options={"max_moves": "2"}, time_limit=5.0,
                                      openings="book.epd", openings_order="random", seed=4)
    with Store("c.db") as store:  # a run stored, and stopped before its first game
        opened = open_run(store, plan_tournament(definition, registry))
    assert opened.run.plan.total_games() == 6
    Path("book.epd").write_text("8/8/8/8/8/8/8/8 w - -\n")  # the book changes; the run keeps its openings
    result = runner.invoke(app, ["tournament", "--resume", "1", "--db", "c.db", "-w", "1"])
    assert result.exit_code == 0, result.output
    runs = runner.invoke(app, ["runs", "--db", "c.db", "-f", "csv"]).output
    assert "3 openings of book.epd: chess_random, echo" in runs
    assert runner.invoke(app, ["export", "1", "--db", "c.db", "--jsonl", "g.jsonl"]).exit_code == 0
    games = [json.loads(line) for line in Path("g.jsonl").read_text().splitlines()]
    played = [(g["map"]["name"], g["seed"], [p["bot"] for p in g["players"]], g["chess"]["start_fen"],
               len(g["chess"]["uci"]), g["failures"]) for g in games]
    fens = {"book:2": "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
            "book:4": "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "book:5": "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2"}
    order = [name for name, *_ in played[::2]]
    assert order == ["book:5", "book:2", "book:4"]  # shuffled by the seed, the same every time
    for first, second in zip(played[::2], played[1::2], strict=True):  # a pair: one opening and seed, seats swapped
        assert first[0] == second[0] and first[1] == second[1] and first[2] == second[2][::-1]
        assert first[3] == second[3] == fens[first[0]] and first[4:] == second[4:] == (4, [])
    assert [p[2] for p in played[:2]] == [["chess_random", "echo"], ["echo", "chess_random"]]


def test_compare_plays_each_opening_as_a_pair_with_uci_engines(registry, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("book.pgn").write_text(PGN)
    new, old = echo("steady"), echo("gloomy", "Mode=resign")  # gloomy reports -900 cp after every move
    plan = plan_compare(new, old, None, registry, time_limit=2.0, seed=1,
                        openings=OpeningsChoice("book.pgn", plies=2), options={"resign_movecount": "1"})
    pairs = [plan.pair(k) for k in range(3)]
    assert [(a.game_map.rows, b.game_map.rows) for a, b in pairs] == [  # the openings in turn, each a pair
        (("startpos moves e2e4 e7e5",),) * 2, (("fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e1d2 e8d7",),) * 2,
        (("startpos moves e2e4 e7e5",),) * 2]
    for a, b in pairs:
        assert a.seed == b.seed and a.options == b.options and a.options["resign_movecount"] == "1"
        assert [s.label for s in a.bots] == ["steady", "gloomy"] and [s.label for s in b.bots] == ["gloomy", "steady"]
    result = runner.invoke(app, ["compare", new, old, "--sprt", "0,10", "--openings", "book.pgn",
                                 "--openings-plies", "2", "--max-pairs", "2", "-w", "1", "--time-limit", "2",
                                 "-o", "resign_movecount=1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "steady vs gloomy on 2 openings of book.pgn: H0 +0 Elo, H1 +10 Elo, alpha 0.05, beta 0.05"
    assert "pair 2 (4 games)  W-D-L 4-0-0" in result.output
    assert "pairs: LL 0, LD 0, DD+WL 0, WD 0, WW 2" in result.output
    with pytest.raises(ArenaError, match="--openings: game 'tron' reads no openings files"):
        plan_compare("chess_random", "chess_random", "center_block", registry, time_limit=1.0, seed=0,
                     openings=OpeningsChoice("book.pgn"))


@pytest.mark.slow
@pytest.mark.needs("ethereal-chess", "gnuchess")
def test_ethereal_and_gnuchess_play_a_book_through_uci(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ethereal = f"exec:command={program_path('ethereal-chess')},protocol=uci,name=ethereal,option.Threads=1"
    gnuchess = f"exec:command={program_path('gnuchess')} --uci,protocol=uci,name=gnuchess,option.OwnBook=false"
    result = runner.invoke(app, ["tournament", "-b", f"{ethereal},{gnuchess}", "--openings", "chess-starters",
                                 "--openings-count", "1", "--time-control", "0.3+0.01", "-o", "max_moves=8",
                                 "-w", "1", "--db", "e.db"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["export", "1", "--db", "e.db", "--jsonl", "g.jsonl"]).exit_code == 0
    games = [json.loads(line) for line in Path("g.jsonl").read_text().splitlines()]
    assert [[p["bot"] for p in g["players"]] for g in games] == [["ethereal", "gnuchess"], ["gnuchess", "ethereal"]]
    assert games[0]["seed"] == games[1]["seed"] and games[0]["map"] == games[1]["map"]
    for record in games:
        assert record["failures"] == [] and record["map"]["name"] == "chess-starters:4"
        board = chess.Board(record["chess"]["start_fen"])
        assert board.fen() == "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"
        for turn in record["turns"]:  # every move legal, and each carrying the engine's evaluation
            (action,) = turn.values()
            move, kind, _ = action.split(" ")
            assert chess.Move.from_uci(move) in board.legal_moves and kind in ("cp", "mate")
            board.push_uci(move)
        assert record["chess"]["fen"] == board.fen()
        assert record["result"]["reason"] == "adjudicated draw: 8 moves played" or board.is_game_over()
    rated = runner.invoke(app, ["ratings", "--db", "e.db", "-f", "csv"])
    assert rated.exit_code == 0 and "ethereal" in rated.output and "gnuchess" in rated.output


def test_game_chess_without_maps_or_openings_plays_the_standard_start(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["tournament", "--game", "chess", "-b", f"{echo('e')},chess_random", "--games", "1",
                                 "-o", "max_moves=6", "--seed", "3"])
    assert result.exit_code == 0, result.output
    with Store(tmp_path / "arena.db") as store:
        games = list(store.games())
    assert games and all(game.record["chess"]["start_fen"] == chess.STARTING_FEN for game in games)
    assert [len(game.record["chess"]["uci"]) for game in games] == [12] * len(games)
