"""The league's ladder on real worker processes: the same games as in one process, a background thread that
stops cleanly, and ``kill -9`` of ``arena league run`` in the middle of play losing and duplicating nothing."""

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from arena.league.facade import League
from arena.league.ladder_loop import LeagueLadder
from tests.league_helpers import (
    BEYOND,
    HALFWAY,
    built_leagues,
    copy_of,
    kill_when,
    ratings,
    results,
    submitted_league,
)

pytestmark = pytest.mark.needs("bwrap")  # every league game is played in the sandbox


def make_league(factory, folder):
    """A copy of the league of alice (the wallhugger) and bob (random, floodfill), their bots submitted, seed 11."""
    return copy_of(submitted_league(factory), folder)


@pytest.mark.slow
def test_worker_processes_play_the_same_games_as_one_process_and_the_thread_stops_cleanly(tmp_path_factory,
                                                                                          tmp_path):
    built = built_leagues(tmp_path_factory)
    # the league's first 8 games played in this process, its next 10 on workers: the rest of the first plan, and
    # into the second plan, made from the ratings of the first one's games
    assert built.stored == list(range(BEYOND))
    expected = built.beyond_results  # the same 18 games, all played in this process
    copy_of(built.halfway_league, tmp_path / "workers")
    LeagueLadder(tmp_path / "workers", workers=2, max_games=BEYOND - HALFWAY).run()
    with League.open(tmp_path / "workers") as league:
        assert (results(league), ratings(league)) == expected
        assert league.workers().state == "stopped" and league.workers().games_played == BEYOND - HALFWAY
    total = BEYOND

    ladder = LeagueLadder(tmp_path / "workers", workers=1)
    ladder.start()
    deadline = time.monotonic() + 120
    while ladder.games_played < 1:  # stopped in the middle of play
        assert ladder.running and time.monotonic() < deadline, ladder.error
        time.sleep(0.05)
    ladder.stop()
    assert not ladder.running and ladder.error is None
    with League.open(tmp_path / "workers") as league:
        assert league.workers().state == "stopped"
        stored = len(results(league))
        assert stored == total + ladder.games_played


def run_command(folder, *extra):
    return [sys.executable, "-m", "arena", "league", "run", str(folder), "--workers", "1", *extra]


def stored_games(folder):
    try:
        conn = sqlite3.connect(f"file:{folder / 'arena.db'}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0
    try:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


@pytest.mark.slow
def test_kill_9_in_the_middle_of_play_loses_and_duplicates_nothing_and_the_ladder_goes_on(tmp_path_factory,
                                                                                         tmp_path):
    total = HALFWAY
    never_killed = built_leagues(tmp_path_factory).halfway  # the same league's first 8 games, played unharmed
    env = {k: v for k, v in os.environ.items() if k not in ("ARENA_BOTS_PATH", "ARENA_DB")}
    make_league(tmp_path_factory, tmp_path / "victim")
    victim = subprocess.Popen(run_command(tmp_path / "victim"), cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    kill_when(victim, lambda: stored_games(tmp_path / "victim") >= 3)
    assert victim.returncode == -signal.SIGKILL
    with League.open(tmp_path / "victim") as league:
        before = results(league)
    assert 3 <= len(before) < total

    again = subprocess.run(run_command(tmp_path / "victim", "--games", str(total - len(before))), cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    with League.open(tmp_path / "victim") as victim_league:
        after = results(victim_league)
        assert after[:len(before)] == before  # every game stored before the kill, unchanged
        assert [game_id for game_id, *_ in after] == list(range(total))  # none lost, none twice
        assert (after, ratings(victim_league)) == never_killed  # the same games and ratings as a ladder never killed


@pytest.mark.slow
def test_league_games_play_every_bot_in_the_sandbox(tmp_path_factory, tmp_path):
    target = tmp_path / "written-during-a-game"
    league = League.open(make_league(tmp_path_factory, tmp_path / "confined"))
    carol = league.authenticate(league.add_team("carol"))
    sneaky = tmp_path / "c" / "sneaky.py"
    sneaky.parent.mkdir()
    sneaky.write_text(f"""
from pathlib import Path
from arena import bot

@bot(name="sneaky", game="tron")
def sneaky(obs, rng):
    try:
        Path({str(target)!r}).write_text("escaped")
        return "N"
    except OSError:
        return obs.safe_moves()[0] if obs.safe_moves() else "N"
""")
    league.submit(carol, sneaky)
    league.challenge(carol, "sneaky", "alice/wallhugger", 1)
    league.pause()  # only the challenge plays
    league.close()
    LeagueLadder(tmp_path / "confined", workers=1, max_games=1).run()
    with League.open(tmp_path / "confined") as league:
        games = league.games(kind="challenge")
        assert len(games) == 1 and all(s.failure is None for g in games for s in g.seats)
    assert not target.exists()


@pytest.mark.slow
def test_a_server_stopped_by_sigterm_stores_no_game_its_workers_did_not_finish(tmp_path_factory, tmp_path):
    make_league(tmp_path_factory, tmp_path / "league")
    env = {k: v for k, v in os.environ.items() if k not in ("ARENA_BOTS_PATH", "ARENA_DB")}
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(tmp_path / "league"), "--port", "0",
                               "--workers", "1"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while stored_games(tmp_path / "league") < 1:
            assert server.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        os.killpg(server.pid, signal.SIGTERM)  # as a service manager stops it: the workers get it too
        server.wait(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    with League.open(tmp_path / "league") as league:
        reasons = [game.reason for game in league.games(limit=1000)]
    assert reasons and not [reason for reason in reasons if "worker" in reason or "abandoned" in reason]
