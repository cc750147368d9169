"""Worker processes never import from the folder a command was started in: a file there named like a module
they import (``org``, which :mod:`pickle` looks for, or one a bot imports as it plays) is never loaded."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HOSTILE = """import os
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "imported-" + __name__ + "-" + str(os.getpid())), "w")
raise SystemExit("a shadow module was imported")
"""

LAZY_BOT = '''from arena import bot


@bot(name="lazy", games=("tron",))
def lazy(obs, rng):
    """Imports a module only once it plays, as a bot that loads a library on its first move does."""
    import wave  # a module nothing imported before: a wave.py beside the command would shadow it

    assert wave.Error
    return rng.choice(obs.safe_moves() or obs.legal_moves())
'''


def shadowed_folder(tmp_path, *names):
    folder = tmp_path / "here"
    folder.mkdir()
    for name in names:
        (folder / f"{name}.py").write_text(HOSTILE)
    return folder


def run(command, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_spawned_processes_ignore_an_org_py_beside_the_command(tmp_path):
    # Started as the `arena` script is (guarded as the installed script is, so a spawned process that runs it
    # again as __mp_main__ does not start the command again): sys.path[0] is the script's folder, so only what
    # the workers do counts.
    launcher = tmp_path / "bin" / "arena_script.py"
    launcher.parent.mkdir()
    launcher.write_text("import sys\nfrom arena.__main__ import main\n"
                        "if __name__ == '__main__':\n    sys.exit(main())\n")
    here = shadowed_folder(tmp_path, "org")
    done = run([sys.executable, str(launcher), "tournament", "empty_room", "-b", "random,wallhugger", "-n", "2",
                "-w", "2", "--isolate", "--db", str(tmp_path / "arena.db"), "-f", "json"], here)
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in here.iterdir()) == ["org.py"]  # nothing imported it
    standings = json.loads(done.stdout)
    rows = standings["standings"] if isinstance(standings, dict) else standings
    assert "crash" not in done.stderr and "Failures" not in done.stderr, done.stderr
    assert len(rows) == 2


@pytest.mark.slow
def test_forked_workers_of_python_m_arena_ignore_a_module_beside_the_command(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "lazy.py").write_text(LAZY_BOT)
    here = shadowed_folder(tmp_path, "wave")
    done = run([sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "lazy,random", "-n", "4", "-w", "2",
                "--bots-dir", str(bots), "--db", str(tmp_path / "arena.db")], here)
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in here.iterdir()) == ["wave.py"]
    assert "Failures" not in done.stderr + done.stdout, done.stdout


@pytest.mark.slow
def test_a_spawned_worker_pool_ignores_modules_beside_the_command(tmp_path):
    here = shadowed_folder(tmp_path, "org")
    script = """
import threading
from arena.core.bot import BotSpec
from arena.core.maps import resolve_map
from arena.play.executors import WorkerPool, start_method
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig

threading.Thread(target=threading.Event().wait, daemon=True).start()  # as in a server: workers are spawned
assert start_method() == "spawn"
game_map = resolve_map("empty_room")
setups = [MatchSetup("tron", (BotSpec("random"), BotSpec("wallhugger")), game_map, dict(game_map.header), seed, 1.0,
                     seed) for seed in range(6)]
with WorkerPool(2, PluginConfig()) as pool:
    outcomes = list(pool.run(setups))
print(sorted(o.index for o in outcomes), sum(bool(o.failure_kinds) for o in outcomes))
"""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "pool.py").write_text(script)
    done = run([sys.executable, str(tmp_path / "bin" / "pool.py")], here)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "[0, 1, 2, 3, 4, 5] 0"
    assert sorted(path.name for path in here.iterdir()) == ["org.py"]
