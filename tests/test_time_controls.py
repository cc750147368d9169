"""Time controls: a bank with an increment, Kaggle's overage, a first-move budget and the CPU clock, for bots in
the arena's process and for programs over arena-json.

The bots sleep or spin for 0.3 s (tests/clocked), so each outcome below holds with a wide margin: a move
costs at least what the bot slept, and the margins allow tens of milliseconds of scheduling delay a move.
"""

import itertools
import json
import sys
import time
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.core.clock import Clock, TimeControl, parse_bank_increment, time_control
from arena.core.errors import ArenaError
from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, load_registry
from arena.report.time_use import time_use_by_bot
from arena.storage.replay import check_records, validate
from arena.storage.store import Store
from arena.tournament.runner import resume_run
from tests.cli_runner import CliRunner
from tests.helpers import write_module

CLOCKED = Path(__file__).parent / "clocked"
runner = CliRunner()


@pytest.fixture(scope="module")
def registry():
    return load_registry(PluginConfig(bot_dirs=(str(CLOCKED),), use_cwd_bots=False, use_env_path=False))


def play(registry, bot, time_limit=None, bank=None, clock="wall", first_move=None):
    """One game of ``bot`` (seat 0) against the wall hugger on the empty room, and its record."""
    control = time_control(bank, first_move, clock)
    outcome = run_match("tron", [bot, "wallhugger"], game_map="empty_room", time_limit=time_limit,
                        time_control=control, registry=registry)
    return outcome, outcome.record()


def bank_after(record, seat=0):
    """The bank left to ``seat`` after each of its moves."""
    return [turn[str(seat)] for turn in record["clocks"] if str(seat) in turn]


def test_a_sleeper_loses_under_the_limit_keeps_a_bank_and_runs_out_of_a_small_one(registry):
    outcome, _ = play(registry, "napper", time_limit=0.1)
    assert outcome.failures[0].kind == "timeout" and "on move 1" in outcome.failures[0].detail

    outcome, record = play(registry, "napper", bank="3+0")
    assert 0 not in outcome.failures and outcome.turns > 6  # its clock held: the board decided the game
    after = bank_after(record)
    assert 1.5 - 0.25 < after[4] <= 1.5  # five naps of 0.3 s off 3 s, each at least 0.3 s
    assert after[5] == pytest.approx(after[4], abs=0.05)  # then it answers at once and its clock stays put
    assert record["time_control"] == {"time_limit": None, "bank": 3.0, "increment": 0.0}

    outcome, record = play(registry, "napper", bank="1+0")
    assert outcome.turns == 3 and outcome.failures[0].kind == "timeout"
    assert "on move 4" in outcome.failures[0].detail
    assert outcome.reason.startswith("player 1 (napper)")


def test_an_increment_keeps_a_slow_bot_alive(registry):
    slow = "napper:nap=0.2,naps=8"
    outcome, _ = play(registry, slow, bank="0.5+0")  # 0.5, 0.3, 0.1: the third nap is over
    assert outcome.failures[0].kind == "timeout" and "on move 3" in outcome.failures[0].detail
    outcome, record = play(registry, slow, bank="0.5+0.3")  # each move gains 0.1 s net
    assert 0 not in outcome.failures and outcome.turns > 8
    after = bank_after(record)
    assert all(later > earlier for earlier, later in itertools.pairwise(after[:8]))


def test_overage_charges_only_the_time_past_the_limit(registry):
    outcome, record = play(registry, "napper", time_limit=0.1, bank="3+0")  # Kaggle: 0.1 s free, then the bank
    assert 0 not in outcome.failures
    after = bank_after(record)
    assert 2.0 - 0.25 < after[4] <= 2.0  # five moves of 0.3 s cost 0.2 s each
    outcome, _ = play(registry, "napper", time_limit=0.1, bank="0.5+0")  # 0.3, 0.1, then out
    assert "on move 3" in outcome.failures[0].detail


def test_the_first_move_has_its_own_time(registry):
    outcome, _ = play(registry, "napper:naps=1", time_limit=0.1, first_move=0.5)
    assert not outcome.failures and outcome.turns > 6
    outcome, record = play(registry, "napper:naps=1", bank="1+0", first_move=0.5)
    assert bank_after(record)[0] == 1.0  # the first move's 0.3 s came out of its own half second
    outcome, _ = play(registry, "napper:naps=2", time_limit=0.1, first_move=0.5)
    assert "on move 2" in outcome.failures[0].detail


