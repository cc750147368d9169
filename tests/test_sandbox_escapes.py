"""The sandbox against hostile bots: each attack, as a Python bot and as a program, in a real tournament.

Every attacker tries its attack on its first move. Where the attack works it raises (or answers) a message
starting ``ESCAPED`` with what it got; where the sandbox stops it, ``blocked`` and why. So each attacker is
charged with its own crash or illegal answer naming ``blocked``, its opponent is never charged, nothing the
attackers started survives the tournament, and no secret reaches the database or the output.

The field is one tournament: the Python attackers are the classes of one module (checked by one confined
probe), and their opponent is a small program (a plain ``python3`` that imports nothing of the arena), so
nearly every sandbox started is an attacker's.
"""

import json
import os
import socket
import threading
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import REPO, line_of, write_module

MARKER = f"86399.{os.getpid():07d}"
"""The argument of every ``sleep`` an attacker leaves behind: a process with it alive afterwards survived. It
names this test process, so that other test runs on the machine (parallel workers too) never count as ours."""
SECRET = "hunter2-3f9a7c"

ATTACKS = '''
import os, resource, signal, socket, subprocess, sys, time

def _survivor():
    os.execv("/bin/sleep", ["sleep", "{marker}"])

def read_home():
    return open({home_file!r}).read()

def env_secret():
    if "ARENA_TEST_SECRET" in os.environ:
        return os.environ["ARENA_TEST_SECRET"]
    raise PermissionError("no ARENA_TEST_SECRET in " + ",".join(sorted(os.environ)))

def read_db():
    return open({db!r}, "rb").read(64).hex()

def write_db():
    with open({db!r}, "ab") as db:
        db.write(b"garbage")
    return "wrote the database"

def write_outside():
    for target in ({bot_dir!r}, {workdir!r}):
        try:
            with open(os.path.join(target, "dropped.txt"), "w") as f:
                f.write("x")
            return "wrote " + target
        except OSError:
            pass
    raise PermissionError("read-only: " + {bot_dir!r} + " and " + {workdir!r})

def connect_local():
    with socket.create_connection(("127.0.0.1", {port}), timeout=0.5) as conn:
        return conn.recv(100).decode()

def resolve_name():
    return str(socket.getaddrinfo("example.com", 80))

def fork_bomb():
    started = 0
    try:
        for _ in range(500):
            if os.fork() == 0:
                _survivor()
            started += 1
    except OSError as exc:
        raise PermissionError(f"stopped after {{started}} processes: {{exc}}")
    return f"started {{started}} processes"

def double_fork():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            _survivor()
        os._exit(0)
    os.wait()
    raise PermissionError("a survivor was left: the end of the game must kill it")

def kill_parent():
    os.kill(os.getppid(), signal.SIGKILL)
    os.kill(1, signal.SIGKILL)
    time.sleep(0.2)
    raise PermissionError(f"still here, parent {{os.getppid()}} untouched")

def signal_others():
    killed = []
    for pid in range(2, 4000):
        if pid != os.getpid():
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except OSError:
                pass
    raise PermissionError(f"could signal only its own sandbox ({{len(killed)}} processes)")

def raise_limit():
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return "raised its memory limit"

def exceed_memory():
    hog = bytearray(3 << 30)
    return f"held {{len(hog)}} bytes"

def walk_stack():
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name == "referee":
            return "reached the referee"
        frame = frame.f_back
    raise PermissionError("no referee frame above")

def read_other_bot():
    return open({other_bot!r}).read()

def attack(name):
    try:
        got = globals()[name]()
    except MemoryError:
        raise
    except Exception as exc:
        return "blocked: " + type(exc).__name__ + ": " + str(exc)[:80]
    return "ESCAPED " + str(got)[:200]
'''

PYTHON_ATTACKS = ("read_home", "env_secret", "read_db", "write_db", "write_outside", "connect_local", "resolve_name",
                  "fork_bomb", "double_fork", "kill_parent", "signal_others", "raise_limit", "exceed_memory",
                  "walk_stack", "read_other_bot")
PROGRAM_ATTACKS = ("read_home", "env_secret", "read_db", "write_db", "write_outside", "connect_local",
                   "resolve_name", "fork_bomb", "double_fork", "kill_parent", "raise_limit", "exceed_memory",
                   "read_other_bot")

