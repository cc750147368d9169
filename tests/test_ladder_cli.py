"""What `arena ladder` says: a round's games counted before they start, one sentence when there is nothing to
play, and every column filled; and every stored run has a name of its own."""

import json
from textwrap import dedent

import pytest

from arena.cli.main import app
from arena.storage.store import Store
from arena.tournament.persistent_ladder import ladder_run
from tests.cli_runner import CliRunner
from tests.helpers import write_module

runner = CliRunner()


@pytest.fixture
def solo_plugin(tmp_path, monkeypatch):
    """An installed plugin with a game that only one bot plays."""
    site = tmp_path / "site"
    write_module(site, "arena_solo_plugin.py", """
        from arena import Bot, hookimpl
        from arena.games.tron.game import TronGame


        class SoloTron(TronGame):
            \"\"\"Tron under another name, which one bot plays.\"\"\"

            name = "solotron"


        class Alone(Bot):
            name = "alone"
            games = ("solotron",)

            def act(self, obs):
                return "N"


        @hookimpl
        def register_games(register):
            register(SoloTron)


        @hookimpl
        def register_bots(register):
            register(Alone)
        """)
    dist = site / "arena_solo_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-solo-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(dedent("""
        [arena]
        solo = arena_solo_plugin
        """))
    monkeypatch.syspath_prepend(str(site))
    yield site
    import sys

    sys.modules.pop("arena_solo_plugin", None)


def test_a_ladder_with_one_bot_says_there_is_nothing_to_play_and_stores_nothing(solo_plugin, tmp_path):
    board = tmp_path / "solo.txt"
    board.write_text("; game = solotron\n#####\n#1..#\n#..2#\n#####\n")
    result = runner.invoke(app, ["ladder", str(board)])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: nothing to play: the solotron ladder pairs two bots at a time and found only alone; add bots "
        "that play solotron to ./bots or give their directory with --bots-dir (arena bots --game solotron lists "
        "the bots found)\n")
    assert result.stdout == ""
    with Store("arena.db") as store:
        assert store.runs() == [] and store.ladder("solotron") == {}


@pytest.mark.slow
def test_a_ladder_round_counts_its_games_before_it_plays_them_and_fills_every_column():
    result = runner.invoke(app, ["ladder", "empty_room", "--games", "2", "--time-limit", "0.2", "-w", "1",
                                 "-f", "json"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    # seven Tron bots: three pairs, each playing both seats; the progress line knows the total from the start.
    # All new, so equal in pass and rating: the rule pairs them in the order they joined (their bot ids), and
    # the last to join sits out
    assert lines[0] == "ladder round 0: 0/6 games (0%)"
    assert lines[-1] == ("round 0 (run 1): 7 bots in 3 pairings played 6 games; wallhugger sat out (a round plays "
                         "one match per two bots)")
    ladder = json.loads(result.stdout)
    assert len(ladder) == 7 and all(all(row.values()) for row in ladder)
    waiting = [row for row in ladder if row["games"] == "0"]
    assert [(row["bot"], row["last round"], row["status"]) for row in waiting] == [("wallhugger", "never", "playing")]
    assert {row["status"] for row in ladder} == {"playing"}


@pytest.mark.slow
def test_every_run_gets_a_name_of_its_own():
    command = ["tournament", "empty_room", "-b", "random,wallhugger", "-n", "2", "-w", "1", "-f", "json"]
    for _ in range(3):
        assert runner.invoke(app, [*command, "--new"]).exit_code == 0
    runs = json.loads(runner.invoke(app, ["runs", "-f", "json"]).stdout)
    assert [row["name"] for row in runs] == ["empty_room: random, wallhugger", "empty_room: random, wallhugger #2",
                                             "empty_room: random, wallhugger #3"]
    with Store("arena.db") as store:  # a tournament file may be called what a ladder calls its run
        store.create_run("tron ladder", "tron", "round-robin", {}, "a file's", 0)
        run_id, _ = ladder_run(store, "tron")
        assert store.run(run_id).name == "tron ladder #2"


def test_a_ladder_keeps_its_time_control_and_sandbox_in_runs_of_their_own(tmp_path):
    from arena.core.clock import time_control
    from arena.play.sandbox.limits import SandboxLimits

    with Store(tmp_path / "arena.db") as store:
        plain, _ = ladder_run(store, "tron")
        assert store.run(plain).fingerprint == "ladder-tron"  # the fingerprint of ladders stored before
        assert store.run(plain).definition == {"game": "tron"}
        timed, _ = ladder_run(store, "tron", time_control("10+0.1"))
        assert timed != plain and store.run(timed).name == "tron ladder (10+0.1)"
        assert store.run(timed).definition == {"game": "tron", "time_control": {"bank": 10.0, "increment": 0.1}}
        assert ladder_run(store, "tron", time_control("10+0.1")) == (timed, 0)  # the same setting continues it
        cpu, _ = ladder_run(store, "tron", time_control(None, None, "cpu"))
        boxed, _ = ladder_run(store, "tron", time_control("10+0.1"), SandboxLimits())
        tighter, _ = ladder_run(store, "tron", time_control("10+0.1"), SandboxLimits(processes=16))
        assert len({plain, timed, cpu, boxed, tighter}) == 5
        assert store.run(boxed).definition["sandbox"] == SandboxLimits().as_json()
        assert store.run(boxed).name == "tron ladder (10+0.1, sandboxed)"
        assert len({store.run(run).fingerprint for run in (plain, timed, cpu, boxed, tighter)}) == 5
        assert ladder_run(store, "tron", time_control("10+0.1"), SandboxLimits(processes=16)) == (tighter, 0)
