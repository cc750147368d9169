"""What a manifest's words can reach in the sandbox: its own folder and the system, never a path it names outside
its folder, whether in its ``command`` or its ``build``, in a tournament or a league.

The thief answers its first turn with what it read from the path it names (or ``unreadable`` and why), so the
game's record shows exactly what it could see.
"""

import json
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.league.facade import League
from arena.storage.codec import record_json
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module
from tests.league_helpers import play_in_process

pytestmark = pytest.mark.needs("bwrap")

SECRET = "league-seed-5e1f0c"
THIEF = """
import sys
try:
    seen = open(sys.argv[1]).read().strip()
except OSError as exc:
    seen = "unreadable " + type(exc).__name__
sys.stdin.readline()
print('{"type": "ready"}', flush=True)
sys.stdin.readline()
print(seen, flush=True)
sys.stdin.readline()
"""
BLOCKED = "answered 'unreadable FileNotFoundError'"


def thief_folder(folder: Path, secret: Path, build: list[str] | None = None) -> Path:
    """A manifest bot whose command (and build, if given) names ``secret``, a file outside its folder."""
    manifest = {"name": "thief", "games": ["tron"], "command": ["python3", "-c", THIEF, str(secret)]}
    lines = [f"{key} = {json.dumps(value)}" for key, value in manifest.items()]
    if build is not None:
        lines.append(f"build = {json.dumps(build)}")
    write_module(folder, "arena-bot.toml", "\n".join(lines) + "\n")
    return folder


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "private" / "arena.db"
    path.parent.mkdir()
    path.write_text(SECRET)
    path.chmod(0o644)  # readable by anyone who can reach it, as a league's database is
    return path


def stored_games(db: Path) -> list[str]:
    """Every stored game's record, as JSON text."""
    with Store(db) as store:
        rows = store.conn.execute("SELECT record FROM games ORDER BY id").fetchall()
    return [record_json(row[0]) for row in rows]


@pytest.mark.slow
def test_a_tournament_manifest_command_cannot_read_a_file_it_names_outside_its_folder(tmp_path, secret):
    thief_folder(tmp_path / "bots" / "thief", secret)
    db = tmp_path / "runs.db"
    result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--sandbox",
                                      "--bots-dir", str(tmp_path / "bots"), "--bots", "thief,wallhugger",
                                      "--games", "1", "--workers", "1", "--time-limit", "5", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output
    games = stored_games(db)
    assert len(games) == 2 and all(BLOCKED in game and SECRET not in game for game in games), games


@pytest.mark.slow
def test_a_tournament_build_cannot_copy_a_file_it_names_outside_its_folder(tmp_path, secret):
    steal = ["python3", "-c", "import shutil, sys; shutil.copy(sys.argv[1], 'stolen.txt')", str(secret)]
    folder = thief_folder(tmp_path / "bots" / "thief", secret, build=steal)
    result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--sandbox",
                                      "--bots-dir", str(tmp_path / "bots"), "--bots", "thief,wallhugger,random",
                                      "--games", "1", "--workers", "1", "--db", str(tmp_path / "runs.db")])
    assert result.exit_code == 0, result.output
    assert "bot thief left out: its build failed:" in result.output
    assert "FileNotFoundError" in result.output and SECRET not in result.output
    assert not (folder / "stolen.txt").exists()


@pytest.mark.slow
def test_a_league_submission_cannot_read_a_file_it_names_outside_its_folder(tmp_path, secret):
    league, _ = League.create(tmp_path / "league", "tron", ["empty_room"], seed=3)
    with league:
        alice = league.authenticate(league.add_team("alice"))
        bob = league.authenticate(league.add_team("bob"))
        thief = league.submit(alice, thief_folder(tmp_path / "submitted", secret))
        assert thief.status == "ready", thief.build_log
        league.submit(bob, write_module(tmp_path / "b", "hugger.py", (REPO / "bots" / "wallhugger.py").read_text()))
        stored = play_in_process(league, 2)
        assert len(stored) == 2
        records = [json.dumps(league.game_record(game)) for game in stored]
    assert len(records) == 2 and all(BLOCKED in record and SECRET not in record for record in records), records


@pytest.mark.slow
def test_a_league_build_cannot_copy_a_file_it_names_outside_its_folder(tmp_path, secret):
    steal = ["python3", "-c", "import shutil, sys; shutil.copy(sys.argv[1], 'stolen.txt')", str(secret)]
    league, _ = League.create(tmp_path / "league", "tron", ["empty_room"], seed=3)
    with league:
        alice = league.authenticate(league.add_team("alice"))
        version = league.submit(alice, thief_folder(tmp_path / "submitted", secret, build=steal))
    assert version.status == "failed" and "FileNotFoundError" in version.build_log, version.build_log
    assert SECRET not in version.build_log

