"""Processes an in-process Python bot starts and leaves running are killed at the end of its game and counted:
in worker processes, in this process (an in-process tournament, ``run_match``) and in ``arena play``."""

import os
import signal
import subprocess

import pytest

from arena.cli.main import app
from arena.core.child_processes import is_subreaper
from arena.play.isolation import IsolatedBots
from arena.play.limits import Limits
from arena.play.referee import MatchSetup, run_match
from arena.play.strays import swept_seats
from arena.plugins.registry import PluginConfig, load_registry
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import round_robin_run, write_module

MARK = f"86391.{os.getpid():07d}"
"""The argument of every sleep the bots below start: how a test finds what survived. It names this test process,
so that the sleeps of other test runs on the machine (parallel workers too) are never taken for ours."""

LEAVERS = f'''
import os
import subprocess

from arena import Bot


class Hugger(Bot):
    games = ("tron",)

    def act(self, obs):
        moves = obs.safe_moves()
        return max(moves, key=obs.walls_around) if moves else "N"


class Forker(Hugger):
    """Double-forks a sleep in every game (fork, setsid, fork again), so that init would adopt it."""

    name = "forker"

    def start(self, info):
        child = os.fork()
        if child == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv("/bin/sleep", ["sleep", "{MARK}"])
            os._exit(0)
        os.waitpid(child, 0)


class Popener(Hugger):
    """Starts a sleep in a session of its own in every game and never waits for it."""

    name = "popener"

    def start(self, info):
        self.sleeper = subprocess.Popen(["sleep", "{MARK}"], start_new_session=True)


class Shell(Hugger):
    """Starts a shell in a session of its own that starts two sleeps, and waits until both are running."""

    name = "shell"

    def start(self, info):
        shell = subprocess.Popen(["sh", "-c", "sleep {MARK} & sleep {MARK} & wait"], start_new_session=True)
        while len(open(f"/proc/{{shell.pid}}/task/{{shell.pid}}/children").read().split()) < 2:
            pass
'''

DOUBLE_FORKING_PROGRAM = f'''
import json, os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "{MARK}"])
    os._exit(0)
os.wait()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({{"type": "ready"}}), flush=True)
    elif message["type"] == "turn":
        print(json.dumps({{"action": message["legal"][0]}}), flush=True)
'''

NOTE = "[1 process(es) it started outlived its game and were killed]\n"

# forker, popener and random on empty_room, two games a pairing, seed 0: each game's bots, ranks, and what
# its record says of the processes left running (the seat's stderr log, or the game's strays).
EXPECTED = [
    (["forker", "popener"], [1, 1], {}, 2),
    (["popener", "forker"], [1, 1], {}, 2),
    (["forker", "random"], [1, 1], {"0": NOTE}, 0),
    (["random", "forker"], [2, 1], {"1": NOTE}, 0),
    (["popener", "random"], [1, 2], {"0": NOTE}, 0),
    (["random", "popener"], [2, 1], {"1": NOTE}, 0),
]


def _sleepers() -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as cmdline:
                    if MARK.encode() in cmdline.read().split(b"\0"):
                        found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.fixture
def bots_dir(tmp_path):
    """A bot folder of the bots above; no sleep of theirs runs before the test or after it."""
    assert _sleepers() == []
    directory = tmp_path / "bots"
    write_module(directory, "leavers.py", LEAVERS)
    yield directory
    left = _sleepers()
    for pid in left:  # so that a failing test does not leave them to the next
        os.kill(pid, signal.SIGKILL)
    assert left == []


def _play(bots, bots_dir, db, *extra):
    """Play a 2-game tournament of ``bots`` on one worker into ``db``; return its records in schedule order."""
    result = CliRunner().invoke(app, ["tournament", "empty_room", "--bots", bots, "--games", "2", "--workers", "1",
                                      *extra, "--db", str(db), "--bots-dir", str(bots_dir)])
    assert result.exit_code == 0, result.output
    with Store(db) as store:
        return [game.record for game in sorted(store.games(), key=lambda game: game.idx)]


def _results(records):
    return [([player["bot"] for player in record["players"]], record["result"]["ranks"], record.get("stderr", {}),
             record.get("strays", 0)) for record in records]


