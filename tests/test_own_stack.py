"""A user's bot in the referee's process is called on a stack of its own: walking up its frames reaches no
other seat, so it cannot get another bot charged with a fault; its failures, time limits and clock still work."""

import json

import pytest

from arena.cli.main import app
from arena.core.bot import BotSpec
from arena.core.clock import TimeControl
from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, is_arena_code, load_registry
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import line_of, write_module

# Walks every frame below its move, reports what it saw, and swaps any other seat's move it can reach for one
# that returns nonsense: the attack that, on the referee's stack, got innocent opponents charged.
WALKER = '''
import json, sys
from arena.core.bot import Bot

class Walker(Bot):
    name = "walker"
    games = ("tron",)

    def __init__(self, report=""):
        self.report = report

    def act(self, obs):
        frames, others = [], 0
        frame = sys._getframe()
        while frame is not None:
            frames.append(frame.f_code.co_name)
            for value in list(frame.f_locals.values()):
                items = value if isinstance(value, (list, tuple)) else [value]
                for i, item in enumerate(items):
                    owner = getattr(item, "__self__", item)
                    if isinstance(owner, Bot) and owner is not self:
                        others += 1
                        owner.act = lambda obs: "nonsense"
                        if isinstance(value, list):
                            value[i] = owner.act
            frame = frame.f_back
        if self.report:
            with open(self.report, "a") as out:
                out.write(json.dumps({"frames": frames, "others": others}) + "\\n")
        safe = obs.safe_moves()
        return safe[0] if safe else "N"
'''

HONEST = '''
from arena.core.bot import Bot

class Honest(Bot):
    name = "honest"
    games = ("tron",)

    def act(self, obs):
        safe = obs.safe_moves()
        return safe[0] if safe else "N"
'''

FAILING = '''
import time
from arena.core.bot import Bot

class Raiser(Bot):
    name = "raiser"
    games = ("tron",)

    def act(self, obs):
        raise ValueError("no move today")

class Sleeper(Bot):
    name = "sleeper"
    games = ("tron",)

    def act(self, obs):
        time.sleep(30)

class Spinner(Bot):
    name = "spinner"
    games = ("tron",)

    def act(self, obs):
        end = time.thread_time() + 0.3
        while time.thread_time() < end:
            pass
        return obs.safe_moves()[0]

class Unbuildable(Bot):
    name = "unbuildable"
    games = ("tron",)

    def __init__(self):
        raise RuntimeError("cannot build")

    def act(self, obs):
        return "N"
'''


@pytest.fixture
def bots(tmp_path):
    folder = tmp_path / "bots"
    write_module(folder, "walker.py", WALKER)
    write_module(folder, "honest.py", HONEST)
    write_module(folder, "failing.py", FAILING)
    return folder


def _registry(folder):
    return load_registry(PluginConfig(bot_dirs=(str(folder),), use_cwd_bots=False, use_env_path=False))


def test_walking_up_the_stack_ends_at_the_bots_own_loop_and_reaches_no_other_seat(bots, tmp_path):
    report = tmp_path / "walk.jsonl"
    outcome = run_match("tron", [BotSpec("walker", {"report": str(report)}), "wallhugger"],
                        game_map="empty_room", seed=3, registry=_registry(bots))
    walks = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(walks) == outcome.turns
    assert {walk["others"] for walk in walks} == {0}
    assert {tuple(walk["frames"]) for walk in walks} == {("act", "_serve")}
    assert outcome.failures == {}


def test_the_attacker_plays_exactly_as_an_honest_twin_and_no_opponent_is_charged(bots, tmp_path):
    runs = {}
    for name in ("walker", "honest"):
        db = tmp_path / f"{name}.db"
        result = CliRunner().invoke(app, ["tournament", "empty_room", "open_30", "--bots", f"{name},wallhugger,random",
                                          "--games", "2", "--workers", "2", "--seed", "5", "--db", str(db),
                                          "--bots-dir", str(bots)])
        assert result.exit_code == 0, result.output
        with Store(db) as store:
            runs[name] = [(game.record["turns"], game.record["result"], game.record.get("failures"))
                          for game in store.games()]
    assert runs["walker"] == runs["honest"]
    assert all(failures == [] for _, _, failures in runs["walker"])


def test_a_crash_on_its_own_stack_still_names_the_bots_file_and_line(bots):
    outcome = run_match("tron", ["raiser", "wallhugger"], game_map="empty_room", registry=_registry(bots))
    failure = outcome.failures[0]
    assert failure.kind == "crash"
    line = line_of(bots / "failing.py", "no move today")
    assert failure.detail == f"raised ValueError on move 1: no move today ({bots / 'failing.py'}:{line}, in act)"


def test_the_move_alarm_still_interrupts_a_bot_on_its_own_stack(bots):
    outcome = run_match("tron", ["sleeper", "wallhugger"], game_map="empty_room", time_limit=0.05,
                        registry=_registry(bots))
    assert outcome.failures[0].kind == "timeout"
    assert "was still thinking on move 1" in outcome.failures[0].detail  # stopped, not waited for
    assert outcome.turns == 0


def test_the_cpu_clock_still_charges_a_busy_bot_on_its_own_stack(bots):
    outcome = run_match("tron", ["spinner", "wallhugger"], game_map="empty_room", time_limit=None,
                        time_control=TimeControl(bank=1.0, clock="cpu"), registry=_registry(bots))
    assert outcome.failures[0].kind == "timeout"
    assert "of CPU time" in outcome.failures[0].detail
    assert outcome.turns == 3  # 0.3 s a move from a 1 s bank: the fourth move runs out


def test_a_constructor_that_raises_loses_at_start(bots):
    outcome = run_match("tron", ["unbuildable", "wallhugger"], game_map="empty_room", registry=_registry(bots))
    assert outcome.failures[0].kind == "crash"
    assert outcome.failures[0].detail.startswith("raised RuntimeError in start(): cannot build (")
    assert outcome.ranks == (2, 1)


def test_shipped_bots_are_called_directly_and_user_bots_on_their_own_stack(bots):
    registry = _registry(bots)
    assert is_arena_code(registry.bot("wallhugger"))
    assert not is_arena_code(registry.bot("walker"))


NESTED = '''
from arena.core.bot import Bot
from arena.play.referee import run_match

class Rehearser(Bot):
    name = "rehearser"
    games = ("tron",)

    def act(self, obs):
        rehearsal = run_match("tron", ["honest", "wallhugger"], game_map="empty_room", seed=1,
                              registry=self.registry)
        assert rehearsal.failures == {}, rehearsal.reason
        safe = obs.safe_moves()
        return safe[0] if safe else "N"
'''


def test_a_bot_that_plays_games_of_its_own_gets_stacks_of_its_own(bots):
    write_module(bots, "nested.py", NESTED)
    registry = _registry(bots)
    registry.bot("rehearser").cls.registry = registry
    outcome = run_match("tron", ["rehearser", "honest"], game_map="empty_room", seed=2, registry=registry)
    twin = run_match("tron", ["honest", "honest"], game_map="empty_room", seed=2, registry=registry)
    assert outcome.failures == {}
    assert outcome.actions == twin.actions
