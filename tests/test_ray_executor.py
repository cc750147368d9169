"""Tournaments on a real Ray cluster started on this machine with token auth: the same results as locally, bots
from drop-in directories, the hard limits, version checks, a node that dies mid-run, and a command without the
cluster's token refused in one line.

The cluster and everything that joins it run with HOME at a temp dir that holds a stale ``~/.ray/auth_token``
(as on a machine that once started a local Ray) and with the cluster's token given as the README says
(``RAY_AUTH_MODE=token``, ``RAY_AUTH_TOKEN_PATH``): nothing reads or writes the user's ~/.ray, and the cluster is
stopped by what identifies it alone (see tests/ray_cluster.py).

One cluster, a head of two CPUs, serves the module's tests (each process running them starts its own); commands
whose environment is the module's run in this process against it, and the games they are compared with too. A
node without bubblewrap joins the module's cluster for its last two tests, a sandboxed command it refuses and a
tournament during which it dies (last, as the cluster counts a dead node's CPUs for a while)."""

import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.core.maps import resolve_map
from arena.league.facade import League
from arena.league.ladder_loop import LeagueLadder
from arena.play.executor_choice import ExecutorChoice
from arena.play.limits import Limits
from arena.play.ray_executor import RayExecutor
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig, load_registry
from tests.cli_runner import CliRunner
from tests.league_helpers import results, shipped_bot
from tests.ray_cluster import ray_cluster, stop_processes_under
from tests.verdicts import EXPECTED, check_verdicts, play_gauntlet

pytestmark = pytest.mark.slow

STALE_TOKEN = "0" * 64
"""The token a machine's ~/.ray/auth_token holds from a local Ray it once started: not the test cluster's."""


@pytest.fixture(scope="module")
def token_env(tmp_path_factory):
    """This process's environment (so every process it starts has it too) for the module's tests: HOME at a
    temp dir with a stale ~/.ray/auth_token, no Ray settings of the user's, and the test cluster's token as
    the README tells users to give it. Yields the token; checks on leaving that nothing touched HOME."""
    home = tmp_path_factory.mktemp("home")
    (home / ".ray").mkdir()
    (home / ".ray" / "auth_token").write_text(STALE_TOKEN)
    token = secrets.token_hex(32)
    token_file = tmp_path_factory.mktemp("token") / "cluster-token"
    token_file.write_text(token)
    with pytest.MonkeyPatch.context() as patch:
        for name in [name for name in os.environ if name.startswith("RAY_")]:
            patch.delenv(name)
        patch.setenv("HOME", str(home))
        patch.setenv("RAY_USAGE_STATS_ENABLED", "0")
        patch.setenv("RAY_AUTH_MODE", "token")
        patch.setenv("RAY_AUTH_TOKEN_PATH", str(token_file))
        yield token
    assert sorted(str(path.relative_to(home)) for path in home.rglob("*")) == [".ray", ".ray/auth_token"]
    assert (home / ".ray" / "auth_token").read_text() == STALE_TOKEN


@pytest.fixture(scope="module")
def ray_head(token_env):
    """A head node with two CPUs and token auth, shared by the tests of this module."""
    with ray_cluster(num_cpus=2) as cluster:
        yield cluster


@pytest.fixture
def cluster(ray_head):
    """The address of the module's cluster."""
    return ray_head.address


TOURNAMENT = ["tournament", "empty_room", "-b", "random,wallhugger,floodfill,chamber:depth=4,northbound", "--seed",
              "5", "--time-limit", "5", "-f", "json"]
"""A tournament of the drop-in bot and shipped ones; a long time limit: on a busy machine a worker starting up must
not lose a game by the clock."""


def run_tournament(tmp_path, db, *extra, env=None):
    """The tournament (``--bots-dir`` the test's ``bots``) as its own command, with ``env`` if given."""
    return subprocess.run([sys.executable, "-m", "arena", *TOURNAMENT, "--bots-dir", str(tmp_path / "bots"), "--db",
                           str(db), *extra], capture_output=True, text=True, cwd=tmp_path, env=env)


