"""Tournaments on a real Ray cluster started on this machine (loopback): the same results as locally, bots from
drop-in directories, the hard limits, version checks and a node that dies mid-run."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arena.core.errors import ArenaError
from arena.core.maps import resolve_map
from arena.play.limits import Limits
from arena.play.ray_executor import RayExecutor
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig, load_registry
from tests.test_limits import EXPECTED, check_verdicts, play_gauntlet

HEAD_PORT = 6479
ADDRESS = f"127.0.0.1:{HEAD_PORT}"


def ray_command(*args):
    return subprocess.run([str(Path(sys.executable).parent / "ray"), *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})


@pytest.fixture(scope="module")
def cluster():
    """A head node with two CPUs, shared by the tests of this module."""
    started = ray_command("start", "--head", f"--port={HEAD_PORT}", "--num-cpus=2", "--node-ip-address=127.0.0.1",
                          "--include-dashboard=false", "--disable-usage-stats")
    assert started.returncode == 0, started.stderr
    yield ADDRESS
    ray_command("stop", "--force")


def tournament(tmp_path, name, *extra):
    db = tmp_path / f"{name}.db"
    result = subprocess.run([sys.executable, "-m", "arena", "tournament", "empty_room", "--bots-dir",
                             str(tmp_path / "bots"), "-b", "random,wallhugger,floodfill,chamber:depth=4,northbound",
                             "-n", "2", "--seed", "5", "-f", "json", "--db", str(db), *extra],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), stored_games(db)


def stored_games(db):
    """Each stored game: its place in the schedule, its seats' labels, ranks and reason (database ids aside:
    they follow the order games finish in)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT idx, seats, ranks, reason FROM games ORDER BY idx").fetchall()
    return [(idx, [seat["label"] for seat in json.loads(seats)], ranks, reason) for idx, seats, ranks, reason in rows]


def drop_in_bot(tmp_path):
    (tmp_path / "bots").mkdir(exist_ok=True)
    (tmp_path / "bots" / "northbound.py").write_text(
        "from arena import Bot\n\n\nclass Northbound(Bot):\n    \"\"\"Goes north while it can, then east.\"\"\"\n\n"
        "    name = 'northbound'\n    games = ('tron',)\n\n    def act(self, obs):\n"
        "        return 'N' if 'N' in obs.safe_moves() else 'E'\n")


def test_the_same_seed_gives_the_same_games_on_ray_as_locally(cluster, tmp_path):
    drop_in_bot(tmp_path)  # it exists only here: the cluster gets it with the games
    on_ray, ray_rows = tournament(tmp_path, "ray", "--executor", "ray", "--address", cluster)
    local, local_rows = tournament(tmp_path, "local", "-w", "2")
    assert on_ray == local
    assert ray_rows == local_rows and len(ray_rows) == 20


def test_a_ladder_round_and_an_sprt_match_play_the_same_on_ray(cluster, tmp_path):
    def arena(*args):
        result = subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        return result.stdout

    # every default bot, search bots too: a long time limit keeps their node budgets, not the guard, in charge
    ladder = ["ladder", "empty_room", "--rounds", "2", "--seed", "3", "--time-limit", "5", "-f", "json"]
    on_ray = arena(*ladder, "--db", "ray.db", "--executor", "ray", "--address", cluster)
    assert on_ray == arena(*ladder, "--db", "here.db")
    sprt = ["compare", "floodfill", "random", "--sprt", "0,200", "--max-pairs", "6", "--seed", "4"]
    on_ray = arena(*sprt, "--executor", "ray", "--address", cluster)
    assert on_ray == arena(*sprt) and "pair 6 (12 games)" in on_ray


