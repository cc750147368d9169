"""A zygote's games against a bot that tries to carry state from one game to the next, or to reach past its game.

The bot ``carrier`` plays several games in one worker (so through one zygote). On its first move it looks for
what an earlier game of it left: a file in its scratch folder and in ``/dev/shm``, a SysV message queue and
shared memory segment, a process still running; finding any, it raises ``ESCAPED``. Then it leaves all of
them behind, and tries to signal and trace every process it can name, and to read the memory of every process
``/proc`` shows; any success raises ``ESCAPED`` too.
"""

import os
import subprocess

import pytest

from arena.cli.main import app
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

MARKER = f"86398.{os.getpid():07d}"

CARRIER = '''
import ctypes, os, signal, subprocess
from arena import Bot

libc = ctypes.CDLL(None, use_errno=True)
KEY = 0x5EED
IPC_CREAT = 0o1000

def seen():
    found = [path for path in ("/tmp/left.txt", "/dev/shm/left") if os.path.exists(path)]
    if libc.msgget(KEY, 0) >= 0:
        found.append("message queue")
    if libc.shmget(KEY, 0, 0) >= 0:
        found.append("shared memory")
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and "{marker}" in open(f"/proc/{{pid}}/cmdline").read():
                found.append(f"process {{pid}}")
        except OSError:
            pass
    return found

def leave():
    for path in ("/tmp/left.txt", "/dev/shm/left"):
        try:
            open(path, "w").write("game")
        except OSError:  # read-only where a game has no /dev/shm of its own (a sandbox a game)
            pass
    libc.msgget(KEY, IPC_CREAT | 0o666)
    libc.shmget(KEY, 4096, IPC_CREAT | 0o666)
    subprocess.Popen(["/bin/sleep", "{marker}"], start_new_session=True)

def reach():
    got = []
    me = os.getpid()
    for pid in [int(name) for name in os.listdir("/proc") if name.isdigit()]:
        if pid == me:
            continue
        try:
            open(f"/proc/{{pid}}/mem", "rb").close()
            got.append(f"memory of {{pid}}")
        except OSError:
            pass
    for pid in range(1, 64):
        if pid in (me,):
            continue
        try:
            os.kill(pid, 0)
        except OSError:
            continue
        if pid != 1 and libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
            got.append(f"traced {{pid}}")
    if os.getppid() not in (0, 1):
        got.append(f"a parent it can name ({{os.getppid()}})")
    return got

class Carrier(Bot):
    name = "carrier"
    games = ("tron",)

    def act(self, obs):
        if not getattr(self, "checked", False):
            self.checked = True
            levels = [row for row in open("/proc/self/status") if row.startswith("NSpid:")][0].split()[1:]
            if len(levels) < 2:  # a PID namespace of the game's own inside the zygote's sandbox
                raise RuntimeError("NOT FORKED BY A ZYGOTE")
            found = seen() + reach()
            if found:
                raise RuntimeError("ESCAPED " + ", ".join(found))
            leave()
        return obs.legal_moves()[0]
'''


def survivors() -> list[str]:
    """The processes still running with this test's marker."""
    found = subprocess.run(["pgrep", "-f", MARKER], capture_output=True, text=True).stdout
    return found.split()


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_nothing_a_game_left_reaches_the_next(tmp_path):
    bots = tmp_path / "bots"
    write_module(bots, "carrier.py", CARRIER.format(marker=MARKER))
    db = tmp_path / "zygote.db"
    result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--sandbox",
                                      "--bots", "carrier,wallhugger", "--games", "3", "--time-limit", "5",
                                      "--workers", "1", "--db", str(db), "--bots-dir", str(bots)])
    assert result.exit_code == 0, result.output
    assert survivors() == []
    with Store(db) as store:
        games = list(store.games())
    assert len(games) >= 3
    for game in games:
        assert "ESCAPED" not in game.reason, game.reason
        assert game.failures == {}, game.reason
