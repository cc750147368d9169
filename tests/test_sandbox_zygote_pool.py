"""The zygotes a process keeps: every one it started is stopped with the bots that use it, a game of a bot that
plays both seats reuses the two it started, and a game never runs in a zygote another thread started (that
thread's end kills it: ``--die-with-parent`` follows the thread that started bubblewrap)."""

import threading

import pytest

from arena.play.referee import run_match
from arena.play.sandbox import SandboxedBots, SandboxLimits
from arena.play.sandbox.probe import SandboxProbe
from arena.plugins.registry import PluginConfig, load_registry
from tests.helpers import write_module
from tests.test_sandbox_zygote import zygote_sandboxes

pytestmark = [pytest.mark.needs("bwrap"), pytest.mark.slow]

DOZER = '''
import time
from arena import Bot

class Dozer(Bot):
    name = "dozer"
    games = ("tron",)

    def act(self, obs):
        if not getattr(self, "checked", False):
            self.checked = True
            levels = [row for row in open("/proc/self/status") if row.startswith("NSpid:")][0].split()[1:]
            if len(levels) < 2:
                raise RuntimeError("NOT FORKED BY A ZYGOTE")
            time.sleep(0.6)
        return obs.legal_moves()[0]
'''


@pytest.fixture(scope="module")
def boxed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bots")
    write_module(folder, "dozer.py", DOZER)
    config = PluginConfig(bot_dirs=(str(folder),), use_cwd_bots=False, use_env_path=False,
                          confined=SandboxProbe(SandboxLimits()))
    registry = load_registry(config)
    return config, registry


def test_a_bot_playing_both_seats_reuses_its_two_zygotes_and_closing_stops_them(boxed):
    config, registry = boxed
    confined = SandboxedBots(config, SandboxLimits(), registry)
    try:
        # the second seat's zygote starts while the first seat's plays: both are kept, neither forgotten
        first = run_match("tron", ["wallhugger", "wallhugger"], game_map="empty_room", seed=3, time_limit=5,
                          registry=registry, make_bot=confined)
        started = zygote_sandboxes()
        assert len(started) == 2 and first.failures == {}, first.stderr
        second = run_match("tron", ["wallhugger", "wallhugger"], game_map="empty_room", seed=3, time_limit=5,
                           registry=registry, make_bot=confined)
        assert (second.ranks, second.actions) == (first.ranks, first.actions)
        assert zygote_sandboxes() == started  # the same two played it: none started, none left behind
    finally:
        confined.close()  # what a worker does before it exits
    assert zygote_sandboxes() == []


def test_a_game_never_runs_in_a_zygote_of_another_thread_whose_end_kills_it(boxed):
    config, registry = boxed
    confined = SandboxedBots(config, SandboxLimits(), registry)
    release = threading.Event()
    earlier = []

    def other_thread():
        earlier.append(run_match("tron", ["dozer", "wallhugger"], game_map="empty_room", seed=5, time_limit=5,
                                 registry=registry, make_bot=confined))
        release.wait(30)  # then it ends, and its zygotes with it (in the middle of this thread's game)

    thread = threading.Thread(target=other_thread)
    thread.start()
    try:
        while not earlier:
            assert thread.is_alive()
            thread.join(0.05)
        threading.Timer(0.2, release.set).start()  # while the dozer naps in its first move here
        outcome = run_match("tron", ["dozer", "wallhugger"], game_map="empty_room", seed=5, time_limit=5,
                            registry=registry, make_bot=confined)
        thread.join()
        assert outcome.failures == {}, outcome.stderr
        assert (outcome.ranks, outcome.actions) == (earlier[0].ranks, earlier[0].actions)
        assert earlier[0].failures == {}, earlier[0].stderr
    finally:
        release.set()
        thread.join()
        confined.close()
    assert zygote_sandboxes() == []


NOTER = '''
import sys
from arena import Bot

SEEN = "arena.games.tron.observation" in sys.modules


class Noter(Bot):
    name = "noter"
    games = ("tron",)

    def act(self, obs):
        if not getattr(self, "told", False):
            self.told = True
            print("imported before the game" if SEEN else "imported by the game", file=sys.stderr)
        return obs.legal_moves()[0]
'''


def test_a_zygote_imports_the_games_observation_module_after_its_first_game(tmp_path):
    write_module(tmp_path, "noter.py", NOTER)
    config = PluginConfig(bot_dirs=(str(tmp_path),), use_cwd_bots=False, use_env_path=False,
                          confined=SandboxProbe(SandboxLimits()))
    registry = load_registry(config)
    confined = SandboxedBots(config, SandboxLimits(), registry)
    try:
        told = [run_match("tron", ["noter", "wallhugger"], game_map="empty_room", seed=3, time_limit=5,
                          registry=registry, make_bot=confined).stderr[0].strip() for _ in range(3)]
    finally:
        confined.close()
    # the first game's bot unpickles its first observation into a zygote that never saw one; the zygote is then
    # asked to import its module, and every later game of it starts with the module there
    assert told == ["imported by the game", "imported before the game", "imported before the game"]