def test_every_kind_of_misbehaviour_loses_only_its_own_games_on_ray(cluster, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    standings, reasons = play_gauntlet([*EXPECTED, "noisy"], "--executor", "ray", "--address", cluster)
    assert len(reasons) == 2 * (len(EXPECTED) + 1)
    # the same verdicts as locally, word for word: a crash's traceback names the bot's file on this machine
    check_verdicts(EXPECTED, standings, [r for r in reasons if "noisy" not in {s["label"] for s in r[0]}])


def test_a_node_with_other_bot_versions_is_refused_in_one_line(cluster):
    config = PluginConfig(use_cwd_bots=False, use_env_path=False)
    registry = load_registry(config)
    entry = registry.bots["floodfill"]
    registry.bots["floodfill"] = replace(entry, version="0000000")  # as if this machine had edited the bot
    setups = [MatchSetup("tron", (registry.spec("floodfill"), registry.spec("random")), resolve_map("empty_room"),
                         {}, 1, 1.0, 0)]
    with RayExecutor(1, config, Limits(), registry, cluster) as executor:
        with pytest.raises(ArenaError, match=r"^bot 'floodfill': the cluster node \S+ has version \w+, but version "
                                             r"0000000 was scheduled$"):
            list(executor.run(setups))


def test_a_node_that_dies_mid_run_costs_only_its_games_in_progress(cluster, tmp_path):
    """A second node joins; its processes are killed while the tournament runs; every game is stored once."""
    joined = ray_command("start", f"--address={cluster}", "--num-cpus=2", "--node-ip-address=127.0.0.1",
                         "--node-manager-port=6481", "--object-manager-port=6482", "--disable-usage-stats")
    assert joined.returncode == 0, joined.stderr
    drop_in_bot(tmp_path)
    db = tmp_path / "faulty.db"
    command = [sys.executable, "-m", "arena", "tournament", "empty_room", "--bots-dir", str(tmp_path / "bots"),
               "-b", "random,wallhugger,floodfill,chamber:depth=4,northbound", "-n", "4", "--seed", "5", "-f", "json",
               "--db", str(db), "--executor", "ray", "--address", cluster]
    running = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if db.exists():
            with sqlite3.connect(db) as conn:
                try:
                    if conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 4:
                        break
                except sqlite3.OperationalError:
                    pass
    assert running.poll() is None  # still playing
    assert kill_node("--object_manager_port=6482") == 1
    stdout, stderr = running.communicate(timeout=300)
    assert running.returncode == 0, stderr
    stored = stored_games(db)
    assert [row[0] for row in stored] == list(range(40))  # every game, once
    undisturbed, undisturbed_rows = tournament_rows(tmp_path, command)
    assert json.loads(stdout) == undisturbed and stored == undisturbed_rows


def tournament_rows(tmp_path, command):
    db = tmp_path / "undisturbed.db"
    local = [part for part in command[:command.index("--db")]] + ["--db", str(db), "-w", "2"]
    result = subprocess.run(local, capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), stored_games(db)


def kill_node(marker):
    """Kill the raylet whose command line holds ``marker`` and every process it started; how many died."""
    listing = subprocess.run(["ps", "-ww", "-eo", "pid=,ppid=,args="], capture_output=True, text=True).stdout
    processes = [line.split(None, 2) for line in listing.splitlines() if len(line.split(None, 2)) == 3]
    raylets = {int(pid) for pid, _, args in processes if "raylet" in args and marker in args}
    doomed, grew = set(raylets), True
    while grew:
        children = {int(pid) for pid, ppid, _ in processes if int(ppid) in doomed} - doomed
        doomed |= children
        grew = bool(children)
    for pid in doomed:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return len(raylets)


def test_an_unknown_executor_is_refused_before_anything_is_stored(tmp_path):
    result = subprocess.run([sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "random,wallhugger",
                             "--executor", "dask", "--db", str(tmp_path / "a.db")], capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == "error: unknown executor 'dask': choose from local, ray"
    assert not (tmp_path / "a.db").exists()


def test_an_experiments_repetitions_come_out_the_same_on_ray(cluster, tmp_path):
    def experiment(name, *extra):
        results = tmp_path / f"{name}.jsonl"
        done = subprocess.run([sys.executable, "-m", "arena", "experiment", "snafu-scaling", "--strategy", "PR:t=3",
                               "--strategy", "WR:t=12", "--reps", "3", "--train-games", "30", "--test-games", "10",
                               "--seed", "2", "--results", str(results), "-f", "json", *extra],
                              capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        lines = results.read_text().splitlines()
        return json.loads(done.stdout), lines[0], sorted(lines[1:])

    on_ray = experiment("ray", "--executor", "ray", "--address", cluster)
    assert on_ray == experiment("local", "--workers", "2")
    assert len(on_ray[2]) == 6 and len(on_ray[0]) == 2


def test_an_executor_without_a_task_pool_is_refused_for_experiments():
    registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    registry.executors["games-only"] = registry.executors["local"]
    with pytest.raises(ArenaError, match=r"^the games-only executor plays games only; experiments run on local, "
                                         r"ray$"):
        registry.task_pool("games-only")
    with pytest.raises(ArenaError, match=r"^unknown executor 'nowhere'"):
        registry.task_pool("nowhere")
