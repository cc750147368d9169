"""A database in a read-only directory or file: the reading commands work on it, the writing ones say in one
line why they cannot, and nothing is written.

Root ignores file permissions, so as root the commands run in a child process without the capabilities that
override them (``setpriv``); every test checks first that the child really cannot write there.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli.main import app
from tests.cli_runner import CliRunner

pytestmark = pytest.mark.slow  # every test runs arena commands in child processes

runner = CliRunner()

DROP_OVERRIDES = ["setpriv", "--inh-caps=-dac_override,-dac_read_search",
                  "--bounding-set=-dac_override,-dac_read_search"]

# Runs arena commands in one child process (so a dozen commands cost one start-up), after checking that
# the child can write neither a new file into the directory it is given nor, if given one, the file.
CHILD = """
import json, os, sys
from tests.cli_runner import CliRunner
from arena.cli.main import app
probe, commands = sys.argv[1], json.loads(sys.argv[2])
try:
    if os.path.isdir(probe):
        open(os.path.join(probe, "probe"), "x").close()
    else:
        open(probe, "r+b").close()
    can_write = True
except OSError:
    can_write = False
results = [CliRunner().invoke(app, args) for args in commands]
print(json.dumps({"can_write": can_write, "results": [[r.exit_code, r.stdout, r.stderr] for r in results]}))
"""

READERS = [
    ["runs", "-f", "json"],
    ["show", "-f", "json"],
    ["show", "1", "1"],
    ["ratings", "-f", "json"],
    ["ratings", "--history", "random", "-f", "json"],
    ["report", "1", "-f", "json"],
    ["export", "1", "--jsonl", "-"],
    ["replay", "1", "1", "--turn", "4"],
    ["replay", "1:1", "--check"],
    ["compare", "1", "2", "-f", "json"],
]
TOURNAMENT = ["tournament", "empty_room", "-b", "random,floodfill", "-n", "2", "-w", "1"]
WRITERS = [TOURNAMENT, ["ladder", "empty_room", "-w", "1"], ["ratings", "--recompute"]]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def play_two_runs(db):
    for seed in ("1", "2"):
        result = invoke(*TOURNAMENT, "--seed", seed, "--db", db)
        assert result.exit_code == 0, result.stderr


def in_child(directory, commands, probe=None):
    """Run ``commands`` in ``directory``, in a child process that has no right to write ``probe`` (a file, or
    into a directory) [default: ``directory``]."""
    env = {k: v for k, v in os.environ.items() if k not in ("ARENA_BOTS_PATH",)}
    env.update(HOME=str(directory.parent / "home"), ARENA_DB=str(directory / "arena.db"))
    prefix = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root this needs setpriv (apt install util-linux) to give up root's file-permission "
                        "override")
        prefix = DROP_OVERRIDES
    done = subprocess.run([*prefix, sys.executable, "-c", CHILD, str(probe or directory), json.dumps(commands)],
                          capture_output=True, text=True, env=env, cwd=directory, timeout=300)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.splitlines()[-1])
    assert not answer["can_write"], f"the child process could write {probe or directory}"
    return answer["results"]


def snapshot(directory):
    """Every file in ``directory`` with its bytes and modification time."""
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in sorted(directory.iterdir())}


def make_read_only(directory, files=True, folder=True):
    if files:
        for path in directory.iterdir():
            path.chmod(0o444)
    if folder:
        directory.chmod(0o555)


@pytest.fixture
def database(tmp_path):
    """A directory holding a database of two runs, last written in WAL mode and closed cleanly (no -wal, -shm);
    permissions are restored afterwards so the directory can be removed."""
    directory = tmp_path / "results"
    directory.mkdir()
    db = directory / "arena.db"
    play_two_runs(db)
    assert sorted(p.name for p in directory.iterdir()) == ["arena.db"]
    assert db.read_bytes()[18:20] == b"\x02\x02"  # the header says WAL
    yield directory
    directory.chmod(0o755)
    for path in directory.iterdir():
        path.chmod(0o644)


def writable_answers(db):
    return [invoke(*args, "--db", db) for args in READERS]


def check_readers_read_the_same(directory, expected, probe=None):
    answers = in_child(directory, READERS, probe)
    for args, (code, stdout, stderr), want in zip(READERS, answers, expected, strict=True):
        assert want.exit_code == 0, (args, want.stderr)
        assert (code, stdout) == (0, want.stdout), (args, stderr)


def check_writers_refused(directory, message, probe=None):
    answers = in_child(directory, WRITERS, probe)
    for args, (code, stdout, stderr) in zip(WRITERS, answers, strict=True):
        lines = [line for line in stderr.splitlines() if line.strip()]
        assert code == 2 and lines == [f"error: {directory / 'arena.db'}: {message}"], (args, stdout, stderr)


WRITER_HINT = ("so this command cannot store anything in it (runs, show, ratings, report, replay and export only "
               "read it, and work)")


def test_a_database_in_a_read_only_directory_is_read_and_never_written(database):
    expected = writable_answers(database / "arena.db")
    before = snapshot(database)
    make_read_only(database)
    check_readers_read_the_same(database, expected)
    check_writers_refused(database, "the file is read-only, " + WRITER_HINT)
    database.chmod(0o755)
    assert snapshot(database) == before


def test_a_writable_database_in_a_read_only_directory_cannot_be_written_either(database):
    expected = writable_answers(database / "arena.db")
    before = snapshot(database)
    make_read_only(database, files=False)
    check_readers_read_the_same(database, expected)
    check_writers_refused(database, f"its directory {database} is read-only, " + WRITER_HINT)
    assert snapshot(database) == before


def test_a_read_only_database_file_in_a_writable_directory_is_read_and_not_written(database):
    db = database / "arena.db"
    expected = writable_answers(db)
    content = db.read_bytes()
    make_read_only(database, folder=False)
    check_readers_read_the_same(database, expected, probe=db)
    check_writers_refused(database, "the file is read-only, " + WRITER_HINT, probe=db)
    assert db.read_bytes() == content  # beside it SQLite may have left the -wal and -shm of its reading


def test_changes_still_in_the_write_ahead_log_are_read_in_a_read_only_directory(tmp_path):
    source, copy = tmp_path / "live", tmp_path / "copy"
    source.mkdir()
    copy.mkdir()
    db = source / "arena.db"
    assert invoke(*TOURNAMENT, "--seed", "1", "--db", db).exit_code == 0
    reader = sqlite3.connect(db)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM runs").fetchone()  # holds its snapshot: run 2 stays in the log
    assert invoke(*TOURNAMENT, "--seed", "2", "--db", db).exit_code == 0
    expected = invoke("runs", "-f", "json", "--db", db)
    for name in ("arena.db", "arena.db-wal", "arena.db-shm"):
        shutil.copy(source / name, copy / name)
    reader.close()
    assert (copy / "arena.db-wal").stat().st_size > 0
    try:
        make_read_only(copy)
        [(code, stdout, stderr)] = in_child(copy, [["runs", "-f", "json"]])
        assert code == 0, stderr
        assert [run["run"] for run in json.loads(stdout)] == ["1", "2"]
        assert stdout == expected.stdout
        copy.chmod(0o755)
        (copy / "arena.db-shm").unlink()  # a log without its index cannot be read without writing one
        make_read_only(copy)
        [(code, stdout, stderr)] = in_child(copy, [["runs"]])
        assert code == 2 and stdout == ""
        assert stderr.startswith(f"error: {copy / 'arena.db'}: cannot be read here: its write-ahead log "
                                 "arena.db-wal holds changes and arena.db-shm cannot be created (")
        assert len(stderr.strip().splitlines()) == 1
    finally:
        copy.chmod(0o755)
        for path in copy.iterdir():
            path.chmod(0o644)


def test_a_new_database_in_a_read_only_directory_is_not_created(tmp_path):
    directory = tmp_path / "empty"
    directory.mkdir()
    make_read_only(directory)
    try:
        [runs, tournament] = in_child(directory, [["runs", "-f", "json"], TOURNAMENT])
    finally:
        directory.chmod(0o755)
    assert runs[:2] == [0, "[]\n"]
    assert tournament[0] == 2
    assert tournament[2].strip() == f"error: {directory / 'arena.db'}: its directory {directory} is read-only, " \
                                    + WRITER_HINT
    assert list(directory.iterdir()) == []


def test_reading_commands_create_no_database():
    for args in (["runs"], ["ratings"], ["show"], ["report"]):
        invoke(*args)
    assert not Path("arena.db").exists() and list(Path.cwd().iterdir()) == []
    assert invoke("show").stderr.strip() == "error: arena.db has no runs yet: run a tournament first"



def test_a_database_of_an_older_schema_in_a_read_only_directory_says_it_needs_upgrading(database):
    db = database / "arena.db"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    before = snapshot(database)
    make_read_only(database)
    [(code, stdout, stderr)] = in_child(database, [["runs"]])
    assert (code, stdout) == (2, "")
    assert stderr == (f"error: {db}: written by an older arena (schema 1) and must be upgraded before it is read, "
                      f"but the file is read-only; it was left untouched\n")
    database.chmod(0o755)
    assert snapshot(database) == before
