"""What holds without the sandbox: hard memory limits, manifest commands kept to the bot's folder, and the
plain word that a bot is trusted code."""

import os
import subprocess
import sys

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.plugins.programs.manifest import read_manifest
from arena.storage.store import Store
from tests.cli_runner import CliRunner


def test_memory_limit_is_hard_so_a_bot_cannot_raise_it():
    code = ("import resource; from arena.play.limits import apply_memory_limit; apply_memory_limit(1 << 30)\n"
            "print(resource.getrlimit(resource.RLIMIT_AS))\n"
            "try:\n    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\nexcept ValueError:\n"
            "    print('refused')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == [f"({1 << 30}, {1 << 30})", "refused"]


@pytest.mark.parametrize("command", ['["../../../../bin/sh", "-c", "id"]', '["/bin/sh"]', '"sub/../../x"'])
def test_manifest_command_outside_the_folder_is_refused(tmp_path, command):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(f'name = "escaper"\ngames = ["tron"]\ncommand = {command}\n')
    with pytest.raises(ArenaError, match="outside the bot's folder"):
        read_manifest(folder / "arena-bot.toml")


@pytest.mark.parametrize("command", ['["python3", "bot.py"]', '["./bot"]', '["bin/run"]'])
def test_manifest_command_in_the_folder_or_on_path_is_kept(tmp_path, command):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(f'name = "fine"\ngames = ["tron"]\ncommand = {command}\n')
    assert read_manifest(folder / "arena-bot.toml").name == "fine"


def test_bots_listing_says_bots_are_trusted_code():
    result = CliRunner().invoke(app, ["bots"])
    assert result.exit_code == 0
    assert "without --sandbox a bot runs with your rights" in " ".join(result.output.split())


MARK = f"86398.{os.getpid():07d}"
"""The argument of the sleep the bot below leaves behind; it names this test process, so that no other test run on
the machine (parallel workers too) is taken for ours."""

DOUBLE_FORK = '''
import json, os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "@MARK@"])
    os._exit(0)
os.wait()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif message["type"] == "turn":
        print(json.dumps({"action": message["legal"][0]}), flush=True)
'''.replace("@MARK@", MARK)


def _sleepers() -> list[str]:
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as cmdline:
                    if MARK.encode() in cmdline.read().split(b"\0"):
                        found.append(entry.name)
            except OSError:
                continue
    return found


def test_a_setsid_double_fork_does_not_outlive_its_game_and_is_counted(tmp_path):
    folder = tmp_path / "bots" / "escaper"
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(DOUBLE_FORK)
    (folder / "arena-bot.toml").write_text('name = "escaper"\ngames = ["tron"]\ncommand = ["python3", "bot.py"]\n')
    db = tmp_path / "arena.db"
    result = CliRunner().invoke(app, ["tournament", "empty_room", "--bots", "escaper,random", "--games", "1",
                                      "--workers", "1", "--db", str(db), "--bots-dir", str(tmp_path / "bots")])
    assert result.exit_code == 0, result.output
    assert _sleepers() == []
    with Store(db) as store:
        games = list(store.games())
    for game in games:
        seat = game.labels.index("escaper")
        assert "1 process(es) it started outlived its game and were killed" in game.record["stderr"][str(seat)]
