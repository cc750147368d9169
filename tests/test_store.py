"""The SQLite store: schema and migrations, refusing foreign files, kill -9 and resume, concurrent writers,
and the results commands that read it back (runs, show, ratings)."""

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import arena.storage.migrations
from arena.cli.main import app
from arena.cli.results import SPARKS, sparkline
from arena.plugins.registry import PluginConfig, load_registry
from arena.storage import summaries
from arena.storage.codec import decode_record
from arena.storage.history import finalize_run
from arena.storage.migrations import SCHEMA_VERSION
from arena.storage.store import RatingRow, SnapshotRow, Store, StoreError
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import TournamentRun, play_tournament
from tests.cli_runner import CliRunner
from tests.helpers import VERSIONED_HUGGER, assert_summaries_match_games, write_module

runner = CliRunner()

THINKER = """
    import time
    from pathlib import Path

    from arena import Bot

    LOG = Path(__file__).with_name("games.log")


    class Thinker(Bot):
        \"\"\"Thinks about 5 ms a move, then hugs the walls; notes every game it starts in games.log.\"\"\"

        name = "thinker"
        games = ("tron",)

        def start(self, info):
            with LOG.open("a") as log:
                log.write(f"{info.seat}\\n")

        def act(self, obs):
            time.sleep(0.005)
            moves = obs.safe_moves()
            return max(moves, key=obs.walls_around) if moves else "N"
    """


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def stderr_lines(text):
    """The stderr lines that matter: blank lines left out."""
    return [line for line in text.splitlines() if line.strip()]


def subprocess_env():
    return {k: v for k, v in os.environ.items() if k not in ("ARENA_BOTS_PATH", "ARENA_DB")}


def read_only(db):
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)


def count_games(db, run_id=None):
    """Stored games, read without writing (0 while the database or its tables don't exist yet)."""
    try:
        conn = read_only(db)
    except sqlite3.Error:
        return 0
    try:
        where, params = ("WHERE run_id = ?", (run_id,)) if run_id is not None else ("", ())
        return conn.execute(f"SELECT count(*) FROM games {where}", params).fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def stored_json(result):
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)


def thinker_dir(path):
    write_module(path, "thinker.py", THINKER)
    return path


# --- schema, migrations -------------------------------------------------------------------------------


def test_a_new_database_has_schema_version_5_application_arena_and_wal():
    with Store("fresh.db") as store:
        assert dict(store.conn.execute("SELECT key, value FROM meta")) == {"application": "arena",
                                                                            "schema_version": "5"}
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == {"meta", "runs", "bots", "games", "rating_snapshots", "leaderboard", "leaderboard_draws",
                          "run_ratings", "ladder", "ladder_draws", "bot_sources", "bot_source_files", *summaries.TABLES}
    assert Path("fresh.db").exists()
    # the default is ./arena.db, or $ARENA_DB; a command that only reads creates none
    assert invoke("runs").exit_code == 0 and not Path("arena.db").exists()
    assert invoke("ratings", "--recompute").exit_code == 0 and Path("arena.db").exists()


@pytest.mark.slow
def test_arena_db_variable_chooses_the_database(monkeypatch):
    monkeypatch.setenv("ARENA_DB", "elsewhere.db")
    assert invoke("tournament", "empty_room", "-b", "random,floodfill", "-n", "2", "-w", "1").exit_code == 0
    assert count_games("elsewhere.db") == 2 and not Path("arena.db").exists()


