"""``arena check bot`` stops at the first failure it sees a second time, and says when a program that never
wrote a line may have left its output in a buffer."""

from pathlib import Path
from textwrap import dedent

from arena.cli.main import app
from tests.cli_runner import CliRunner

PROGRAMS = Path(__file__).parent / "programs"

UNFLUSHED = '''
    """Plays the first legal move, but never flushes what it prints: a pipe holds it back."""
    import json
    import sys

    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            print(json.dumps({"type": "ready"}))
        elif message["type"] == "turn":
            print(json.dumps({"action": message["legal"][0]}))
        else:
            break
    '''


def test_a_program_that_never_flushes_times_out_once_and_gets_the_hint(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # the program's Python would flush every print
    program = tmp_path / "bots" / "unflushed"
    program.mkdir(parents=True)
    (program / "bot.py").write_text(dedent(UNFLUSHED))
    (program / "arena-bot.toml").write_text('name = "unflushed"\ngames = ["tron"]\ncommand = ["python3", "bot.py"]\n'
                                             "startup_timeout = 0.5\n")
    checked = CliRunner().invoke(app, ["check", "bot", "unflushed", "--bots-dir", str(tmp_path / "bots")])
    assert checked.exit_code == 1
    subject, spec, *failures = checked.stdout.splitlines()
    assert (subject, spec.startswith("ok    spec: unflushed (version ")) == ("bot 'unflushed'", True)
    assert failures == [
        "FAIL  timeout: empty_room, player 1 against random, seed 0: timeout: did not say ready within 0.5 s of "
        "starting, and was killed in start()",
        "FAIL  stopped: empty_room, player 1 against random, seed 1: the same timeout again, so the other games "
        "were not played; it never wrote a whole line: its output may be buffered, so flush stdout after every "
        "line (print(..., flush=True) or python3 -u in Python, fflush(stdout) in C, std::endl in C++)"]


def test_a_program_that_answered_before_timing_out_gets_no_hint():
    # sleeper says ready, then sleeps on its first turn
    checked = CliRunner().invoke(app, ["check", "bot", "sleeper", "--bots-dir", str(PROGRAMS), "-m", "empty_room",
                                       "--time-limit", "0.1"])
    assert checked.exit_code == 1
    assert checked.stdout.splitlines()[2:] == [
        "FAIL  timeout: empty_room, player 1 against random, seed 0: timeout: did not answer within 0.15 s (the "
        "time limit and its grace), and was killed on move 1",
        "FAIL  stopped: empty_room, player 1 against random, seed 1: the same timeout again, so the other games "
        "were not played"]


def test_the_same_failure_again_is_told_apart_from_its_measurements(tmp_path):
    # the two seats' failures differ only in a measured time, as a timeout's "took 0.213 s" does
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "tired.py").write_text(dedent('''
        from arena import Bot

        class Tired(Bot):
            name = "tired"
            games = ("tron",)

            def start(self, info):
                self.seconds = 0.5 + info.seat

            def act(self, obs):
                raise RuntimeError(f"gave up after {self.seconds:.3f} s")
        '''))
    checked = CliRunner().invoke(app, ["check", "bot", "tired", "--bots-dir", str(tmp_path / "bots"), "-m",
                                       "empty_room", "--games", "1"])
    assert checked.exit_code == 1
    failures = [line for line in checked.stdout.splitlines() if line.startswith("FAIL")]
    assert failures[0].startswith("FAIL  crash: empty_room, player 1 against random, seed 0: crash: raised "
                                  "RuntimeError on move 1: gave up after 0.500 s")
    assert failures[1:] == ["FAIL  stopped: empty_room, player 2 against random, seed 0: the same crash again, so "
                            "the other games were not played"]
