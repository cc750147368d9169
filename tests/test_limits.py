"""Bots that misbehave in every way a real tournament has seen lose their games, and nothing else."""

import json
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.format_options import split_formats
from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.play.limits import Limits, parse_memory

from .conftest import line_of

MISBEHAVING = Path(__file__).parent / "misbehaving"
DYING = MISBEHAVING / "dying.py"
runner = CliRunner()

STOPPED = "was still thinking on move 2 after {t} s (the time limit and its grace), and was stopped"
# bot -> (failure kind, the reason's wording after "player N (bot) ")
EXPECTED = {
    "looper": ("timeout", STOPPED),
    "sleeper": ("timeout", STOPPED),
    "cblocker": ("timeout", "was still thinking 0.50 s after its move started, and its worker was killed"),
    "deadlocker": ("timeout", STOPPED),
    "hog": ("memory", "ran out of memory on move 2 (MemoryError)"),
    "exiter": ("crash", "killed its worker process (exit status 7)"),
    "aborter": ("crash", "killed its worker process (signal SIGABRT)"),
    "segfaulter": ("crash", "killed its worker process (signal SIGSEGV)"),
    "quitter": ("crash", f"raised SystemExit on move 2: 3 ({DYING}:{line_of(DYING, 'sys.exit(3)')}, in quitter)"),
    "slowpoke": ("timeout", STOPPED),
}
ISOLATED = {
    "looper": EXPECTED["looper"],
    "cblocker": ("timeout", STOPPED),
    "hog": ("memory", "ran out of memory in its own process (MemoryError) on move 2"),
    "exiter": ("crash", "killed its own process (exit status 7) on move 2"),
    "segfaulter": ("crash", "killed its own process (signal SIGSEGV) on move 2"),
    "quitter": EXPECTED["quitter"],
}


def play_gauntlet(bots, *extra):
    result = runner.invoke(app, [
        "tournament", "empty_room", "--bots-dir", str(MISBEHAVING), "--gauntlet", "steady", "-b", ",".join(bots),
        "-n", "2", "--time-limit", "0.2", "--memory-limit", "1G", "-w", "2", "-f", "json", "--db", "limits.db",
        *extra])
    assert result.exit_code == 0, result.output
    standings = {row["bot"]: row for row in json.loads(result.stdout)["standings"]}
    with sqlite3.connect("limits.db") as conn:
        reasons = [(json.loads(seats), reason, duration)
                   for seats, reason, duration in conn.execute("SELECT seats, reason, duration FROM games")]
    return standings, reasons


def check_verdicts(expected, standings, reasons, games_each=2):
    steady, noisy = standings["steady"], standings["noisy"]
    assert steady["wins"] == games_each * len(expected) + noisy["losses"]
    assert steady["losses"] == noisy["wins"] and steady["draws"] == noisy["draws"]
    for bot, (kind, _) in expected.items():
        row = standings[bot]
        assert (row["wins"], row["draws"], row["losses"]) == (0, 0, games_each), bot
        failures = {k: row[k] for k in ("timeout", "crash", "illegal", "memory") if row[k]}
        assert failures == {kind: games_each}, bot
    for seats, reason, _ in reasons:
        bad = next(seat for seat in seats if seat["label"] != "steady")["label"]
        seat = next(i for i, s in enumerate(seats) if s["label"] == bad)
        words = re.escape(f"player {seat + 1} ({bad}) {expected[bad][1]}").replace(re.escape("{t}"), r"(\d+\.\d\d)")
        match = re.fullmatch(words, reason)
        assert match, (reason, expected[bad][1])
        if match.groups():  # the time taken, never short of the limit (0.2 s); how far past it depends on the load
            assert float(match[1]) >= 0.2


@pytest.mark.slow
def test_every_kind_of_misbehaviour_loses_only_its_own_games():
    bots = [*EXPECTED, "noisy"]
    standings, reasons = play_gauntlet(bots)
    assert len(reasons) == 2 * len(bots)  # the tournament finished: every game is stored
    check_verdicts(EXPECTED, standings, [r for r in reasons if "noisy" not in {s["label"] for s in r[0]}])
    # garbage on stdout and stderr neither corrupts the JSON above nor costs the noisy bot anything
    noisy = standings["noisy"]
    assert {k: noisy[k] for k in ("timeout", "crash", "illegal", "memory")} == dict.fromkeys(
        ("timeout", "crash", "illegal", "memory"), 0)


@pytest.mark.slow
def test_isolated_bots_fail_alone_in_their_own_processes():
    standings, reasons = play_gauntlet([*ISOLATED, "noisy"], "--isolate")
    assert len(reasons) == 2 * (len(ISOLATED) + 1)
    check_verdicts(ISOLATED, standings, [r for r in reasons if "noisy" not in {s["label"] for s in r[0]}])


def test_memory_sizes_parse_and_refuse_nonsense():
    assert parse_memory("2G") == 2 << 30
    assert parse_memory("512M") == 512 << 20
    assert parse_memory("1.5GiB") == 3 << 29
    with pytest.raises(ArenaError, match="is not a size like 512M or 2G"):
        parse_memory("lots")
    with pytest.raises(ArenaError, match="too small"):
        parse_memory("10M")
    assert Limits(grace=0.1, kill_margin=0.2).kill_after(1.0) == pytest.approx(1.3)


def test_format_option_takes_a_tournament_format_and_an_output_format():
    assert split_formats(None) == (None, "table")
    assert split_formats(["swiss", "json"]) == ("swiss", "json")
    assert split_formats(["gauntlet,md"]) == ("gauntlet", "md")
    with pytest.raises(ArenaError, match="two output formats"):
        split_formats(["md", "csv"])
    with pytest.raises(ArenaError, match="not a tournament format"):
        split_formats(["latex2"])