@pytest.mark.slow
def test_an_old_database_migrates_forward_and_keeps_its_games(monkeypatch):
    first = invoke("tournament", "empty_room", "-b", "random,floodfill", "-n", "4", "-w", "1", "-f", "json")
    standings = stored_json(first)
    with Store("arena.db") as store:
        before = [(g.idx, g.labels, g.ranks, g.record) for g in store.games()]
    assert len(before) == 4

    current = arena.storage.migrations.SCHEMA_VERSION
    monkeypatch.setattr(arena.storage.migrations, "MIGRATIONS", {
        **arena.storage.migrations.MIGRATIONS, current + 1: "ALTER TABLE games ADD COLUMN note TEXT DEFAULT 'kept'"})
    monkeypatch.setattr(arena.storage.migrations, "SCHEMA_VERSION", current + 1)
    with Store("arena.db") as store:
        assert dict(store.conn.execute("SELECT key, value FROM meta")) == {"application": "arena",
                                                                            "schema_version": str(current + 1)}
        columns = [row[1] for row in store.conn.execute("PRAGMA table_info(games)")]
        assert columns[-1] == "note"
        assert [row[0] for row in store.conn.execute("SELECT note FROM games")] == ["kept"] * 4
        assert [(g.idx, g.labels, g.ranks, g.record) for g in store.games()] == before
    assert stored_json(invoke("show", "1", "-f", "json")) == standings

    # and an arena that reads only the version before refuses the migrated file, untouched
    monkeypatch.setattr(arena.storage.migrations, "SCHEMA_VERSION", current)
    with pytest.raises(StoreError, match=rf"written by a newer arena \(schema {current + 1}; this arena reads up to "
                                         rf"{current}\)"):
        Store("arena.db")


# --- files that are not arena databases ---------------------------------------------------------------


def make_text(path):
    path.write_text("name,score\nfloodfill,3\n")


def make_other_application(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.execute("INSERT INTO invoices (total) VALUES (9.5)")
    conn.commit()
    conn.close()


def make_foreign_meta(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("application", "photos"), ("schema_version", "1")])
    conn.commit()
    conn.close()