@pytest.mark.slow
def test_the_cpu_clock_does_not_charge_sleep_but_charges_work(registry):
    outcome, record = play(registry, "napper", bank="1+0", clock="cpu")  # would lose on move 4 by the wall
    assert 0 not in outcome.failures
    assert bank_after(record)[5] > 0.9
    outcome, record = play(registry, "napper:busy=true", bank="1+0", clock="cpu")
    assert outcome.failures[0].kind == "timeout"  # on move 4 (on a machine so busy that a spin takes
    assert outcome.turns <= 3                     # three times its CPU time in elapsed time, earlier)
    after = bank_after(record)
    assert all(left <= 1.0 - 0.3 * move for move, left in enumerate(after, start=1))  # each spin cost its CPU


def test_a_python_bot_reads_its_clock_from_the_referee(registry):
    seen = []

    def keep(spec, seat):
        bot = registry.bot(spec.name).cls(**spec.params)
        if seat == 0:
            seen.append(bot)
        return bot

    run_match("tron", ["napper:naps=2", "wallhugger"], game_map="empty_room", time_limit=None,
              time_control=time_control("2+0.5"), registry=registry, make_bot=keep)
    left = seen[0].seen
    assert 2.0 - 0.05 < left[0] <= 2.0  # at the start of the first move: the whole bank, going down as it thinks
    assert 2.0 + 0.5 - 0.3 - 0.05 < left[1] <= 2.0 + 0.5 - 0.3  # a nap off, the increment on
    assert left[2] > left[1] and left[3] == pytest.approx(left[2] + 0.5, abs=0.05)


def _program(mode):
    return f"exec:command={sys.executable} clocked.py {mode},dir={CLOCKED / 'program'}"


def _time_left(outcome):
    return [float(line.split()[1]) for line in outcome.stderr[0].splitlines() if line.startswith("time_left")]


def test_a_program_sees_its_clock_go_down_by_the_wall(registry):
    outcome, record = play(registry, _program("sleep"), bank="3+0")
    left = _time_left(outcome)
    assert left[0] == 3.0
    for move in range(1, 6):  # each of the five naps took at least 0.3 s, and not much more
        assert 3.0 - 0.35 * move < left[move] <= 3.0 - 0.3 * move
    assert left[6] == pytest.approx(left[5], abs=0.05)
    assert bank_after(record)[4] == pytest.approx(left[5], abs=0.001)


@pytest.mark.slow
def test_a_program_under_the_cpu_clock_pays_for_work_not_sleep(registry):
    outcome, _ = play(registry, _program("sleep"), bank="3+0", clock="cpu")
    assert min(_time_left(outcome)) > 2.9
    outcome, _ = play(registry, _program("busy"), bank="3+0", clock="cpu")
    left = _time_left(outcome)
    for move in range(1, 6):  # its process's CPU, read in ticks of 10 ms
        assert 3.0 - 0.4 * move < left[move] <= 3.0 - 0.28 * move


def test_time_controls_parse_and_refuse_other_forms():
    assert parse_bank_increment("10+0.1") == (10.0, 0.1)
    assert parse_bank_increment("60") == (60.0, 0.0)
    with pytest.raises(ArenaError, match="moves-per-period"):
        parse_bank_increment("40/60+0.6")
    for text in ("ten", "10+", "-1+0", "0+1", "1e3+0"):
        with pytest.raises(ArenaError):
            parse_bank_increment(text)
    with pytest.raises(ArenaError, match="--clock 'gpu'"):
        time_control(None, None, "gpu")
    clock = Clock(TimeControl(bank=10.0, increment=0.1), None)
    clock.begin_move()
    assert clock.end_move(2.5) and clock.bank == pytest.approx(7.6)  # the docs' chess example
    clock = Clock(TimeControl(bank=5.0), 1.0)
    clock.begin_move()
    assert clock.end_move(2.5) and clock.bank == pytest.approx(3.5)  # and their Kaggle one: 1.5 s off the bank


