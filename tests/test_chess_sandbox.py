"""UCI engines confined in the sandbox: Stockfish by an ``exec`` spec, and a folder engine whose manifest runs
``stockfish`` from the sandbox's PATH (Debian's, with /usr/games), play a stored tournament under ``--sandbox``."""

import json
from pathlib import Path

import chess
import pytest

from arena.cli.main import app
from tests.cli_runner import CliRunner
from tests.needs import program_path

runner = CliRunner()


@pytest.mark.slow
@pytest.mark.needs("bwrap", "stockfish")
def test_stockfish_and_a_folder_engine_play_confined(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "engines" / "sfwrap"
    folder.mkdir(parents=True)
    (folder / "arena-bot.toml").write_text('name = "sfwrap"\ngames = ["chess"]\nprotocol = "uci"\n'
                                           'command = ["sh", "engine.sh"]\n[options]\nThreads = 1\n')
    db = tmp_path / "c.db"
    # the engine's own check that the sandbox hides the organiser's files, then the engine from /usr/games
    (folder / "engine.sh").write_text(f'if [ -e "{db}" ]; then echo "the database is visible" >&2; '
                                      'else echo "the database is hidden" >&2; fi\nexec stockfish\n')
    sf = f"exec:command={program_path('stockfish')},protocol=uci,name=sf,option.Threads=1"
    result = runner.invoke(app, ["tournament", "chess_start", "--bots-dir", "engines", "-b", f"sfwrap,{sf}",
                                 "-n", "1", "-w", "1", "--time-control", "1+0.01", "-o", "max_moves=3",
                                 "--db", str(db), "--sandbox"])
    assert result.exit_code == 0, result.output
    exported = runner.invoke(app, ["export", "1", "--db", str(db), "--jsonl", "-"])
    games = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(games) == 2
    for record in games:
        assert record["failures"] == [] and record["result"]["reason"] == "adjudicated draw: 3 moves played"
        assert all(score is not None and set(score) <= {"cp", "mate"} for score in record["chess"]["scores"])
        board = chess.Board()
        for move in record["chess"]["uci"]:
            board.push_uci(move)
        assert board.fen() == record["chess"]["fen"] and len(record["chess"]["uci"]) == 6
        wrapped = next(p["seat"] for p in record["players"] if p["bot"] == "sfwrap")
        assert record["stderr"] == {str(wrapped): "the database is hidden\n"}
    assert {tuple(p["bot"] for p in record["players"]) for record in games} == {("sfwrap", "sf"), ("sf", "sfwrap")}
    assert Path(db).exists()
