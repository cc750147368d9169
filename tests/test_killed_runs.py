"""Nothing outlives a killed run: its workers end within seconds of the command, whatever either was doing, and
no worker ever holds the run's database open."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GONE_WITHIN = 5.0


def live_processes(matches) -> list[int]:
    """The live processes (not zombies) but this one for which ``matches(pid)`` is true."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z" and matches(name):
                found.append(int(name))
        except OSError:
            continue
    return found


def marked_processes(mark: str) -> list[int]:
    """The live processes whose environment carries ``mark``."""
    needle = f"ARENA_TEST_RUN={mark}".encode()
    return live_processes(lambda pid: needle in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"))


def open_files(pid: int) -> list[str]:
    """Where each of process ``pid``'s descriptors points."""
    targets = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue
    return targets


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}")


def start_run(tmp_path, mark, *extra, bots="random,wallhugger"):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARENA_TEST_RUN": mark}
    command = [sys.executable, "-m", "arena", "tournament", "empty_room", "-b", bots, "-n", "200000",
               "-w", "2", "--db", str(tmp_path / "arena.db"), *extra]
    return subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def workers_of(process, mark):
    return [pid for pid in marked_processes(mark) if pid != process.pid]


def waiting_for_work(pid):
    try:
        return Path(f"/proc/{pid}/wchan").read_text() == "unix_stream_read_generic"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("moment", ["playing", "stopping after Ctrl-C", "busy while its workers wait"])
def test_a_killed_tournament_leaves_no_process_and_no_worker_holds_the_database(tmp_path, moment):
    mark = uuid.uuid4().hex
    process = start_run(tmp_path, mark)
    try:
        workers = wait_for(lambda: len(workers_of(process, mark)) == 2 and workers_of(process, mark), 30,
                           "two workers")
        wait_for(lambda: (tmp_path / "arena.db-wal").exists(), 30, "the run playing")
        time.sleep(1.0)
        held = [target for pid in workers for target in open_files(pid) if Path(target).name.startswith("arena.db")]
        if moment == "stopping after Ctrl-C":
            process.send_signal(signal.SIGINT)
            time.sleep(0.1)
        elif moment == "busy while its workers wait":
            process.send_signal(signal.SIGSTOP)  # as busy as can be: it sends no work
            wait_for(lambda: all(waiting_for_work(pid) for pid in workers), 30, "the workers waiting for work")
        process.kill()
        process.wait()
        left = marked_processes(mark)
        deadline = time.monotonic() + GONE_WITHIN
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = marked_processes(mark)
        assert left == [], f"still running {GONE_WITHIN} s after the command was killed: {left}"
        assert held == []  # forked with the database open, the workers let go of it
    finally:
        process.kill()
        process.wait()
        for pid in marked_processes(mark):
            os.kill(pid, signal.SIGKILL)


SLEEPER = """name = "sleeper"
games = ["tron"]
command = ["sleep", "600"]
"""
"""A program that never reads its pipe: only a kill ends it."""


def sandbox_processes(folder: Path) -> list[int]:
    """Live processes whose command line names ``folder``: bubblewrap, and the runner in the sandbox."""
    needle = str(folder).encode()
    return live_processes(lambda pid: needle in Path(f"/proc/{pid}/cmdline").read_bytes())


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_killed_sandboxed_run_leaves_no_sandbox_behind(tmp_path):
    """A worker killed with its command while a sandboxed program thinks, deaf to its closed pipe, takes
    bubblewrap and the program with it."""
    bots = tmp_path / "mine"
    (bots / "sleeper").mkdir(parents=True)
    (bots / "sleeper" / "arena-bot.toml").write_text(SLEEPER)
    mark = uuid.uuid4().hex
    process = start_run(tmp_path, mark, "--sandbox", "--bots-dir", str(bots), "--time-limit", "120",
                        bots="sleeper,random")
    try:
        wait_for(lambda: sandbox_processes(bots), 60, "a sandboxed bot thinking")
        time.sleep(0.5)
        process.kill()
        process.wait()
        deadline = time.monotonic() + GONE_WITHIN
        left = marked_processes(mark) + sandbox_processes(bots)
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = marked_processes(mark) + sandbox_processes(bots)
        assert left == [], f"still running {GONE_WITHIN} s after the command was killed: {left}"
    finally:
        process.kill()
        process.wait()
        for pid in marked_processes(mark) + sandbox_processes(bots):
            os.kill(pid, signal.SIGKILL)
