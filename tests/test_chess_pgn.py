"""Chess runs as PGN (``arena export RUN --pgn FILE``): written with python-chess and read back by it, tags,
moves, book moves, evaluations, clocks, results and terminations exactly as the stored records say."""

import io
import json
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import numpy as np
import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.core.game import Result
from arena.core.records import build_record
from arena.games.chess.game import ChessGame
from arena.games.chess.pgn import PgnSource, pgn_game
from arena.storage.store import Store
from tests.cli_runner import CliRunner

ECHO = Path(__file__).parent / "data" / "uci" / "echo_engine.py"
START = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
runner = CliRunner()


def read_all(text):
    stream, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert game.errors == []
        games.append(game)
    return games


def test_a_stored_chess_run_exports_as_pgn_that_reads_back_exactly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("opening.txt").write_text(f"; game = chess\nfen {START} moves e7e5 g1f3\n")
    echo = f"exec:command={sys.executable} {ECHO},protocol=uci,name=echo"
    played = runner.invoke(app, ["tournament", "opening.txt", "-b", f"{echo},chess_random", "-n", "2", "-w", "1",
                                 "--time-control", "10+0.1", "-o", "max_moves=3", "--db", "c.db"])
    assert played.exit_code == 0, played.output
    exported = runner.invoke(app, ["export", "1", "--db", "c.db", "--pgn", "games.pgn"])
    assert exported.exit_code == 0 and "2 games written to games.pgn as PGN" in exported.output
    to_stdout = runner.invoke(app, ["export", "1", "--db", "c.db", "--pgn", "-"])
    assert to_stdout.exit_code == 0 and to_stdout.stdout == Path("games.pgn").read_text()
    with Store(Path("c.db"), read_only=True) as store:
        run = store.run(1)
        rows = list(store.games(run_id=1))
        dates = store.finish_times(1)
    games = read_all(Path("games.pgn").read_text())
    assert len(games) == len(rows) == 2
    for game, row in zip(games, rows, strict=True):
        record = row.record
        names = [f"{p['bot']} {p['version']}" for p in record["players"]]
        assert dict(game.headers) == {
            "Event": run.name, "Site": "?", "Date": dates[row.idx][:10].replace("-", "."),
            "Round": str(row.idx + 1), "White": names[0], "Black": names[1], "Result": "1/2-1/2",
            "SetUp": "1", "FEN": START, "PlyCount": "8", "TimeControl": "10+0.1", "Termination": "adjudication",
            "ArenaGame": f"1:{row.idx}"}
        nodes = list(game.mainline())
        assert [node.move.uci() for node in nodes] == record["chess"]["uci"]
        assert [node.san() for node in nodes] == record["chess"]["san"]
        assert [node.comment for node in nodes[:2]] == ["book", "book"]
        echo_seat = next(p["seat"] for p in record["players"] if p["bot"] == "echo")
        for node, turn, score, clock in zip(nodes[2:], record["turns"], record["chess"]["scores"], record["clocks"],
                                            strict=True):
            ((seat, _),) = turn.items()
            mover = chess.WHITE if seat == "0" else chess.BLACK
            if int(seat) == echo_seat:
                assert node.eval() == chess.engine.PovScore(chess.engine.Cp(score["cp"]), mover)
            else:
                assert score is None and node.eval() is None
            assert node.clock() == pytest.approx(clock[seat], abs=1e-3)
        assert nodes[-1].comment.endswith(record["result"]["reason"])
        assert game.end().board().fen() == record["chess"]["fen"]


def record_of(moves, result=None, failures=(), players=("a", "b")):
    game = ChessGame(None, ChessGame.resolve_options({}), np.random.default_rng(0))
    for move in moves:
        game.apply({game.to_act()[0]: move})
    result = result or game.result or Result((1, 1), "")
    return build_record(game="chess", options={}, game_map=None, seed=1,
                        players=[{"seat": i, "bot": bot, "version": "v1"} for i, bot in enumerate(players)],
                        turns=[{i % 2: move} for i, move in enumerate(moves)], result=result,
                        failures=failures)


def test_results_and_terminations_follow_the_record():
    mate = pgn_game(PgnSource(record_of(["f2f3", "e7e5 cp 20", "g2g4", "d8h4 mate 1"]), event="ev", round="3"))
    back = chess.pgn.read_game(io.StringIO(str(mate)))
    assert (back.headers["Result"], back.headers["Termination"], back.headers["Date"]) == ("0-1", "normal",
                                                                                           "????.??.??")
    assert "FEN" not in back.headers and back.headers["Round"] == "3" and back.headers["Event"] == "ev"
    assert [node.san() for node in back.mainline()] == ["f3", "e5", "g4", "Qh4#"]
    assert back.end().eval() == chess.engine.PovScore(chess.engine.Mate(1), chess.BLACK)
    assert back.end().comment.endswith("checkmate: black (player 2) wins")
    failed = {"seat": 1, "kind": "illegal", "detail": "answered 'bestmove a1a1'"}
    for kind, termination in (("illegal", "illegal move"), ("timeout", "time forfeit"), ("crash", "abandoned")):
        record = record_of(["e2e4"], Result((1, 2), "player 2 (b) failed"), [{**failed, "kind": kind}])
        written = chess.pgn.read_game(io.StringIO(str(pgn_game(PgnSource(record)))))
        assert (written.headers["Result"], written.headers["Termination"]) == ("1-0", termination)
    tampered = record_of(["e2e4"])
    tampered["turns"][0] = {"0": "e2e5"}
    with pytest.raises(ArenaError, match=r"^the record: turn 1 \(\{'0': 'e2e5'\}\) is not a legal move in "):
        pgn_game(PgnSource(tampered))


def test_pgn_export_of_a_run_of_another_game_is_one_line(tmp_path):
    db = tmp_path / "t.db"
    played = runner.invoke(app, ["tournament", "center_block", "-b", "random,chaser", "-n", "1", "-w", "1",
                                 "--db", str(db)])
    assert played.exit_code == 0, played.output
    refused = runner.invoke(app, ["export", "1", "--db", str(db), "--pgn", str(tmp_path / "x.pgn")])
    assert refused.exit_code == 2
    assert refused.output.strip() == "error: run 1 is a tron run: --pgn exports chess games only"
    assert not (tmp_path / "x.pgn").exists()
    records = runner.invoke(app, ["export", "1", "--db", str(db), "--jsonl", "-"]).stdout.splitlines()
    assert json.loads(records[0])["game"] == "tron"