PYTHON_BOT = '''

class Attacker_{attack}(Bot):
    name = "py_{attack}"
    games = ("tron",)

    def act(self, obs):
        raise RuntimeError(attack("{attack}"))
'''
PROGRAM = '''
import json, sys
{attacks}

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({{"type": "ready"}}), flush=True)
    elif message["type"] == "turn":
        result = attack(sys.argv[1])
        print(result, file=sys.stderr, flush=True)
        print(json.dumps({{"action": result}}), flush=True)
'''

VICTIM = '''
import json, sys

DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif message["type"] == "turn":
        obs = message["observation"]
        x, y = obs["heads"][obs["seat"]]
        free = [m for m in message["legal"] if obs["rows"][y + DELTA[m][1]][x + DELTA[m][0]] == "."]
        print(json.dumps({"action": (free or message["legal"])[0]}), flush=True)
'''
"""The attackers' opponent, a program: the first legal move onto a free cell."""


def survivors() -> list[str]:
    """Processes alive now that an attacker left behind (their command line carries the marker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if MARKER in command and "pytest" not in command:
                found.append(f"{entry.name}: {command}")
    return found


@pytest.fixture
def listener():
    """A TCP server on 127.0.0.1 that hands the secret to whoever connects, and counts them."""
    server = socket.create_server(("127.0.0.1", 0))
    connections = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            connections.append(conn)
            conn.sendall(SECRET.encode())
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], connections
    server.shutdown(socket.SHUT_RDWR)  # wakes the accept() (closing alone does not): the thread ends with the test
    server.close()
    thread.join()


def make_field(tmp_path: Path, port: int) -> tuple[Path, Path, Path]:
    """The bot folder (the Python attackers' module, a folder for each program attacker and the victim's), the
    database path and the home folder, which holds a secret file."""
    home = Path(os.environ["HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "id_rsa").write_text(SECRET)
    other = tmp_path / "other"
    write_module(other, "secret_bot.py", VICTIM + f"\n# {SECRET}\n")
    db = tmp_path / "arena.db"
    bots = tmp_path / "bots"
    values = {"marker": MARKER, "home_file": str(home / "id_rsa"), "db": str(db), "workdir": str(Path.cwd()),
              "port": port, "other_bot": str(other / "secret_bot.py")}
    classes = "".join(PYTHON_BOT.format(attack=attack) for attack in PYTHON_ATTACKS)
    write_module(bots, "attackers.py", "from arena import Bot\n" + ATTACKS.format(bot_dir=str(bots), **values)
                 + classes)
    for attack in PROGRAM_ATTACKS:
        folder = bots / f"prog_{attack}"
        source = ATTACKS.format(bot_dir=str(folder), **values)
        write_module(folder, "attack.py", PROGRAM.format(attacks=source))
        (folder / "arena-bot.toml").write_text(f'name = "prog_{attack}"\ngames = ["tron"]\n'
                                               f'command = ["python3", "attack.py", "{attack}"]\n')
    write_module(bots / "victim", "victim.py", VICTIM)
    (bots / "victim" / "arena-bot.toml").write_text('name = "victim"\ngames = ["tron"]\n'
                                                    'command = ["python3", "victim.py"]\n')
    return bots, db, home


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_every_attack_fails_and_only_the_attacker_is_charged(tmp_path, listener, monkeypatch):
    port, connections = listener
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # the attackers' target, never the user's own home
    bots, db, _ = make_field(tmp_path, port)
    monkeypatch.setenv("ARENA_TEST_SECRET", SECRET)
    attackers = [f"py_{name}" for name in PYTHON_ATTACKS] + [f"prog_{name}" for name in PROGRAM_ATTACKS]
    before = survivors()
    result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--sandbox",
                                      "--format", "gauntlet", "--gauntlet", "victim", "--bots", ",".join(attackers),
                                      "--games", "1", "--time-limit", "5", "--workers", "1", "--db", str(db),
                                      "--bots-dir", str(bots)])
    assert result.exit_code == 0, result.output
    assert survivors() == before == []
    assert connections == []
    assert SECRET not in result.output
    assert not (bots / "dropped.txt").exists()
    assert not (Path.cwd() / "dropped.txt").exists()
    module = bots / "attackers.py"
    shown = module.relative_to(Path.cwd()) if module.is_relative_to(Path.cwd()) else module
    with Store(db) as store:
        games = list(store.games())
        assert len(games) == 2 * len(attackers)
        for game in games:
            text = game.record_text + game.reason
            assert SECRET not in text and "ESCAPED" not in text, text
            seat = game.labels.index("victim")
            attacker = 1 - seat
            assert seat not in game.failures, game.reason
            label = game.labels[attacker]
            if label == "prog_exceed_memory":  # a program out of memory exits, and its stderr says why
                assert game.failures == {attacker: "crash"}
                assert "MemoryError" in game.record["stderr"][str(attacker)]
                continue
            expected = "memory" if label == "py_exceed_memory" else "illegal" if label.startswith("prog_") else "crash"
            assert game.failures == {attacker: expected}, (game.labels, game.reason)
            if expected != "memory":
                assert "blocked" in game.reason, game.reason
            if expected == "crash":  # a Python bot's crash names its file and line, from inside the sandbox
                line = line_of(module, f'raise RuntimeError(attack("{label[3:]}"))')
                assert game.reason.endswith(f"({shown}:{line}, in act)"), game.reason
    assert SECRET not in db.read_bytes().decode("latin-1")


MONKEY = '''
import random
from arena import bot

@bot(name="{name}", game="tron")
def {name}(obs, rng):
    """The first safe move{doc}."""
    {patch}
    moves = obs.safe_moves()
    return moves[0] if moves else "N"
'''


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_monkeypatching_random_changes_no_other_bot(tmp_path):
    """A bot that replaces ``random.Random`` methods plays exactly as its twin that does not: the random bot
    against it, in its own sandbox, draws the same moves."""
    bots = tmp_path / "bots"
    write_module(bots, "patcher.py", MONKEY.format(
        name="zpatcher", doc=", after rigging random",
        patch="random.Random.choice = lambda self, seq: seq[0]; random.Random.random = lambda self: 0.0"))
    write_module(bots, "twin.py", MONKEY.format(name="ztwin", doc="", patch="pass"))
    moves = {}
    for name in ("zpatcher", "ztwin"):
        db = tmp_path / f"{name}.db"
        result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--sandbox",
                                          "--bots", f"random,{name}", "--games", "2", "--workers", "1",
                                          "--db", str(db), "--bots-dir", str(bots)])
        assert result.exit_code == 0, result.output
        with Store(db) as store:
            moves[name] = [[turn.get(str(game.labels.index("random"))) for turn in game.record["turns"]]
                           for game in store.games()]
    assert moves["zpatcher"] == moves["ztwin"]
    assert any(len(set(filter(None, game))) > 1 for game in moves["ztwin"])


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_a_sandboxed_run_plays_the_unconfined_games_and_is_another_run(tmp_path):
    """Whether a run is sandboxed is part of its definition: the same tournament unconfined is a new run. And
    same seed, same games: the sandbox changes where bots run, not what they play."""
    db = tmp_path / "arena.db"
    common = ["tournament", str(REPO / "maps" / "empty_room.txt"), "--bots", "random,wallhugger", "--games", "1",
              "--workers", "1", "--db", str(db)]
    first = CliRunner().invoke(app, [*common, "--sandbox"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(app, [*common, "--sandbox"])
    assert "already played" in again.output
    unconfined = CliRunner().invoke(app, common)
    assert unconfined.exit_code == 0 and "already played" not in unconfined.output
    with Store(db) as store:
        definitions = [store.run(run_id).definition for run_id in (1, 2)]
        played = [[json.dumps(game.record["turns"]) + game.reason for game in store.games(run_id)]
                  for run_id in (1, 2)]
    assert definitions[0]["sandbox"]["memory"] == 1 << 30
    assert definitions[1]["sandbox"] is None
    assert len(played[0]) == 2 and played[0] == played[1]
    refused = CliRunner().invoke(app, ["tournament", "--resume", "2", "--sandbox", "--db", str(db)])
    assert refused.exit_code == 2
    assert "unconfined" in refused.output


def test_missing_bubblewrap_is_one_line_naming_the_package(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--bots",
                                      "random,wallhugger", "--games", "1", "--workers", "1", "--sandbox",
                                      "--db", str(tmp_path / "a.db")])
    assert result.exit_code == 2
    assert "apt-get install bubblewrap" in result.output
    assert not (tmp_path / "a.db").exists()
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
