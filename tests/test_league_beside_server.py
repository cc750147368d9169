"""A served league beside its organiser: every ``arena league`` command while ``arena serve`` plays leaves the
server's database whole (its write-ahead log is never deleted under it), one ladder plays a league at a time
(a lock the kernel lets go of when its holder dies), and Ctrl-C stops the server without a traceback."""

import contextlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.league.facade import League
from arena.league.ladder_lock import LOCK_FILE, LadderLock
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.league_helpers import copy_of, submitted_league

ENV = {**{k: v for k, v in os.environ.items() if k not in ("ARENA_BOTS_PATH", "ARENA_DB")}, "PYTHONUNBUFFERED": "1"}
READ_ONLY = (("teams",), ("versions", "alice"), ("standings",), ("queue",), ("workers",), ("final-table",))
"""Every ``arena league`` command that only reads (final-table fails: this league has had no final)."""
PAGES = ("/", "/games", "/api", "/sign-in", "/bots/alice/wallhugger", "/api/leaderboard", "/api/games")
runner = CliRunner()


def make_league(factory, folder):
    """A copy of a league of alice (the wallhugger) and bob (random, floodfill), their bots submitted."""
    copy_of(submitted_league(factory), folder)


def arena(*args, cwd):
    return subprocess.run([sys.executable, "-m", "arena", *map(str, args)], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=120)


def organiser(*args):
    """``arena league *args`` run in this process, beside the server (a process of its own)."""
    return runner.invoke(app, ["league", *map(str, args)])


def start_server(folder, workers=2):
    """``arena serve folder`` in a session of its own, and its address once it listens."""
    process = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(folder), "--port", "0", "--workers",
                                str(workers)], cwd=folder.parent, env=ENV, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    line = process.stderr.readline()
    found = re.search(r"serving .* at (http://127\.0\.0\.1:\d+) \(Ctrl-C stops\)", line)
    if found is None:
        process.kill()
        pytest.fail(f"arena serve did not start: {line}{process.stderr.read()}")
    return process, found.group(1)


