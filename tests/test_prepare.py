"""``Bot.prepare``: once per process, before the first game, off the move clock; its failures lose games."""

import json
import sqlite3

import pytest

from arena import run_match
from arena.cli.main import app
from arena.plugins.registry import PluginConfig, load_registry
from tests.cli_runner import CliRunner
from tests.helpers import line_of, write_module

runner = CliRunner()

BOTS = """
    import time

    from arena import Bot


    class Patient(Bot):
        \"\"\"Needs a third of a second to get ready, then plays the first safe move at once.\"\"\"

        name = "patient"
        games = ("tron",)
        prepared = 0

        @classmethod
        def prepare(cls):
            time.sleep(0.3)
            cls.prepared += 1

        def act(self, obs):
            safe = obs.safe_moves()
            return safe[0] if safe else "N"


    class Unready(Bot):
        \"\"\"Can't get ready: its model is missing.\"\"\"

        name = "unready"
        games = ("tron",)

        @classmethod
        def prepare(cls):
            raise RuntimeError("no model file")

        def act(self, obs):
            return "N"
"""


def registry_with_bots(tmp_path):
    write_module(tmp_path / "bots", "prepared.py", BOTS)
    return load_registry(PluginConfig(bot_dirs=(str(tmp_path / "bots"),), use_cwd_bots=False, use_env_path=False))


def test_prepare_runs_once_per_process_and_not_on_the_move_clock(tmp_path):
    registry = registry_with_bots(tmp_path)
    for seed in (1, 2):
        outcome = run_match("tron", ["patient", "floodfill"], game_map="empty_room", seed=seed, time_limit=0.05,
                            registry=registry)
        assert outcome.failure_kinds == {}  # 0.3 s to prepare, 0.05 s a move, and no timeout
        assert len(outcome.actions) > 5
    assert registry.bots["patient"].cls.prepared == 1


def test_a_bot_whose_prepare_raises_loses_with_the_reason(tmp_path):
    outcome = run_match("tron", ["unready", "floodfill"], game_map="empty_room", seed=1,
                        registry=registry_with_bots(tmp_path))
    assert outcome.failure_kinds == {0: "crash"}
    path = tmp_path / "bots" / "prepared.py"
    line = line_of(path, 'raise RuntimeError("no model file")')
    assert outcome.reason == (f"player 1 (unready) raised RuntimeError in prepare(): no model file "
                              f"({path}:{line}, in prepare)")


@pytest.mark.slow
def test_an_isolated_bot_whose_prepare_raises_loses_with_the_reason(tmp_path, monkeypatch):
    registry_with_bots(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["tournament", "empty_room", "-b", "unready,floodfill", "-n", "2", "--isolate",
                                 "--bots-dir", str(tmp_path / "bots"), "--db", "prep.db", "-f", "json"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "prep.db") as conn:
        rows = [(json.loads(seats), reason) for seats, reason in conn.execute("SELECT seats, reason FROM games")]
    assert len(rows) == 2
    for seats, reason in rows:
        seat = [entry["label"] for entry in seats].index("unready")
        # the same words as in one process: the location is relative to the working directory, tmp_path here
        line = line_of(tmp_path / "bots" / "prepared.py", 'raise RuntimeError("no model file")')
        assert reason == (f"player {seat + 1} (unready) raised RuntimeError in prepare(): no model file "
                          f"(bots/prepared.py:{line}, in prepare)")
