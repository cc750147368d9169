"""A game's bot, cloned by its zygote straight into its namespaces: an ordinary process to itself (the C library
records its own thread id, pid 1 of its namespace, as its own fork would have it), and one that stops itself to
be traced by the zygote ends its own game, not the zygote (the next game is forked by the same one)."""

import pytest

from arena.play.referee import run_match
from arena.play.sandbox import SandboxedBots, SandboxLimits
from arena.play.sandbox.probe import SandboxProbe
from arena.plugins.registry import PluginConfig, load_registry
from tests.helpers import write_module
from tests.test_sandbox_zygote import zygote_processes, zygote_sandboxes

pytestmark = [pytest.mark.needs("bwrap"), pytest.mark.slow]

RAISER = '''
import ctypes, os, signal, threading
from arena import Bot

class Raiser(Bot):
    name = "raiser"
    games = ("tron",)

    def act(self, obs):
        if not getattr(self, "checked", False):
            self.checked = True
            libc = ctypes.CDLL(None, use_errno=True)
            where = ctypes.c_void_p()
            libc.prctl(40, ctypes.byref(where), 0, 0, 0)  # PR_GET_TID_ADDRESS: the C library's own record
            recorded = ctypes.c_int.from_address(where.value).value
            caught = []
            signal.signal(signal.SIGUSR1, lambda number, frame: caught.append(number))
            signal.raise_signal(signal.SIGUSR1)
            if (recorded, threading.get_native_id(), os.getpid(), caught) != (1, 1, 1, [signal.SIGUSR1]):
                raise RuntimeError(f"NOT ITS OWN PROCESS: {recorded}, {threading.get_native_id()}, {caught}")
        return obs.legal_moves()[0]
'''

TRACED = '''
import ctypes, signal
from arena import Bot

class Traced(Bot):
    name = "traced"
    games = ("tron",)

    def act(self, obs):
        if not getattr(self, "stopped", False):
            self.stopped = True
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.ptrace(0, 0, 0, 0) != 0:  # PTRACE_TRACEME: its parent, the zygote, becomes its tracer
                raise RuntimeError("TRACEME REFUSED")
            signal.signal(signal.SIGUSR1, lambda number, frame: None)
            signal.raise_signal(signal.SIGUSR1)  # a traced process stops for its tracer at each signal
        return obs.legal_moves()[0]
'''


@pytest.fixture
def confined(tmp_path):
    write_module(tmp_path, "raiser.py", RAISER)
    write_module(tmp_path, "traced.py", TRACED)
    config = PluginConfig(bot_dirs=(str(tmp_path),), use_cwd_bots=False, use_env_path=False,
                          confined=SandboxProbe(SandboxLimits()))
    registry = load_registry(config)
    made = SandboxedBots(config, SandboxLimits(), registry)
    yield registry, made
    made.close()


def test_a_bot_raising_a_signal_gets_it_in_its_own_process(confined):
    registry, make = confined
    outcome = run_match("tron", ["raiser", "wallhugger"], game_map="empty_room", seed=2, time_limit=5,
                        registry=registry, make_bot=make)
    assert outcome.failures == {}, outcome.stderr
    assert outcome.turns > 1


def test_a_bot_stopping_itself_for_its_zygote_loses_its_game_and_leaves_the_zygote_serving(confined):
    registry, make = confined
    games, sandboxes = [], []
    for _ in range(2):
        games.append(run_match("tron", ["traced", "wallhugger"], game_map="empty_room", seed=2, time_limit=5,
                               registry=registry, make_bot=make))
        # its game is over: the stopped bot was killed with its namespace, not left stopped
        assert [pids for pids in zygote_processes() if len(pids.split()) > 2] == []
        sandboxes.append(zygote_sandboxes())
    for outcome in games:
        assert outcome.failures[0].kind == "crash", outcome.reason
        assert "SIGKILL" in outcome.failures[0].detail, outcome.failures[0].detail
        assert 1 not in outcome.failures
    assert len(sandboxes[0]) == 2 and sandboxes[1] == sandboxes[0]  # the same two zygotes played both games
