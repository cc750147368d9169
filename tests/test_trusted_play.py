"""What holds without the sandbox: hard memory limits, manifest commands kept to the bot's folder, and the
plain word that a bot is trusted code."""

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.plugins.programs.manifest import read_manifest


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
