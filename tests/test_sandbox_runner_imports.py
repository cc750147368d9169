"""What a sandboxed Python bot's runner imports for a game: every game starts a new interpreter in the sandbox,
so each module it need not import is time taken from every game (see docs/performance.md)."""

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.core.game import MatchInfo
from arena.core.maps import resolve_map
from arena.games.tron import TronGame
from arena.play.referee import bot_rng
from arena.play.sandbox.runner import runner_command
from arena.play.sandbox.wire_format import pack

GAME_PACKAGES = ["arena.games.tron", "arena.games.catmouse", "arena.games.pawnrace"]

PROBE = """
import json, sys
from arena.play.sandbox.runner import _set_up_logging, load_bot
_set_up_logging()
from arena.play.sandbox.wire_format import unpack
args = json.loads(sys.argv[-1])
player = load_bot(args)(**args["params"])
info, obs = unpack(args["info"]), unpack(args["obs"])
player.rng = info.rng
player.start(info)
action = player.act(obs)
print(json.dumps({"action": action, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_a_game_package_gives_each_name_it_declares_from_its_module(package):
    module = importlib.import_module(package)
    tree = ast.parse(Path(module.__file__).read_text())
    checked = next(node for node in tree.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    declared = {alias.name: node.module for node in checked.body for alias in node.names}
    assert sorted(declared) == sorted(module.__all__) == [name for name in dir(module) if not name.startswith("_")]
    for name, defined_in in declared.items():
        assert getattr(module, name) is getattr(importlib.import_module(defined_in), name)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'Nothing'"):
        module.Nothing  # noqa: B018


def test_a_sandboxed_tron_bot_imports_neither_numpy_nor_the_game_nor_the_referees_side(tmp_path):
    bot_file = tmp_path / "hugger.py"
    bot_file.write_text("from arena import bot\n\n\n@bot(name='hugger', games=('tron',))\n"
                        "def hugger(obs, rng):\n    return obs.safe_moves()[0]\n")
    game = TronGame(resolve_map("empty_room"), {}, np.random.default_rng(0))
    info = MatchInfo("tron", 0, 2, None, {}, "empty_room", 0, 1.0, bot_rng(0, 0))
    args = {"path": str(bot_file), "name": "hugger", "params": {}, "info": pack(info), "obs": pack(game.observe(0))}
    root = str(Path(__file__).resolve().parents[1])
    flags = runner_command(sys.executable, root, args)[:4]  # the runner's own interpreter and flags
    assert flags == [sys.executable, "-I", "-B", "-c"]
    command = [*flags, f"import sys; sys.path.insert(0, {root!r})\n{PROBE}", json.dumps(args)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["action"] == game.observe(0).safe_moves()[0]
    loaded = set(answer["modules"])
    assert {"arena.games.tron.observation", "arena.games.tron.rules"} <= loaded
    assert not loaded & {"numpy", "arena.games.tron.game", "arena.games.tron.render", "arena.play.limits",
                         "arena.play.bot_traceback", "arena.play.sandbox.wire", "arena.plugins.programs.protocols",
                         "arena.plugins.registry", "arena.play.referee", "logging"}
