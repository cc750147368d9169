"""A zygote's games against a bot that tries to carry state from one game to the next, or to reach past its game.

The bot ``carrier`` plays several games in one worker (so through one zygote). On its first move it looks for
what an earlier game of it left: a file in its scratch folder and in ``/dev/shm``, a SysV message queue and
shared memory segment, a process still running; finding any, it raises ``ESCAPED``. Then it leaves all of
them behind, and tries to signal and trace every process it can name, and to read the memory of every process
``/proc`` shows; any success raises ``ESCAPED`` too.
"""

import os
import subprocess
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.play.sandbox.confine import ZYGOTE_UIDS, zygote_uid
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


def zygote_sandboxes() -> list[int]:
    """The bubblewrap processes of this process's zygotes that still run."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and "arena.play.sandbox.zygote import" in cmdline:
            found.append(int(name))
    return sorted(found)


def zygote_processes() -> list[str]:
    """The processes (zombies too) that run as this process's zygotes' outside uids, each as its pids from the
    outermost PID namespace in: the zygotes at depth 2, a game's bot (pid 1 of its namespace) and every process
    it started at depth 3 or more."""
    low = zygote_uid(0)
    found = []
    for name in os.listdir("/proc"):
        try:
            rows = Path(f"/proc/{name}/status").read_text().splitlines() if name.isdigit() else []
        except OSError:
            continue
        fields = {row.split(":", 1)[0]: row.split(":", 1)[1].split() for row in rows}
        if fields and low <= int(fields["Uid"][0]) < low + ZYGOTE_UIDS:
            found.append(" ".join(fields["NSpid"]))
    return sorted(found)


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


BOMBER = '''
import os, threading
from arena import Bot

class Bomber(Bot):
    name = "bomber"
    games = ("tron",)

    def act(self, obs):
        if not getattr(self, "bombed", False):
            self.bombed = True
            levels = [row for row in open("/proc/self/status") if row.startswith("NSpid:")][0].split()[1:]
            if len(levels) < 2:
                raise RuntimeError("NOT FORKED BY A ZYGOTE")
            stop, threads = threading.Event(), []
            try:
                while len(threads) < 1000:  # threads up to the limit, then processes
                    threads.append(threading.Thread(target=stop.wait))
                    threads[-1].start()
            except RuntimeError:
                threads.pop()
            stop.set()
            for thread in threads:
                thread.join()
            forked = 0
            while forked < 1000:
                try:
                    pid = os.fork()
                except OSError:
                    break
                if pid == 0:
                    try:
                        os.execv("/bin/sleep", ["sleep", "{marker}"])
                    finally:
                        os._exit(0)
                forked += 1
            if not 8 <= len(threads) < 1000 or not 32 <= forked < 1000:  # threads: memory ends them first
                raise RuntimeError(f"NO LIMIT: {{len(threads)}} threads, {{forked}} processes")
        return obs.legal_moves()[0]
'''


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_a_bot_using_up_its_processes_leaves_its_zygote_and_the_next_game_whole(tmp_path):
    from arena.play.referee import run_match
    from arena.play.sandbox import SandboxedBots, SandboxLimits
    from arena.play.sandbox.probe import SandboxProbe
    from arena.plugins.registry import PluginConfig, load_registry

    write_module(tmp_path, "bomber.py", BOMBER.format(marker=MARKER))
    config = PluginConfig(bot_dirs=(str(tmp_path),), use_cwd_bots=False, use_env_path=False,
                          confined=SandboxProbe(SandboxLimits()))
    registry = load_registry(config)
    confined = SandboxedBots(config, SandboxLimits(), registry)
    try:
        outcomes = []
        for _ in range(3):  # each game forked by the same zygote, which its previous game's bomb left whole
            outcomes.append(run_match("tron", ["bomber", "wallhugger"], game_map="empty_room", seed=7,
                                      time_limit=5, registry=registry, make_bot=confined))
            # every process of the bomb, and the bot, gone once the game is over: not even a zombie counts
            # against the zygote
            assert (survivors(), [pids for pids in zygote_processes() if len(pids.split()) > 2]) == ([], []), \
                outcomes[-1].reason
            assert outcomes[-1].failures == {}, outcomes[-1].stderr
        assert [(o.ranks, o.actions) for o in outcomes] == [(outcomes[0].ranks, outcomes[0].actions)] * 3
    finally:
        confined.close()
    assert survivors() == []