def stop_group(process):
    """Kill what is left of a server started by :func:`start_server` (its workers included)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def stored(folder):
    conn = sqlite3.connect(f"file:{folder / 'arena.db'}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        conn.close()


def wait_for(condition, what, process, seconds=180):
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, f"the server stopped while waiting for {what}"
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


def status(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


def ladder_state(folder):
    """The ladder's state as ``arena league workers`` reads it (read here, beside the server, as often as it takes:
    the command itself is among the :data:`READ_ONLY` ones)."""
    with League.open(folder) as league:
        return league.workers().state


def open_log(pid, folder):
    """The server's open descriptors of the database's write-ahead log, as ``(link text, inode)``."""
    wal = str(folder / "arena.db-wal")
    found = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
            if link.startswith(wal):
                found.append((link, os.stat(f"/proc/{pid}/fd/{fd}").st_ino))
        except OSError:
            continue
    return found


def test_opening_the_database_again_in_a_process_keeps_its_log_for_another_process(tmp_path):
    db = tmp_path / "arena.db"
    with Store(db) as held:
        held.create_run("one", "tron", "round-robin", {}, "fingerprint", 0)
        Store(db, read_only=True).close()  # the same process opens and closes it again
        closed = subprocess.run([sys.executable, "-c", "import sys; from arena.storage.store import Store; "
                                 "s = Store(sys.argv[1]); s.create_run('two', 'tron', 'round-robin', {}, 'f', 0); "
                                 "s.close()", str(db)], env=ENV, capture_output=True, text=True, timeout=60)
        assert closed.returncode == 0, closed.stderr
        assert Path(f"{db}-wal").exists()  # the other process's close did not take this one's log away
        held.create_run("three", "tron", "round-robin", {}, "fingerprint", 0)
        assert [run.name for run in held.runs()] == ["one", "two", "three"]
    with Store(db, read_only=True) as again:
        assert [run.name for run in again.runs()] == ["one", "two", "three"]
        assert again.conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_every_organiser_command_beside_a_playing_server_keeps_its_database_whole(tmp_path_factory, tmp_path):
    folder = tmp_path / "league"
    make_league(tmp_path_factory, folder)
    server, url = start_server(folder)
    try:
        wait_for(lambda: stored(folder) >= 2, "two games", server)
        for page in PAGES:  # answered by several threads, each opening the league
            assert status(url + page) == 200, page
        log = open_log(server.pid, folder)
        assert log and all(not link.endswith("(deleted)") for link, _ in log)

        # Each command opens the league and closes it again before the next one, so this process (not the
        # server's) runs them one after another as separate processes would, without starting one for each.
        for command in READ_ONLY:
            result = organiser(command[0], folder, *command[1:])
            assert result.exit_code == (2 if command[0] == "final-table" else 0), (command, result.output)
            assert status(url + "/api/leaderboard") == 200
        assert all(not link.endswith("(deleted)") for link, _ in open_log(server.pid, folder))
        assert organiser("add-team", folder, "carol").exit_code == 0
        assert organiser("disable", folder, "bob/random", "1").exit_code == 0
        assert organiser("pause", folder).exit_code == 0
        wait_for(lambda: ladder_state(folder) == "paused", "the ladder to pause", server)
        paused_at = stored(folder)
        assert organiser("resume", folder).exit_code == 0
        wait_for(lambda: stored(folder) >= paused_at + 2, "ranked play to resume", server)

        assert all(status(url + page) == 200 for page in PAGES)
        assert status(url + "/api/team") == 401  # signing in still reads the database
        wal = folder / "arena.db-wal"
        assert wal.exists()
        log = open_log(server.pid, folder)
        assert log and {inode for _, inode in log} == {wal.stat().st_ino}
        assert all(not link.endswith("(deleted)") for link, _ in log)

        os.killpg(server.pid, signal.SIGINT)  # Ctrl-C in the middle of play
        assert server.wait(timeout=60) == 130
        assert "Traceback" not in server.stderr.read()
    finally:
        stop_group(server)

    with League.open(folder) as league:
        assert league.conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert league.workers().state == "stopped"
        games = league.conn.execute("SELECT g.run_id, g.idx, g.seed, q.seed, q.kind FROM games g "
                                    "LEFT JOIN league_queue q ON q.run_id = g.run_id AND q.idx = g.idx").fetchall()
        # every game the server stored is there, once, in its place in the queue, with that place's seed
        assert len(games) == league.workers().games_played
        assert len({(run, idx) for run, idx, *_ in games}) == len(games)
        assert all(seed == queued and kind == "ranked" for _, _, seed, queued, kind in games)
        assert [team.name for team in league.teams()] == ["alice", "bob", "carol"]
        assert not league.paused


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_one_ladder_plays_a_league_and_a_killed_holder_lets_the_next_one_start(tmp_path_factory, tmp_path):
    folder = tmp_path / "league"
    make_league(tmp_path_factory, folder)
    server, url = start_server(folder, workers=1)
    try:
        refusal = f"error: {folder}: arena serve (pid {server.pid}, at {url}) plays its ladder already; " \
                  "one ladder plays a league at a time"
        for command in (("serve", folder, "--port", "0"), ("league", "run", folder, "-w", "1")):
            second = arena(*command, cwd=tmp_path)
            assert (second.returncode, second.stderr.strip()) == (2, refusal), command
        beside = organiser("standings", folder)  # reading beside it is allowed
        assert beside.exit_code == 0, beside.output
        wait_for(lambda: stored(folder) >= 1, "a game", server)

        os.kill(server.pid, signal.SIGKILL)  # the holder only: whatever its workers do, the lock is gone
        server.wait(timeout=30)
        after = arena("league", "run", folder, "-w", "1", "-n", "1", cwd=tmp_path)
        assert after.returncode == 0, after.stderr
        assert after.stderr.strip().endswith("stored 1 games")
    finally:
        stop_group(server)

    runner = subprocess.Popen([sys.executable, "-m", "arena", "league", "run", str(folder), "-w", "1"],
                              cwd=tmp_path, env=ENV, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for(lambda: "arena league run" in (folder / LOCK_FILE).read_text(), "the lock", runner)
        refused = arena("serve", folder, "--port", "0", cwd=tmp_path)
        assert (refused.returncode, refused.stderr.strip()) == (
            2, f"error: {folder}: arena league run (pid {runner.pid}) plays its ladder already; "
               "one ladder plays a league at a time")
    finally:
        stop_group(runner)


def test_the_ladder_lock_is_refused_to_a_second_holder_and_never_kept_by_a_forked_child(tmp_path):
    with LadderLock.take(tmp_path, "arena serve") as lock:
        lock.note("http://127.0.0.1:8000")
        with pytest.raises(ArenaError) as refused:
            LadderLock.take(tmp_path, "arena league run")
        assert str(refused.value) == (f"{tmp_path}: arena serve (pid {os.getpid()}, at http://127.0.0.1:8000) "
                                      "plays its ladder already; one ladder plays a league at a time")
        started, told = os.pipe()
        child = os.fork()
        if child == 0:  # a forked worker: it lives on after its parent lets go
            os.write(told, b"up")
            time.sleep(5)
            os._exit(0)
        assert os.read(started, 2) == b"up"  # the child runs (a fork's own copy closes as it starts)
    try:
        with LadderLock.take(tmp_path, "arena league run"):  # the child, still alive, does not hold it
            assert os.waitpid(child, os.WNOHANG) == (0, 0)
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        os.close(started)
        os.close(told)