def arena_here(*args):
    """Run an arena command in this process (on the module's cluster, with the token of its environment): its
    standard output."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def without_token(**settings):
    """This environment without the cluster's token (and with ``settings``)."""
    env = {name: value for name, value in os.environ.items() if name not in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH")}
    return {**env, **settings}


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


SOURCES = "$RAY_AUTH_TOKEN, the file $RAY_AUTH_TOKEN_PATH names, or ~/.ray/auth_token"
GET_TOKEN = "`ray get-auth-token` on the head node prints the cluster's token"


@pytest.mark.parametrize(("settings", "error"), [
    ({}, f"the Ray cluster at {{address}} requires an auth token: set RAY_AUTH_MODE=token and put the cluster's "
         f"token in {SOURCES}; {GET_TOKEN}"),
    # the stale ~/.ray/auth_token of this HOME is the only token there is
    ({"RAY_AUTH_MODE": "token"}, f"the Ray cluster at {{address}} refused this machine's auth token (Ray reads it "
                                 f"from {SOURCES}, the first that is set): give it the cluster's token; {GET_TOKEN}"),
    ({"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": "{tmp}/no-token"},
     f"cannot join the Ray cluster at {{address}}: RAY_AUTH_TOKEN_PATH is set but file cannot be opened or is "
     f"empty: {{tmp}}/no-token (Ray reads it from {SOURCES}; {GET_TOKEN})"),
], ids=["no-token", "another-token", "token-file-missing"])
def test_a_command_without_the_clusters_token_is_refused_in_one_line(cluster, tmp_path, settings, error):
    drop_in_bot(tmp_path)
    env = without_token(**{name: value.format(tmp=tmp_path) for name, value in settings.items()})
    result = run_tournament(tmp_path, tmp_path / "refused.db", "--executor", "ray", "--address", cluster, env=env)
    assert result.returncode == 2 and result.stdout == ""
    *before, last = result.stderr.strip().splitlines()
    assert last == "error: " + error.format(address=cluster, tmp=tmp_path)
    assert all(line.startswith("run 1: ") for line in before), result.stderr  # progress: nothing of Ray's
    with sqlite3.connect(tmp_path / "refused.db") as conn:  # the run that could not start is not kept
        assert conn.execute("SELECT COUNT(*) FROM runs").fetchone() == (0,)


def path_without(program, folder):
    """A PATH of one folder, ``folder``, holding a link to every program on this process's PATH but ``program``:
    a machine where it is not installed."""
    folder.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if os.path.isdir(directory):
            for entry in sorted(os.listdir(directory)):
                link = folder / entry
                if entry != program and not link.is_symlink():  # the first of a name on PATH, as a shell finds it
                    link.symlink_to(Path(directory) / entry)
    assert shutil.which(program) is not None and shutil.which(program, path=str(folder)) is None
    return str(folder)


def refused_rows(db):
    """How many runs and games ``db`` holds."""
    with sqlite3.connect(db) as conn:
        return [conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ("runs", "games")]


def test_more_workers_than_the_cluster_has_cpus_are_refused_in_one_line(cluster, tmp_path):
    drop_in_bot(tmp_path)
    db = tmp_path / "crowded.db"
    result = run_tournament(tmp_path, db, "--executor", "ray", "--address", cluster, "--workers", "3")
    assert result.returncode == 2 and result.stdout == ""
    *before, last = result.stderr.strip().splitlines()
    assert last == ("error: --workers 3: the Ray cluster has 2 CPU(s) and each worker takes one; give --workers 2 "
                    "or fewer, or add nodes")
    assert all(line.startswith("run 1: ") for line in before), result.stderr
    assert refused_rows(db) == [0, 0]


SMALL_ROOM = "; title = Small room\n#######\n#1....#\n#.....#\n#.....#\n#.....#\n#....2#\n#######\n"
"""A room of 5 x 5 cells: short games, the search bots searching every move of them all the same."""


def test_a_ladder_round_and_an_sprt_match_play_the_same_on_ray(cluster, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "small_room.txt").write_text(SMALL_ROOM)
    # every default bot, search bots too: a long time limit keeps their node budgets, not the guard, in charge
    ladder = ["ladder", "small_room", "--rounds", "2", "--seed", "3", "--time-limit", "5", "-f", "json"]
    on_ray = arena_here(*ladder, "--db", "ray.db", "--executor", "ray", "--address", cluster)
    assert on_ray == arena_here(*ladder, "--db", "here.db", "-w", "1")  # one worker here: no pool to start
    assert [len(json.loads(on_ray)), stored_count("ray.db")] == [7, 12]  # 7 bots, 3 pairings twice (2 games each)
    sprt = ["compare", "floodfill", "random", "--sprt", "0,200", "--max-pairs", "3", "--seed", "4"]
    on_ray = arena_here(*sprt, "--executor", "ray", "--address", cluster)
    assert on_ray == arena_here(*sprt) and "pair 3 (6 games)" in on_ray


def stored_count(db):
    """How many games ``db`` holds."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]


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
    mismatch = r"^bot 'floodfill': the cluster node \S+ has version \w+, but version 0000000 was scheduled$"
    with RayExecutor(1, config, Limits(), registry, cluster) as executor, pytest.raises(ArenaError, match=mismatch):
        list(executor.run(setups))


def test_an_unknown_executor_is_refused_before_anything_is_stored(tmp_path):
    result = CliRunner().invoke(app, ["tournament", "empty_room", "-b", "random,wallhugger", "--executor", "dask",
                                      "--db", str(tmp_path / "a.db")])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == "error: unknown executor 'dask': choose from local, ray"
    assert not (tmp_path / "a.db").exists()


def test_an_experiments_repetitions_come_out_the_same_on_ray(cluster, tmp_path):
    def experiment(name, *extra):
        results = tmp_path / f"{name}.jsonl"
        done = arena_here("experiment", "snafu-scaling", "--strategy", "PR:t=3", "--strategy", "WR:t=12", "--reps",
                          "3", "--train-games", "12", "--test-games", "4", "--seed", "2", "--results", str(results),
                          "-f", "json", *extra)
        lines = results.read_text().splitlines()
        return json.loads(done), lines[0], sorted(lines[1:])

    on_ray = experiment("ray", "--executor", "ray", "--address", cluster)
    assert on_ray == experiment("local")  # one repetition at a time here, two at once on the cluster
    assert len(on_ray[2]) == 6 and len(on_ray[0]) == 2


def test_an_executor_without_a_task_pool_is_refused_for_experiments():
    registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    registry.executors["games-only"] = registry.executors["local"]
    with pytest.raises(ArenaError, match=r"^the games-only executor plays games only; experiments run on local, "
                                         r"ray$"):
        registry.task_pool("games-only")
    with pytest.raises(ArenaError, match=r"^unknown executor 'nowhere'"):
        registry.task_pool("nowhere")


def test_a_league_plays_the_same_games_on_ray_as_on_local_workers(cluster, tmp_path):
    league, _ = League.create(tmp_path / "local", "tron", ["center_block", "empty_room"], seed=3)
    alice = league.authenticate(league.add_team("alice"))
    bob = league.authenticate(league.add_team("bob"))
    league.submit(alice, shipped_bot(tmp_path / "a", "wallhugger.py"))
    league.submit(bob, shipped_bot(tmp_path / "b", "random_bot.py"))
    league.close()
    shutil.copytree(tmp_path / "local", tmp_path / "ray")  # the same league, twice
    leagues = {}
    for name in ("local", "ray"):
        executor = ExecutorChoice("ray", cluster) if name == "ray" else ExecutorChoice("local")
        LeagueLadder(tmp_path / name, executor=executor, workers=2, max_games=2).run()  # a game on each worker
        with League.open(tmp_path / name) as played:
            leagues[name] = results(played), [(r.label, r.mu, r.sigma, r.games) for r in played.leaderboard()]
            assert played.workers().executor == name
    assert len(leagues["ray"][0]) == 2
    assert leagues["ray"] == leagues["local"]


@pytest.fixture(scope="module")
def bare_path(tmp_path_factory):
    """A PATH without bubblewrap (see :func:`path_without`)."""
    return path_without("bwrap", tmp_path_factory.mktemp("bare") / "path")


@pytest.fixture(scope="module")
def bare_node(ray_head, bare_path):
    """A node of one CPU without bubblewrap, joined to the module's cluster: its temp dir. It plays unsandboxed
    games as any node does; the cluster has three CPUs from then on, so only the module's last tests use it."""
    return ray_head.join("bare", num_cpus=1, env={"PATH": bare_path})


def refused_for_bubblewrap(tmp_path, db, cluster):
    """A sandboxed tournament on ``cluster`` stops in one line naming the node without bubblewrap and the
    package, before any game."""
    result = run_tournament(tmp_path, db, "--sandbox", "--executor", "ray", "--address", cluster.address)
    assert result.returncode == 2 and result.stdout == "", db
    *before, last = result.stderr.strip().splitlines()
    assert last == ("error: --sandbox needs bubblewrap (bwrap), which is not installed on the Ray node "
                    f"{cluster.node_ip} ({os.uname().nodename}): apt-get install bubblewrap"), result.stderr
    assert all(line.startswith("run 1: ") for line in before), result.stderr  # progress: nothing else
    assert refused_rows(db) == [0, 0], db


@pytest.mark.needs("bwrap")  # this machine has it: the refusal comes from the node
def test_a_node_without_bubblewrap_refuses_sandboxed_games_in_one_line(ray_head, bare_node, tmp_path):
    """The module's cluster, whose head has bubblewrap and a node without it has joined: the command stops in
    one line naming the node and the package, though the head's two actors could play (a cluster whose every
    node lacks it refuses by the same check, on each of them)."""
    drop_in_bot(tmp_path)
    refused_for_bubblewrap(tmp_path, tmp_path / "mixed.db", ray_head)  # three actors: one on the bare node


def test_the_same_seed_gives_the_same_games_on_ray_as_locally_though_a_node_dies(ray_head, bare_node, token_env,
                                                                                 tmp_path):
    """The node without bubblewrap (unsandboxed games need none) is killed while the tournament runs: every game
    is stored once, the games and standings those of the same tournament on local workers. Last in the module:
    the cluster may count the dead node's CPUs for a while, and a command that takes one actor per CPU would wait
    for them."""
    node = bare_node  # three actors: two on the head, one there
    drop_in_bot(tmp_path)  # it exists only here: the cluster gets it with the games
    db = tmp_path / "ray.db"
    # the token in $RAY_AUTH_TOKEN here; the other tests give it as a file, $RAY_AUTH_TOKEN_PATH
    with_token = without_token(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token_env)
    command = [sys.executable, "-m", "arena", *TOURNAMENT, "--bots-dir", str(tmp_path / "bots"), "-n", "4", "--db",
               str(db), "--executor", "ray", "--address", ray_head.address]
    running = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env=with_token)
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
    assert stop_processes_under(node, at_once=True) == 1  # its raylet, with what it started
    # the same tournament here, on one worker (a CPU for it; the head's two play on), while the cluster finds the
    # node gone and plays its games again
    local = json.loads(arena_here(*TOURNAMENT, "--bots-dir", str(tmp_path / "bots"), "-n", "4", "--db",
                                  str(tmp_path / "local.db"), "-w", "1"))
    stdout, stderr = running.communicate(timeout=300)
    assert running.returncode == 0, stderr
    stored = stored_games(db)
    assert [row[0] for row in stored] == list(range(40))  # every game, once
    assert stored == stored_games(tmp_path / "local.db")  # first: a game that differs says how
    assert json.loads(stdout) == local