@pytest.mark.slow
def test_a_worker_kills_and_counts_what_its_bots_left_running(bots_dir, tmp_path):
    db = tmp_path / "arena.db"
    records = _play("forker,popener,random", bots_dir, db)
    assert _results(records) == EXPECTED
    assert _sleepers() == []
    shown = CliRunner().invoke(app, ["show", "1", "0", "--db", str(db)])
    assert shown.output.splitlines()[-1] == ("2 process(es) the bots started outlived the game and were killed (not "
                                             "known to be one player's)")
    shown = CliRunner().invoke(app, ["show", "1", "3", "--db", str(db)])
    assert shown.output.splitlines()[-2:] == ["log of player 2 (forker):",
                                              "  [1 process(es) it started outlived its game and were killed]"]


@pytest.mark.slow
def test_isolated_bots_processes_sweep_their_games_and_know_the_seat(bots_dir, tmp_path):
    db = tmp_path / "arena.db"
    records = _play("forker,popener,random", bots_dir, db, "--isolate")
    both = {"0": NOTE, "1": NOTE}  # each bot has a process of its own: no doubt whose the strays were
    assert _results(records) == [(bots, ranks, both if strays else stderr, 0)
                                 for bots, ranks, stderr, strays in EXPECTED]
    assert _sleepers() == []


def test_in_process_play_kills_the_games_strays_and_spares_this_process_children(bots_dir):
    config = PluginConfig(bot_dirs=(str(bots_dir),), use_cwd_bots=False)
    registry = load_registry(config)
    mine = subprocess.Popen(["sleep", "86391.25"])  # a child of this process from before the games
    try:
        run, outcomes = round_robin_run(["empty_room"], ["forker", "popener", "random"], registry, config,
                                        workers=1, games=2, in_process=True)
        assert _results(outcomes[index].record(run.setups[index]) for index in sorted(outcomes)) == EXPECTED
        assert _sleepers() == []
        assert mine.poll() is None  # neither killed nor collected
        assert is_subreaper() is False
    finally:
        mine.kill()
        mine.wait()


def test_run_match_counts_a_stray_and_its_children_on_the_bots_seat(bots_dir):
    registry = load_registry(PluginConfig(bot_dirs=(str(bots_dir),), use_cwd_bots=False))
    outcome = run_match("tron", ["random", "shell"], game_map="empty_room", seed=4, registry=registry)
    assert outcome.ranks == (2, 1)
    assert outcome.record()["stderr"] == {"1": "[3 process(es) it started outlived its game and were killed]\n"}
    assert outcome.strays == 0
    assert _sleepers() == []


def test_arena_play_says_what_the_bots_left_running(bots_dir):
    result = CliRunner().invoke(app, ["play", "forker", "random", "--bots-dir", str(bots_dir), "--quiet",
                                      "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "Log of player 1 (forker):\n  [1 process(es) it started outlived its game and were killed]" in result.output
    result = CliRunner().invoke(app, ["play", "forker", "popener", "--bots-dir", str(bots_dir), "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == ("2 process(es) the bots started outlived the game and were killed "
                                              "(not known to be one player's)")
    assert _sleepers() == []


@pytest.mark.slow
def test_a_program_bots_survivor_is_counted_once_beside_an_in_process_bots(bots_dir, tmp_path):
    program = bots_dir / "escaper"
    program.mkdir()
    (program / "bot.py").write_text(DOUBLE_FORKING_PROGRAM)
    (program / "arena-bot.toml").write_text('name = "escaper"\ngames = ["tron"]\ncommand = ["python3", "bot.py"]\n')
    db = tmp_path / "arena.db"
    records = _play("escaper,forker", bots_dir, db)
    assert [record["stderr"] for record in records] == [{"0": NOTE, "1": NOTE}, {"0": NOTE, "1": NOTE}]
    assert [record.get("strays", 0) for record in records] == [0, 0]
    assert _sleepers() == []


def test_only_games_of_user_bots_played_here_are_swept(bots_dir):
    config = PluginConfig(bot_dirs=(str(bots_dir),), use_cwd_bots=False)
    registry = load_registry(config)
    shipped = MatchSetup("tron", (registry.spec("random"), registry.spec("floodfill")))
    mixed = MatchSetup("tron", (registry.spec("random"), registry.spec("forker")))
    assert swept_seats(shipped, registry) == ()
    assert swept_seats(mixed, registry) == (1,)
    assert swept_seats(mixed, registry, IsolatedBots(config, Limits(isolate=True))) == ()