@pytest.mark.parametrize(("args", "message"), [
    (["--time-control", "40/60+0.6"], "moves-per-period controls (40/60+0.6) are not supported"),
    (["--time-control", "fast"], "is not BANK+INC in seconds"),
    (["--clock", "gpu"], "--clock 'gpu' is not one of: wall, cpu"),
    (["--first-move", "0"], "--first-move must be a positive number"),
])
def test_bad_time_controls_are_one_line_errors(args, message):
    for command in (["play", "random", "random"], ["tournament", "empty_room", "-n", "1"],
                    ["compare", "random", "wallhugger", "--sprt", "0,10"], ["check", "bot", "random"],
                    ["ladder"]):
        result = runner.invoke(app, [*command, *args, "--db", "none.db"] if command[0] in ("tournament", "ladder",
                                                                                        "compare")
                               else [*command, *args])
        assert result.exit_code == 2, (command, result.output)
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.output
    assert not Path("none.db").exists()


def test_play_shows_time_use_under_a_time_control():
    result = runner.invoke(app, ["play", "random", "wallhugger", "--map", "empty_room", "--quiet",
                                 "--time-control", "5+0.1", "--clock", "cpu"])
    assert result.exit_code == 0, result.output
    assert "Time use:" in result.stdout and "left on its clock" in result.stdout


def test_a_tournament_file_keeps_its_time_control_through_storage_and_resume(tmp_path, registry):
    path = write_module(tmp_path, "timed.toml", """\
        maps = ["empty_room"]
        bots = ["napper:naps=1,nap=0.05", "wallhugger"]
        games = 2
        time_control = "2+0.5"
        first_move = 0.5
        clock = "cpu"
        """)
    result = runner.invoke(app, ["tournament", str(path), "--db", "t.db", "-w", "1", "--bots-dir", str(CLOCKED)])
    assert result.exit_code == 0, result.output
    assert "Time use" in result.stdout
    with Store("t.db") as store:
        definition = store.run(1).definition
        records = [row.record for row in store.games(1)]
        assert {k: definition[k] for k in ("time_control", "first_move", "clock", "time_limit")} == {
            "time_control": "2+0.5", "first_move": 0.5, "clock": "cpu", "time_limit": None}
        resumed = resume_run(store, 1, registry)
    setup = resumed.run.plan.first_stage()[0]
    assert setup.time_limit is None
    assert setup.time_control == TimeControl(bank=2.0, increment=0.5, first_move=0.5, clock="cpu")
    assert all(r["time_control"] == {"time_limit": None, "bank": 2.0, "increment": 0.5, "first_move": 0.5,
                                     "clock": "cpu"} for r in records)
    assert all(len(r["clocks"]) == len(r["turns"]) for r in records)
    report = check_records([("game", validate(r, "game")) for r in records], registry)
    assert report.agree == len(records)
    shown = runner.invoke(app, ["show", "1", "0", "--db", "t.db"])
    assert "Time use:" in shown.stdout and "max" in shown.stdout
    reported = runner.invoke(app, ["report", "1", "--db", "t.db", "--html", "report.html", "--no-replays"])
    assert reported.exit_code == 0 and "<h2>Time use</h2>" in Path("report.html").read_text()


def test_time_use_reads_mean_longest_and_clock_left_from_records():
    record = {"players": [{"seat": 0, "bot": "a"}, {"seat": 1, "bot": "b"}],
              "turns": [{"0": "N", "1": "S"}, {"0": "E"}], "think_time": [0.5, 0.1], "max_think_time": [0.3, 0.1],
              "clocks": [{"0": 2.7, "1": 3.0}, {"0": 2.5}]}
    a, b = time_use_by_bot([record, record])
    assert (a.label, a.games, a.moves, a.mean(), a.longest, a.clock_left / a.clocked) == ("a", 2, 4, 0.25, 0.3, 2.5)
    assert b.text() == "2 moves, mean 0.100 s, max 0.100 s a move, 3.000 s left on its clock on average"
    older = {key: value for key, value in record.items() if key not in ("max_think_time", "clocks")}
    assert time_use_by_bot([older])[0].text() == "2 moves, mean 0.250 s"


