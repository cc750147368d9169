"""Stored bot versions: each version's source kept the first time it plays, played again as name@version in
tournaments (any number of workers), compare and play; a program bot's version is its sources' alone; a
resumed run finds its bots where it found them."""

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from textwrap import dedent

import pytest

from arena.cli.main import app
from arena.plugins.programs.manifest import directory_version
from arena.plugins.stored_roots import process_root
from arena.storage import summaries
from arena.storage.migrations import SCHEMA_VERSION
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import games_stored, write_module

runner = CliRunner()
PROGRAMS = Path(__file__).parent / "programs"

# The first free move in this order: north first (the old version), or west first (the new one).
HUGGER = """
    from arena import bot

    @bot(name="{name}", game="tron")
    def hugger(obs, rng, patience: int = 0):
        \"\"\"The first free move of a fixed order.\"\"\"
        moves = obs.safe_moves()
        for move in "{order}":
            if move in moves:
                return move
        return "N"
    """
OLD, NEW = "NESW", "WSEN"


@pytest.fixture(autouse=True)
def _own_temporary_directory(tmp_path, monkeypatch):
    """Stored versions unpack under this test's own temporary directory, in this process and its workers."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def write_hugger(directory, order, name="hugger", module="hugger.py"):
    return write_module(directory, module, HUGGER.format(name=name, order=order))


def version_of(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:8]


def games_of(db, run_id):
    """(labels, ranks, turns) of every game of a run, in schedule order."""
    with Store(db) as store:
        return [(row.labels, row.ranks, row.record["turns"]) for row in store.games(run_id=run_id)]


def versions_of(db):
    with Store(db) as store:
        return {row["label"]: row["version"] for row in store.bot_rows()}


def tournament(*args):
    result = invoke("tournament", "empty_room", "-n", "2", "--seed", "3", *args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def relabelled(games, names):
    return [(tuple(names.get(label, label) for label in labels), ranks, turns) for labels, ranks, turns in games]


@pytest.mark.slow
def test_an_older_stored_version_plays_as_its_old_source_beside_the_current_one():
    old_path = write_hugger(Path("bots"), OLD)
    old = version_of(old_path)
    tournament("-b", "hugger,random", "-w", "1")  # run 1: the old version plays, and its module is kept
    with Store("arena.db") as store:
        assert store.source_versions("hugger") == [(old, "python")]
        assert store.source_files("hugger", old) == [("hugger.py", 0o644, old_path.read_bytes())]
    write_hugger(Path("bots"), NEW)
    new = version_of(old_path)
    assert new != old

    # run 2, on two workers: the stored version by a prefix of its version plays as the old source did in run 1
    tournament("-b", f"hugger@{old[:4]},random", "-w", "2")
    assert games_of("arena.db", 2) == relabelled(games_of("arena.db", 1), {"hugger": f"hugger@{old}"})
    tournament("-b", "hugger,random", "-w", "1")  # run 3: the current version plays other moves
    assert [turns for _, _, turns in games_of("arena.db", 3)] != [turns for _, _, turns in games_of("arena.db", 1)]

    # run 4: old against new, with a parameter, exactly as the two sources played side by side as two modules
    tournament("-b", f"hugger@{old}:patience=2,hugger", "-w", "2")
    versions = versions_of("arena.db")  # two distinct versions, each under its own name
    assert (versions["hugger"], versions[f"hugger@{old}"], versions[f"hugger@{old}:patience=2"]) == (new, old, old)
    assert set(versions) == {"hugger", f"hugger@{old}", f"hugger@{old}:patience=2", "random"}
    write_hugger(Path("side"), OLD, name="oldhugger", module="oldhugger.py")
    assert invoke("tournament", "empty_room", "-n", "2", "--seed", "3", "-w", "1", "--db", "side.db", "-b",
                  "oldhugger:patience=2,hugger", "--bots-dir", "side").exit_code == 0
    assert games_of("arena.db", 4) == relabelled(games_of("side.db", 1),
                                                 {"oldhugger:patience=2": f"hugger@{old}:patience=2"})
    assert len({turns[0]["0"] for _, _, turns in games_of("arena.db", 4)}) == 2  # they do move differently
    with Store("arena.db") as store:
        assert sorted(store.source_versions("hugger")) == sorted([(old, "python"), (new, "python")])

    # compare and play name stored versions too
    compared = invoke("compare", f"hugger@{old[:5]}", "hugger", "--sprt", "0,10", "--max-pairs", "2", "-m",
                      "empty_room", "-w", "1")
    assert compared.exit_code == 0, compared.stderr
    assert compared.stdout.splitlines()[0] == f"hugger@{old} vs hugger on empty_room: H0 +0 Elo, H1 +10 Elo, " \
                                              "alpha 0.05, beta 0.05"
    played = invoke("play", f"hugger@{old[:3]}", "random", "-m", "empty_room", "-q")
    assert played.exit_code == 0 and f"1=hugger@{old} " in played.stdout

    # replay --rerun plays a recorded game again with the versions it names: the stored one for run 1's hugger
    turns = len(games_of("arena.db", 1)[0][2])
    again = invoke("replay", "1", "0", "--rerun")
    assert (again.exit_code, again.stdout) == (0, f"played again by hugger@{old}, random: the same {turns} turns "
                                                  "and result\n")
    # (in a process of its own: this one imported ./bots/hugger.py before it changed)
    current = subprocess.run([sys.executable, "-m", "arena", "replay", "3", "0", "--rerun"], capture_output=True,
                             text=True, env=subprocess_env(), timeout=120)
    assert current.stdout.startswith("played again by hugger, random: the same"), current.stderr
    with Store("arena.db") as store:
        record = store.game(1, 0).record
    first = record["turns"][0]
    record["turns"][0] = {seat: ("S" if action != "S" else "N") for seat, action in first.items()}
    Path("doctored.json").write_text(json.dumps(record))
    doctored = invoke("replay", "doctored.json", "--rerun")
    moves = " ".join(f"{int(seat) + 1}:{action}" for seat, action in sorted(first.items()))
    changed = " ".join(f"{int(seat) + 1}:{action}" for seat, action in sorted(record["turns"][0].items()))
    assert (doctored.exit_code, doctored.stdout) == (1, f"played again by hugger@{old}, random: differs at turn 1: "
                                                        f"recorded {changed}, now {moves}\n")


def hugger_versions_sharing_a_first_digit():
    """Two sources of hugger whose versions start with the same hex digit."""
    seen = {}
    for index in range(100):
        source = dedent(HUGGER.format(name="hugger", order=OLD)) + f"# {index}\n"
        digit = hashlib.sha256(source.encode()).hexdigest()[0]
        if digit in seen:
            return seen[digit], source
        seen[digit] = source
    raise AssertionError("no two versions share a first digit")


def test_an_unknown_or_ambiguous_version_is_one_line_and_starts_nothing():
    first, second = hugger_versions_sharing_a_first_digit()
    bots = Path("bots")
    bots.mkdir()
    for source in (first, second):
        (bots / "hugger.py").write_text(source)
        tournament("-b", "hugger,random", "-w", "1")
    v1, v2 = (hashlib.sha256(source.encode()).hexdigest()[:8] for source in (first, second))
    digit = v1[0]
    unknown = "0" if digit != "0" else "1"
    cases = {
        f"hugger@{digit}": f"error: bot spec 'hugger@{digit}': '{digit}' is ambiguous, it starts versions "
                           f"{', '.join(sorted([v1, v2]))} of 'hugger'; give more of it",
        f"hugger@{unknown}": f"error: bot spec 'hugger@{unknown}': no stored version of 'hugger' starts with "
                             f"'{unknown}' (stored: {', '.join(sorted([v1, v2]))})",
        "floodfill@abc": "error: bot spec 'floodfill@abc': no stored version of 'floodfill' starts with 'abc' "
                         "(arena.db keeps no version of it; a version is kept the first time it plays)",
    }
    for spec, message in cases.items():
        for command in (["tournament", "empty_room", "-b", f"{spec},random"], ["compare", spec, "random", "--sprt",
                                                                                "0,10"]):
            result = invoke(*command)
            assert result.exit_code != 0 and result.stderr.strip() == message, (command, result.stderr)
    with Store("arena.db") as store:
        assert len(store.runs()) == 2
    result = invoke("tournament", "empty_room", "-b", "hugger@abc,random", "--db", "none.db")
    assert result.exit_code != 0
    assert result.stderr.strip() == ("error: hugger@abc: names a stored version, but there is no database none.db "
                                     "(--db) to keep it")
    assert not Path("none.db").exists()


@pytest.mark.slow
@pytest.mark.needs("gcc")
def test_a_program_bots_sources_are_kept_and_its_stored_version_is_built_and_played(tmp_path):
    bots = tmp_path / "programs"
    shutil.copytree(PROGRAMS / "scanner", bots / "scanner")
    source = bots / "scanner" / "bot.c"
    before_build = directory_version(bots / "scanner")
    tournament("-b", "scanner,random", "-w", "1", "--bots-dir", bots)
    assert (bots / "scanner" / "bot").is_file()  # built in its folder, not part of what is kept
    with Store("arena.db") as store:
        assert store.source_versions("scanner") == [(before_build, "program")]
        kept = store.source_files("scanner", before_build)
    assert [(path, data) for path, _, data in kept] == [
        ("arena-bot.toml", (bots / "scanner" / "arena-bot.toml").read_bytes()), ("bot.c", source.read_bytes())]

    # the new version tries west first
    source.write_text(source.read_text().replace("dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0}",
                                                 "dx[4] = {-1, 0, 1, 0}, dy[4] = {0, 1, 0, -1}"))
    assert directory_version(bots / "scanner") != before_build
    tournament("-b", f"scanner@{before_build[:6]},random", "-w", "2", "--bots-dir", bots)
    assert games_of("arena.db", 2) == relabelled(games_of("arena.db", 1), {"scanner": f"scanner@{before_build}"})
    unpacked = list(process_root().glob(f"scanner-{before_build}-*"))  # the command ran in this process
    assert len(unpacked) == 1 and (unpacked[0] / "bot").is_file()  # unpacked and built in a folder of its own
    tournament("-b", "scanner,random", "-w", "1", "--bots-dir", bots)
    assert [turns for _, _, turns in games_of("arena.db", 3)] != [turns for _, _, turns in games_of("arena.db", 1)]
    assert versions_of("arena.db")[f"scanner@{before_build}"] == before_build


@pytest.mark.slow
@pytest.mark.needs("gcc")
def test_a_program_bot_has_one_version_from_check_bot_to_the_tournament(tmp_path):
    bots = tmp_path / "programs"
    shutil.copytree(PROGRAMS / "scanner", bots / "scanner")
    unbuilt = directory_version(bots / "scanner")
    checked = invoke("check", "bot", "scanner", "--bots-dir", bots)
    assert checked.exit_code == 0, checked.stdout
    assert f"spec: scanner (version {unbuilt}," in checked.stdout
    assert (bots / "scanner" / "bot").is_file()  # check bot built it
    assert directory_version(bots / "scanner") == unbuilt
    tournament("-b", "scanner,random", "-w", "1", "--bots-dir", bots)
    assert versions_of("arena.db")["scanner"] == unbuilt


def test_an_old_database_migrates_to_keep_sources():
    write_hugger(Path("bots"), OLD)
    tournament("-b", "hugger,random", "-w", "1")
    conn = sqlite3.connect("arena.db")  # as an arena of schema 2 left it: no sources kept
    conn.executescript("DROP TABLE bot_source_files; DROP TABLE bot_sources; DROP INDEX games_failed; "
                       + "".join(f"DROP TABLE {table}; " for table in summaries.TABLES)
                       + "DROP TABLE ladder_draws; ALTER TABLE ladder DROP COLUMN pass; "
                       + "ALTER TABLE ladder DROP COLUMN scheduled; "
                       + "UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.close()
    tournament("-b", "hugger,random", "-w", "1")  # the same run, complete: shown, and the file migrated
    with Store("arena.db") as store:
        assert store.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
            str(SCHEMA_VERSION),)
        assert store.source_versions("hugger") == []  # played before sources were kept
        assert len(store.runs()) == 1
    tournament("-b", "hugger,random", "-w", "1", "--new")
    with Store("arena.db") as store:
        assert store.source_versions("hugger") == [(version_of("bots/hugger.py"), "python")]


def subprocess_env():
    return {key: value for key, value in os.environ.items() if key not in ("ARENA_BOTS_PATH", "ARENA_DB")}


SLOW_HUGGER = """
    import time

    from arena import bot

    @bot(game="tron")
    def slowhugger(obs, rng):
        \"\"\"Waits 10 ms, then takes the first free move of north, east, south, west.\"\"\"
        time.sleep(0.01)
        moves = obs.safe_moves()
        return next((move for move in "NESW" if move in moves), "N")
    """


@pytest.mark.slow
def test_a_run_interrupted_with_ctrl_c_resumes_without_its_bots_dir(tmp_path):
    bots = tmp_path / "mine"
    write_module(bots, "slowhugger.py", SLOW_HUGGER)
    tournament_args = ["tournament", "empty_room", "-b", "slowhugger,random", "-n", "6", "-w", "1", "--bots-dir",
                       str(bots)]
    process = subprocess.Popen([sys.executable, "-m", "arena", *tournament_args, "--db", "cut.db"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=subprocess_env())
    deadline = time.monotonic() + 120
    while games_stored("cut.db") < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)  # Ctrl-C
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    assert 2 <= games_stored("cut.db") < 6  # cut short with games played and games to play

    result = invoke("tournament", "--resume", "1", "--db", "cut.db", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games_played"] == 6
    assert invoke(*tournament_args, "--db", "whole.db").exit_code == 0
    assert games_of("cut.db", 1) == games_of("whole.db", 1)
    with Store("cut.db") as store:
        assert store.run(1).status == "complete"
        assert store.run(1).definition["bot_dirs"] == [str(bots.resolve())]

    bots.rename(tmp_path / "moved")
    gone = invoke("tournament", "--resume", "1", "--db", "cut.db")
    assert gone.exit_code != 0
    assert gone.stderr.splitlines()[0] == f"warning: run 1 loaded bots from {bots.resolve()}, which no longer exists"
    assert gone.stderr.splitlines()[1].startswith("error: unknown bot 'slowhugger'")
