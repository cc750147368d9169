"""The bots of ``tests/misbehaving`` played in a gauntlet, and the verdict each kind of misbehaviour earns."""

import json
import re
import sqlite3
from pathlib import Path

from arena.cli.main import app
from tests.cli_runner import CliRunner
from tests.helpers import line_of

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
    """Play ``bots`` against ``steady`` on empty_room: the standings by bot and each game's seats, reason, duration."""
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
    """Every misbehaving bot lost all its games for the failure ``expected`` names, and only those."""
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