def make_newer(path):
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def make_corrupt(path):
    assert invoke("tournament", "empty_room", "-b", "random,floodfill", "-n", "4", "-w", "1",
                  "--db", path).exit_code == 0
    pages = path.stat().st_size // 4096
    assert pages >= 10
    with path.open("r+b") as handle:  # a whole page in the middle of a real arena database
        handle.seek(pages // 2 * 4096)
        handle.write(b"\xff" * 4096)


REFUSED = {
    "text": (make_text, "not an arena database (not an SQLite file); it was left untouched"),
    "other application": (make_other_application,
                          "not an arena database (an SQLite file without arena's tables); it was left untouched"),
    "foreign meta": (make_foreign_meta, "not an arena database (application 'photos'); it was left untouched"),
    "newer schema": (make_newer, f"written by a newer arena (schema 99; this arena reads up to {SCHEMA_VERSION}); "
                                 "upgrade arena "
                                 "to use it. It was left untouched"),
    "corrupt": (make_corrupt, "the database is corrupt"),
}


@pytest.mark.parametrize("kind", list(REFUSED))
def test_a_file_that_is_not_a_usable_arena_database_is_refused_and_untouched(tmp_path, kind):
    make, message = REFUSED[kind]
    path = tmp_path / "results.db"
    make(path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    content, mtime = path.read_bytes(), path.stat().st_mtime_ns

    for args in (("runs", "--db", path), ("tournament", "empty_room", "-b", "random,floodfill", "-n", "2",
                                          "-w", "1", "--db", path)):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert result.stdout == ""
        lines = stderr_lines(result.stderr)
        assert len(lines) == 1, (args, result.stderr)
        assert lines[0].startswith(f"error: {path}: {message}"), lines[0]
        assert path.read_bytes() == content and path.stat().st_mtime_ns == mtime
    with pytest.raises(StoreError):
        Store(path)
    assert path.read_bytes() == content and path.stat().st_mtime_ns == mtime


def test_a_directory_is_not_a_database(tmp_path):
    result = invoke("runs", "--db", tmp_path)
    assert result.exit_code == 2
    assert stderr_lines(result.stderr) == [f"error: {tmp_path}: is a directory, not a database file"]


# --- kill -9, resume ----------------------------------------------------------------------------------


def tournament_command(db, bots_dir):
    return [sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "thinker,random", "-n", "20",
            "-w", "2", "--seed", "5", "-f", "json", "--db", str(db), "--bots-dir", str(bots_dir)]


@pytest.mark.slow
def test_kill_9_loses_no_finished_game_and_rerunning_plays_only_what_is_missing(tmp_path):
    bots, reference_bots = thinker_dir(tmp_path / "killed_bots"), thinker_dir(tmp_path / "reference_bots")
    log = bots / "games.log"
    db = tmp_path / "killed.db"
    env = subprocess_env()
    # the same tournament, uninterrupted, into another database (its own copy of the bots: same source)
    reference = subprocess.Popen(tournament_command(tmp_path / "reference.db", reference_bots), cwd=tmp_path,
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 start_new_session=True)
    victim = subprocess.Popen(tournament_command(db, bots), cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _kill_and_resume(tmp_path, db, bots, log, env, victim, reference)
    finally:
        for process in (victim, reference):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _kill_and_resume(tmp_path, db, bots, log, env, victim, reference):
    deadline = time.monotonic() + 60
    while count_games(db) < 3:
        assert victim.poll() is None, "the tournament finished before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(0.03)  # somewhere in the middle of the next games
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait(timeout=30)
    assert victim.returncode == -signal.SIGKILL
    with Store(db) as store:  # the summaries hold exactly the games stored before the kill
        assert_summaries_match_games(store, 1)

    conn = read_only(db)
    rows = conn.execute("SELECT idx, seed, ranks, record FROM games WHERE run_id = 1 ORDER BY idx").fetchall()
    status, scheduled = conn.execute("SELECT status, scheduled FROM runs WHERE id = 1").fetchone()
    conn.close()
    played = len(rows)
    assert 3 <= played < 20 and status == "running" and scheduled == 20
    for _, seed, ranks, record in rows:
        parsed = decode_record(record)
        assert parsed["seed"] == seed and parsed["result"]["ranks"] == json.loads(ranks)
        assert sorted(p["bot"] for p in parsed["players"]) == ["random", "thinker"]
        assert len(parsed["turns"]) > 0
    started_before = len(log.read_text().splitlines())

    rerun = subprocess.run(tournament_command(db, bots), cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"resuming run 1: {played} of 20 games already played" in stderr_lines(rerun.stderr)
    assert len(log.read_text().splitlines()) - started_before == 20 - played  # only the missing games
    conn = read_only(db)
    assert conn.execute("SELECT count(*), count(DISTINCT idx), min(idx), max(idx) FROM games").fetchone() == \
        (20, 20, 0, 19)
    assert conn.execute("SELECT count(*), status FROM runs").fetchone() == (1, "complete")
    with Store(db) as store:
        assert_summaries_match_games(store, 1)
    kept = {idx for idx, *_ in rows}  # the games stored before the kill are still there, unchanged
    assert [r for r in conn.execute("SELECT idx, seed, ranks, record FROM games ORDER BY idx") if r[0] in kept] == rows
    conn.close()

    out, errors = reference.communicate(timeout=120)
    assert reference.returncode == 0, errors
    expected = json.loads(out)
    assert expected["games_played"] == 20
    assert json.loads(rerun.stdout) == expected

    started = len(log.read_text().splitlines())
    again = subprocess.run(tournament_command(db, bots), cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=120)
    assert again.returncode == 0, again.stderr
    assert stderr_lines(again.stderr)[0] == "run 1 already played this tournament; showing it (--new plays it again)"
    assert len(log.read_text().splitlines()) == started  # nothing played
    assert json.loads(again.stdout) == expected
    assert count_games(db) == 20


def interrupt_in_process(db, maps, bots, games, stop_after, seed=0):
    """What Ctrl-C leaves behind: a run with its first ``stop_after`` games stored, marked interrupted."""
    config = PluginConfig()
    registry = load_registry(config)
    tournament = plan_tournament(TournamentDefinition(maps=tuple(maps), bots=tuple(bots), games=games, seed=seed),
                         registry)
    seen = []

    def stop(outcome):
        seen.append(outcome.index)
        if len(seen) == stop_after:
            raise KeyboardInterrupt

    with Store(db) as store:
        definition = tournament.definition
        run_id = store.create_run(definition.name or "tournament", tournament.game.name, definition.format,
                                  definition.as_json(), tournament.fingerprint, tournament.total_games())
        run = TournamentRun(tournament, run_id=run_id)
        play_tournament(run, registry, config, store=store, on_outcome=stop, in_process=True)
        assert run.interrupted and len(run.played) == stop_after
        finalize_run(store, run_id, "interrupted")
    return run_id


@pytest.mark.slow
def test_resume_run_plays_the_rest_and_gives_the_uninterrupted_results():
    assert interrupt_in_process("arena.db", ["center_block"], ["random", "chaser", "floodfill"], 4, 5) == 1
    runs = stored_json(invoke("runs", "-f", "json"))
    assert [(r["run"], r["status"], r["games"]) for r in runs] == [("1", "interrupted", "5/12")]

    resumed = invoke("tournament", "--resume", "1", "-w", "1", "-f", "json")
    expected = stored_json(invoke("tournament", "center_block", "-b", "random,chaser,floodfill", "-n", "4",
                                  "-w", "1", "-f", "json", "--db", "reference.db"))
    assert stored_json(resumed) == expected and expected["games_played"] == 12
    with Store("arena.db") as store:
        assert sorted(store.played_indices(1)) == list(range(12))
        assert [(r.id, r.status, r.played) for r in store.runs()] == [(1, "complete", 12)]
    # the same command again shows the stored run instead of playing it
    again = invoke("tournament", "center_block", "-b", "random,chaser,floodfill", "-n", "4", "-w", "1", "-f", "json")
    assert stored_json(again) == expected
    assert stderr_lines(again.stderr)[0] == \
        "run 1 already played this tournament; showing it (--new plays it again)"
    assert count_games("arena.db") == 12

    wrong = invoke("tournament", "--resume", "7")
    assert wrong.exit_code == 2 and stderr_lines(wrong.stderr) == ["error: no run 7; runs in arena.db: 1"]


# --- two processes at once --------------------------------------------------------------------------------


@pytest.mark.slow
def test_two_arena_processes_write_the_same_database_at_once(tmp_path):
    bots = thinker_dir(tmp_path / "shared_bots")
    db = tmp_path / "shared.db"
    Store(db).close()  # an existing database (opening a new one at once: see the next tests)
    commands = [
        [sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "thinker,random", "-n", "12"],
        [sys.executable, "-m", "arena", "tournament", "center_block", "-b", "thinker,chaser", "-n", "12"],
    ]
    processes = [subprocess.Popen([*command, "-w", "1", "-f", "json", "--db", str(db), "--bots-dir", str(bots)],
                                  cwd=tmp_path, env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for command in commands]
    results = [process.communicate(timeout=120) for process in processes]
    for process, (out, errors) in zip(processes, results, strict=True):
        assert process.returncode == 0, errors
        assert json.loads(out)["games_played"] == 12
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert conn.execute("SELECT id, status, scheduled FROM runs ORDER BY id").fetchall() == \
        [(1, "complete", 12), (2, "complete", 12)]
    assert conn.execute("SELECT run_id, count(*), count(DISTINCT idx) FROM games GROUP BY run_id").fetchall() == \
        [(1, 12, 12), (2, 12, 12)]
    maps = dict(conn.execute("SELECT DISTINCT run_id, map FROM games"))
    assert sorted(maps.values()) == ["center_block", "empty_room"]
    # they really wrote at the same time: the games of the two runs are interleaved
    (first_last,), (second_first,) = (conn.execute("SELECT max(id) FROM games WHERE run_id = 1").fetchone(),
                                      conn.execute("SELECT min(id) FROM games WHERE run_id = 2").fetchone())
    assert second_first < first_last
    conn.close()


def hold_write_transaction(path, statements, seconds):
    """Another arena process in the middle of writing: a connection holding a write transaction for a while."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for statement in statements:
        holder.execute(statement)

    def release():
        time.sleep(seconds)
        holder.execute("COMMIT")
        holder.close()

    thread = threading.Thread(target=release)
    thread.start()
    return thread


def test_opening_a_new_database_while_another_process_creates_it_waits_for_it(tmp_path):
    """The second arena to open a brand-new database finds the first one creating arena's tables."""
    path = tmp_path / "new.db"
    schema = [s for s in arena.storage.migrations.MIGRATIONS[1].split(";") if s.strip()]
    thread = hold_write_transaction(path, ["PRAGMA journal_mode = WAL", "BEGIN IMMEDIATE", *schema,
                                           "INSERT INTO meta VALUES ('application', 'arena')",
                                           "INSERT INTO meta VALUES ('schema_version', '1')"], 0.5)
    try:
        with Store(path) as store:
            assert dict(store.conn.execute("SELECT key, value FROM meta"))["schema_version"] == str(SCHEMA_VERSION)
    finally:
        thread.join()


def test_opening_a_new_database_while_another_process_holds_its_lock_waits_for_it(tmp_path):
    """The second arena to open a brand-new database finds the first one switching it to WAL."""
    path = tmp_path / "new.db"
    thread = hold_write_transaction(path, ["BEGIN IMMEDIATE"], 0.5)
    try:
        with Store(path) as store:
            assert dict(store.conn.execute("SELECT key, value FROM meta"))["schema_version"] == str(SCHEMA_VERSION)
    finally:
        thread.join()


# --- ratings, runs, show --------------------------------------------------------------------------------


@pytest.mark.slow
def test_recompute_finds_the_stored_ratings_and_restores_a_tampered_one():
    stored_json(invoke("tournament", "empty_room", "-b", "random,floodfill,chaser", "-n", "2", "-w", "1",
                       "-f", "json"))
    stored_json(invoke("tournament", "center_block", "-b", "random,wallhugger", "-n", "2", "-w", "1", "-f", "json"))
    first = invoke("ratings", "--recompute")
    assert first.exit_code == 0
    # run 1: 6 games x 2 players; run 2: 2 x 2; leaderboards: 3 bots after run 1, 4 after run 2
    assert first.stdout == ("recomputed 23 stored ratings from the games: all equal to the stored ones\n"
                            "rebuilt the summaries of 2 runs from their games: all equal to the kept ones\n")

    conn = sqlite3.connect("arena.db")
    key = conn.execute("SELECT run_id, game_idx, bot_id, mu FROM rating_snapshots "
                       "ORDER BY run_id, game_idx, bot_id LIMIT 1 OFFSET 3").fetchone()
    conn.execute("UPDATE rating_snapshots SET mu = mu + 1 WHERE run_id = ? AND game_idx = ? AND bot_id = ?",
                 key[:3])
    conn.execute("UPDATE summary_standings SET wins = wins + 1 WHERE run_id = 2 AND label = 'random'")
    conn.commit()
    conn.close()
    tampered = invoke("ratings", "--recompute")
    assert tampered.stdout == ("recomputed 23 stored ratings from the games: 1 differed and were replaced\n"
                               "rebuilt the summaries of 2 runs from their games: 1 differed and were replaced\n")
    conn = read_only("arena.db")
    assert conn.execute("SELECT mu FROM rating_snapshots WHERE run_id = ? AND game_idx = ? AND bot_id = ?",
                        key[:3]).fetchone()[0] == key[3]
    conn.close()
    assert invoke("ratings", "--recompute").stdout.endswith("all equal to the kept ones\n")


@pytest.mark.slow
def test_ratings_after_resuming_an_older_run_include_its_new_games():
    """Run 1 is interrupted, run 2 plays, run 1 is resumed: the current leaderboard counts all of run 1."""
    interrupt_in_process("arena.db", ["empty_room"], ["random", "floodfill"], 4, 2)
    stored_json(invoke("tournament", "center_block", "-b", "chaser,wallhugger", "-n", "2", "-w", "1", "-f", "json"))
    stored_json(invoke("tournament", "--resume", "1", "-w", "1", "-f", "json"))
    board = {row["bot"]: row["games"] for row in stored_json(invoke("ratings", "-f", "json"))}
    assert board == {"random": "4", "floodfill": "4", "chaser": "2", "wallhugger": "2"}
    ratings_line, summaries_line = invoke("ratings", "--recompute").stdout.splitlines()
    assert ratings_line.endswith(": all equal to the stored ones")
    assert summaries_line.endswith(": all equal to the kept ones")


@pytest.mark.slow
def test_runs_and_show_read_the_stored_runs_back():
    first = stored_json(invoke("tournament", "empty_room", "-b", "random,floodfill", "-n", "2", "-w", "1", "-f",
                               "json"))
    second = stored_json(invoke("tournament", "diagonal_blocks", "-b", "chaser,random,wallhugger", "-n", "2",
                                "-w", "1", "--seed", "3", "-f", "json"))
    runs = stored_json(invoke("runs", "-f", "json"))
    assert [(r["run"], r["name"], r["game"], r["format"], r["bots"], r["status"], r["games"]) for r in runs] == [
        ("1", "empty_room: random, floodfill", "tron", "round-robin", "2", "complete", "2/2"),
        ("2", "diagonal_blocks: chaser, random, wallhugger", "tron", "round-robin", "3", "complete", "6/6"),
    ]
    # the leader is the bot the standings rank first; an unfinished run would show "-" for its duration
    assert [r["leader"] for r in runs] == [first["standings"][0]["bot"], second["standings"][0]["bot"]]
    assert all(re.fullmatch(r"\d+s", r["took"]) for r in runs)
    assert stored_json(invoke("show", "1", "-f", "json")) == first
    assert stored_json(invoke("show", "2", "-f", "json")) == second
    table = invoke("show", "2")
    assert table.exit_code == 0 and "Standings" in table.stdout and "wallhugger" in table.stdout

    missing = invoke("show", "99")
    assert missing.exit_code == 2 and missing.stdout == ""
    assert stderr_lines(missing.stderr) == ["error: no run 99; runs in arena.db: 1, 2"]
    empty = invoke("show", "1", "--db", "empty.db")
    assert stderr_lines(empty.stderr) == ["error: no run 1; empty.db has no runs"]


EDITABLE = """
    from arena import bot


    @bot(name="edited", game="tron")
    def edited(obs, rng):
        \"\"\"Version {version}: the first safe move.\"\"\"
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """


def bot_versions(bots_dir):
    return {row["bot"]: row["version"]
            for row in json.loads(invoke("bots", "-f", "json", "--bots-dir", bots_dir).stdout)}


@pytest.mark.slow
def test_ratings_leaderboard_keeps_every_version_and_latest_shows_the_newest(tmp_path):
    bots = tmp_path / "bots"
    write_module(bots, "edited.py", EDITABLE.format(version=1))
    old = bot_versions(bots)
    args = ("tournament", "empty_room", "-b", "edited,random", "-n", "2", "-w", "1", "-f", "json", "--bots-dir", bots)
    stored_json(invoke(*args))
    write_module(bots, "edited.py", EDITABLE.format(version=2))
    new = bot_versions(bots)
    assert old["edited"] != new["edited"] and old["random"] == new["random"]
    stored_json(invoke(*args))
    assert len(stored_json(invoke("runs", "-f", "json"))) == 2  # a new version: a new run, not the stored one

    board = stored_json(invoke("ratings", "-f", "json"))
    assert sorted((row["game"], row["bot"], row["version"], row["games"]) for row in board) == sorted([
        ("tron", "edited", old["edited"], "2"), ("tron", "edited", new["edited"], "2"),
        ("tron", "random", old["random"], "4")])
    conservative = [float(row["mu-3σ"]) for row in board]
    assert conservative == sorted(conservative, reverse=True)
    latest = stored_json(invoke("ratings", "--latest", "-f", "json"))
    assert sorted((row["bot"], row["version"]) for row in latest) == [("edited", new["edited"]),
                                                                      ("random", old["random"])]
    assert all(row in board for row in latest)
    assert stored_json(invoke("ratings", "--game", "tron", "-f", "json")) == board
    assert stored_json(invoke("ratings", "--game", "chess", "-f", "json")) == []


@pytest.mark.slow
def test_ratings_history_lists_each_version_in_the_runs_it_played_with_the_change(tmp_path):
    bots = tmp_path / "mine"
    write_module(bots, "hugger.py", VERSIONED_HUGGER.format(version=1))
    for seed in (1, 2, 3):
        stored_json(invoke("tournament", "empty_room", "-b", "random,hugger", "-n", "4", "-w", "1", "--seed",
                           seed, "--bots-dir", bots, "-f", "json"))
    stored_json(invoke("tournament", "empty_room", "-b", "random,chaser", "-n", "4", "-w", "1", "-f", "json"))
    write_module(bots, "hugger.py", VERSIONED_HUGGER.format(version=2))
    stored_json(invoke("tournament", "empty_room", "-b", "random,hugger", "-n", "4", "-w", "1", "--bots-dir", bots,
                       "-f", "json"))
    history = stored_json(invoke("ratings", "--history", "hugger", "-f", "json"))
    old, new = history[0]["version"], history[-1]["version"]
    assert old != new
    # run 4, which hugger sat out, is not listed; each version starts with its first run
    assert [(row["after run"], row["version"], row["games"]) for row in history] == [
        ("1", old, "4"), ("2", old, "8"), ("3", old, "12"), ("5", new, "4")]
    values = [float(row["mu-3σ"]) for row in history]
    changes = [row["change"] for row in history]
    assert changes[0] == changes[3] == "first run"
    for index in (1, 2):  # both figures are rounded to 2 decimals
        assert abs(float(changes[index]) - (values[index] - values[index - 1])) <= 0.011
    board = {(row["bot"], row["version"]): row for row in stored_json(invoke("ratings", "-f", "json"))}
    assert board[("hugger", new)]["mu-3σ"] == history[-1]["mu-3σ"]

    table = invoke("ratings", "--history", "hugger")
    assert table.exit_code == 0 and "hugger over time" in table.stdout
    sparks = [line for line in table.stdout.splitlines() if ": mu-3σ by run " in line]
    assert [line.split(":")[0] for line in sparks] == [old, new]  # one chart per version
    chart = sparks[0].split(" by run ")[1]
    assert len(chart) == 3 and set(chart) <= set(SPARKS)
    assert chart[values.index(min(values[:3]))] == "▁" and chart[values.index(max(values[:3]))] == "█"
    assert sparkline([1.0, 2.0, 3.0]) == "▁▅█" and sparkline([5.0, 5.0]) == "▁▁" and sparkline([]) == ""

    unknown = invoke("ratings", "--history", "nobody")
    assert unknown.exit_code == 2
    assert stderr_lines(unknown.stderr) == ["error: no stored ratings for bot 'nobody'"]




@pytest.mark.slow
def test_a_copy_of_a_database_reads_the_same(tmp_path):
    first = stored_json(invoke("tournament", "empty_room", "-b", "random,chaser", "-n", "2", "-w", "1", "-f", "json"))
    shutil.copy("arena.db", tmp_path / "copy.db")
    assert stored_json(invoke("show", "1", "--db", tmp_path / "copy.db", "-f", "json")) == first


def test_stored_ratings_read_back_as_named_rows():
    with Store("arena.db") as store:
        run = store.create_run("r", "tron", "round_robin", {}, "f", 1)
        bot = store.bot_id("random", "random", "v1", "bots/random_bot.py")
        store.replace_run_ratings(run, [RatingRow(bot, None, 25.0, 8.0, 3)])
        store.replace_snapshots(run, [SnapshotRow(0, bot, "cat", 24.0, 7.5)])
        store.replace_leaderboard(run, "tron", [RatingRow(bot, None, 26.0, 6.0, 3)], (1, 4))
        rating, = store.run_ratings(run)
        assert (rating.bot_id, rating.role, rating.mu, rating.sigma, rating.games) == (bot, None, 25.0, 8.0, 3)
        assert store.snapshots(run) == [SnapshotRow(0, bot, "cat", 24.0, 7.5)]
        assert store.snapshots(run)[0].game_idx == 0
        assert store.leaderboard_state("tron") == (run, (1, 4), [RatingRow(bot, None, 26.0, 6.0, 3)])
        row, = store.leaderboard_rows("tron")
        assert (row.run_id, row.game, row.mu, row.games) == (run, "tron", 26.0, 3)
        assert store.latest_leaderboard_rows() == store.bot_leaderboard_rows("random") == [row]


def test_a_stored_game_keeps_the_record_a_user_reads_turn_keys_and_all(tmp_path, shipped_registry):
    from arena.core.bot import BotSpec
    from arena.core.maps import resolve_map
    from arena.play.referee import MatchSetup, play
    from arena.storage.codec import encode_record

    game_map = resolve_map("empty_room")
    setup = MatchSetup("tron", (BotSpec("random"), BotSpec("wallhugger")), game_map, dict(game_map.header), 5, 1.0, 0)
    outcome = play(setup, shipped_registry)
    read = outcome.record(setup)
    stored = encode_record(outcome.record(setup, seat_keys=False))  # what a tournament stores
    assert stored == encode_record(read) and decode_record(stored) == read
    assert read["turns"] and all(list(turn) == ["0", "1"] for turn in read["turns"])