def test_records_without_clocks_still_replay_and_check(registry):
    _, record = play(registry, "napper:naps=0", time_limit=1.0)
    assert not {"clocks", "time_control", "max_think_time"} & set(record)  # a plain game's record is as before
    _, timed = play(registry, "napper:naps=0", bank="5+0")
    older = {key: value for key, value in timed.items() if key not in ("clocks", "time_control", "max_think_time")}
    report = check_records([(name, validate(json.loads(json.dumps(r)), name))
                            for name, r in (("plain", record), ("timed", timed), ("older", older))], registry)
    assert report.agree == 3


SANDBOXED_NAPPER = '''
import sys, time
from arena import Bot


class Napper(Bot):
    """Sleeps a second on its first two moves, printing what its clock says at the start of each move."""

    name = "boxed_napper"
    games = ("tron",)

    def start(self, info):
        self.clock, self.moves, self.heading = info.clock, 0, "E"

    def act(self, obs):
        print("time_left", self.clock.time_left(), file=sys.stderr, flush=True)
        self.moves += 1
        if self.moves <= 2:
            time.sleep(1.0)
        safe = obs.safe_moves()
        if self.heading not in safe and safe:
            self.heading = safe[0]
        return self.heading
'''


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_a_sandboxed_python_bot_reads_its_clock_from_the_referee(tmp_path):
    from arena.play.sandbox import SandboxedBots, SandboxLimits
    from arena.play.sandbox.probe import SandboxProbe

    folder = tmp_path / "boxed"
    write_module(folder, "boxed_napper.py", SANDBOXED_NAPPER)
    config = PluginConfig(bot_dirs=(str(folder),), use_cwd_bots=False, use_env_path=False,
                          confined=SandboxProbe(SandboxLimits()))
    registry = load_registry(config)
    outcome = run_match("tron", ["boxed_napper", "wallhugger"], game_map="empty_room", time_limit=None,
                        time_control=time_control("4+0.5"), registry=registry,
                        make_bot=SandboxedBots(config, SandboxLimits(), registry))
    left = _time_left(outcome)
    assert len(left) >= 4, outcome.stderr
    # A nap (1 s) is far longer than a loaded machine's round trip to the sandbox (up to about 0.3 s seen), so
    # the margins below tell a nap charged from one not charged whatever the load.
    assert 4.0 - 0.6 < left[0] <= 4.0  # the whole bank at the start of the first move
    assert 4.0 + 0.5 - 1.0 - 0.6 < left[1] <= 4.0 + 0.5 - 1.0  # a nap off, the increment on
    assert left[1] + 0.5 - 1.0 - 0.6 < left[2] <= left[1] + 0.5 - 1.0  # the second nap off, the increment on
    assert left[2] + 0.5 - 0.6 < left[3] <= left[2] + 0.5  # no nap: the increment on


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_a_sandboxed_program_under_the_cpu_clock_pays_for_work_not_sleep(registry):
    from arena.play.sandbox import SandboxedBots, SandboxLimits

    def boxed(mode):
        return run_match("tron", [_program(mode), "wallhugger"], game_map="empty_room", time_limit=None,
                         time_control=time_control("3+0", None, "cpu"), registry=registry,
                         make_bot=SandboxedBots(PluginConfig(), SandboxLimits(), registry))

    sleeper = boxed("sleep")
    assert 0 not in sleeper.failures and min(_time_left(sleeper)) > 2.9, sleeper.stderr
    left = _time_left(boxed("busy"))  # its CPU time, read across the sandbox's PID namespace
    for move in range(1, 6):
        assert 3.0 - 0.4 * move < left[move] <= 3.0 - 0.28 * move


def test_a_move_starts_at_the_clocks_own_reading():
    wall, cpu = Clock(TimeControl(), 1.0), Clock(TimeControl(clock="cpu"), 1.0)
    assert wall.reading is time.perf_counter and cpu.reading is time.thread_time
    before = time.perf_counter()
    started = wall.begin_move()
    now = time.perf_counter()
    assert before <= started <= now
    assert wall.time_left() <= 1.0 - (now - started)  # counted from the reading begin_move returned
    assert wall.end_move(0.5) and wall.moves == 1
