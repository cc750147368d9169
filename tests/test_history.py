"""Ratings over stored history: the incremental all-time leaderboard against a computation from scratch,
resuming an older run, --recompute, the compressed records and the migration of version-1 databases."""

import json
import random
import sqlite3
import zlib

import pytest

import arena.storage.codec
import arena.storage.migrations
import arena.tournament.persistent_ladder
from arena.cli.main import app
from arena.stats.ratings import Rating, draw_probability, rate
from arena.storage import summaries
from arena.storage.codec import decode_record, encode_record, record_json
from arena.storage.history import finalize_run, leaderboard_after, recompute, update_leaderboards
from arena.storage.migrations import SCHEMA_VERSION
from arena.storage.queries import leaderboard, run_summaries
from arena.storage.store import LadderRow, NewGameRow, Store
from arena.tournament.persistent_ladder import environment, ladder_run
from tests.cli_runner import CliRunner
from tests.helpers import assert_summaries_match_games

runner = CliRunner()
BOTS = 5


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def record_for(idx, seed, ranks, labels):
    """A small record of the ``arena-record/1`` shape (what the store keeps is up to the store)."""
    return {"format": "arena-record/1", "game": "tron", "options": {"moves": "simultaneous"},
            "map": {"name": "tiny", "text": "#####\n#1.2#\n#####\n"}, "seed": seed,
            "players": [{"seat": seat, "bot": label, "version": "v1"} for seat, label in enumerate(labels)],
            "turns": [{"0": "E", "1": "W"}] * (idx % 3 + 1),
            "result": {"ranks": list(ranks), "reason": "draw" if ranks[0] == ranks[1] else "crash"},
            "failures": [], "think_time": [0.000125, 1.5e-05]}


def add_games(store, run_id, indices, chooser, bots):
    """Store seeded random two-player games with the given schedule indices."""
    for idx in indices:
        first, second = chooser.sample(bots, 2)
        ranks = chooser.choices([(1, 2), (2, 1), (1, 1)], weights=(first + 2, second + 2, 2))[0]
        labels = (f"bot{first}", f"bot{second}")
        seats = [{"label": labels[0], "bot_id": first, "role": None}, {"label": labels[1], "bot_id": second,
                                                                       "role": None}]
        store.add_game(run_id, idx, seats, ranks, "r", {}, (0.001, 0.002), 0.01, idx % 3 + 1,
                       record_for(idx, idx, ranks, labels))


def new_run(store, name, games):
    return store.create_run(name, "tron", "round-robin", {"name": name}, name, games)


def bot_ids(store):
    """The bots' ids: bot ``i`` is labelled ``bot{i}``."""
    ids = [store.bot_id(f"bot{i}", f"bot{i}", "v1", f"bots/bot{i}.py") for i in range(1, BOTS + 1)]
    assert ids == list(range(1, BOTS + 1))
    return ids


def by_hand(store, run_id):
    """The leaderboard after ``run_id`` as the documented definition states it, with the rating function
    itself: each run's games continue the ratings before, with the draw rate of all games up to that run."""
    ratings: dict = {}
    counts: dict = {}
    ranks_so_far = []
    for run in range(1, run_id + 1):
        games = [((row.bot_ids[0], None), (row.bot_ids[1], None)) for row in store.games(run_id=run)]
        ranks = [row.ranks for row in store.games(run_id=run)]
        ranks_so_far += ranks
        ratings, _ = rate(list(zip(games, ranks, strict=True)), probability=draw_probability(ranks_so_far),
                          start=ratings)
        for players in games:
            for player in players:
                counts[player] = counts.get(player, 0) + 1
    return sorted((bot, role, r.mu, r.sigma, counts[(bot, role)]) for (bot, role), r in ratings.items())


def test_the_incremental_leaderboard_is_the_one_computed_from_scratch():
    chooser = random.Random(1)
    with Store("arena.db") as store:
        bots = bot_ids(store)
        for number, size in enumerate((30, 7, 25, 1, 40)):
            run_id = new_run(store, f"run{number}", size)
            add_games(store, run_id, range(size), chooser, bots)
            finalize_run(store, run_id, "complete")
        for run_id in range(1, 6):
            stored = store.run_leaderboard(run_id)
            assert stored == leaderboard_after(store, "tron", run_id) == by_hand(store, run_id)
        # after one run it is the run's own rating, with the run's draw rate, as before the boards were kept
        ratings, _ = rate([(((r.bot_ids[0], None), (r.bot_ids[1], None)), r.ranks) for r in store.games(run_id=1)])
        assert store.run_leaderboard(1) == sorted((bot, role, r.mu, r.sigma, store.run_leaderboard(1)[i][4])
                                                  for i, ((bot, role), r) in enumerate(sorted(ratings.items())))
        # the draw counts stored with the last board are those of every stored game
        ties = sum(row.ranks[0] == row.ranks[1] for row in store.games())
        assert store.leaderboard_state("tron")[:2] == (5, (ties, 103))
        # the ladder counts its own games' draws (the league's rule), not the leaderboard's: none yet
        assert environment(store, "tron").draw_probability == 0.5


def test_a_new_run_rates_only_its_own_games_and_a_resumed_older_run_rates_the_runs_after_it_again():
    chooser = random.Random(2)
    with Store("arena.db") as store:
        bots = bot_ids(store)
        first = new_run(store, "first", 20)
        add_games(store, first, [0, 1, 2, 3, 5, 8], chooser, bots)  # interrupted, with gaps
        finalize_run(store, first, "interrupted")
        for name in ("second", "third"):
            run_id = new_run(store, name, 10)
            add_games(store, run_id, range(10), chooser, bots)
            finalize_run(store, run_id, "complete")
        assert update_leaderboards(store, "tron", 3) == 1  # the board before it is stored: only run 3 is rated
        before = {run: store.run_leaderboard(run) for run in (2, 3)}

        add_games(store, first, [4, 6, 7, *range(9, 20)], chooser, bots)  # resumed: fills the gaps, finishes
        finalize_run(store, first, "complete")
        for run_id in (1, 2, 3):
            assert store.run_leaderboard(run_id) == by_hand(store, run_id)
        assert store.run_leaderboard(2) != before[2] and store.run_leaderboard(3) != before[3]
        assert {bot: games for bot, _, _, _, games in store.run_leaderboard(3)} == {
            bot: sum(bot in row.bot_ids for row in store.games()) for bot in bots}
        assert update_leaderboards(store, "tron", 1) == 3

        fourth = new_run(store, "fourth", 5)  # a run still running in another process: left to store its own
        add_games(store, fourth, range(2), chooser, bots)
        assert update_leaderboards(store, "tron", 2) == 2
        assert store.run_leaderboard(fourth) == []


def test_recompute_is_one_pass_and_restores_a_tampered_leaderboard():
    chooser = random.Random(3)
    with Store("arena.db") as store:
        bots = bot_ids(store)
        for name in ("a", "b", "c"):
            run_id = new_run(store, name, 12)
            add_games(store, run_id, range(12), chooser, bots)
            finalize_run(store, run_id, "complete")
        boards = {run: store.run_leaderboard(run) for run in (1, 2, 3)}
        snapshots = sum(len(store.snapshots(run)) for run in (1, 2, 3))
        assert recompute(store).differing == 0
        store.conn.execute("UPDATE leaderboard SET sigma = sigma / 2 WHERE run_id = 2 AND bot_id = 1")
        store.conn.execute("DELETE FROM leaderboard WHERE run_id = 3 AND bot_id = 2")
        result = recompute(store)
        assert (result.checked, result.differing) == (snapshots + 3 * BOTS, 2)
        assert {run: store.run_leaderboard(run) for run in (1, 2, 3)} == boards


def test_runs_lists_each_runs_leader_from_its_own_final_ratings():
    chooser = random.Random(4)
    with Store("arena.db") as store:
        bots = bot_ids(store)
        run_id = new_run(store, "only", 30)
        add_games(store, run_id, range(30), chooser, bots)
        rated = finalize_run(store, run_id, "complete")
        best = max(rated.final.items(), key=lambda item: (item[1].conservative, -item[0][0]))
        (summary,) = run_summaries(store)
        assert (summary.bots, summary.leader, summary.run.played) == (BOTS, f"bot{best[0][0]}", 30)
        assert store.run_ratings(run_id) == rated.rows()
        assert rated.rows() == [(bot, None, r.mu, r.sigma, sum(bot in g.bot_ids for g in store.games()))
                                for (bot, _), r in sorted(rated.final.items())]
        assert rated.by_label() == {(f"bot{bot}", None): r for (bot, _), r in rated.final.items()}
        assert [r.label for r in leaderboard(store)] == [
            f"bot{bot}" for bot, *_ in sorted(store.run_leaderboard(run_id), key=lambda row: -Rating(*row[2:4])
                                              .conservative)]


RECORDS = [
    record_for(0, 7, (1, 2), ("a", "b")),
    {"format": "arena-record/1", "game": "catmouse", "options": {}, "map": None, "seed": 2 ** 40 + 1,
     "players": [{"seat": 0, "bot": "zoë ✓", "version": "x"}], "turns": [], "result": {"ranks": [1], "reason": ""},
     "failures": [{"seat": 0, "kind": "crash", "detail": "line 1\n\ttab \"quoted\" \\ \u0000"}],
     "think_time": [0.1 + 0.2, 1e-300, 12345.678901], "hook_errors": ["x"]},
]


@pytest.mark.parametrize("record", RECORDS)
def test_a_record_round_trips_exactly_through_the_store(record):
    stored = encode_record(record)
    assert decode_record(stored) == record and record_json(stored) == json.dumps(record)
    assert decode_record(json.dumps(record)) == record  # records stored before compression
    with Store("arena.db") as store:
        run_id = new_run(store, "r", 1)
        store.add_game(run_id, 0, [{"label": "a", "bot_id": 1, "role": None}], [1], "r", {}, (0.5,), 0.1, 0, record)
        (row,) = store.games(run_id=run_id)
        assert row.record == record and row.record_text == json.dumps(record)
        assert isinstance(store.conn.execute("SELECT record FROM games").fetchone()[0], bytes)


def full_window_stream(record):
    """A record compressed as arena first stored them: zlib's default 32 KB window, at level 9."""
    compressor = zlib.compressobj(zlib.Z_BEST_COMPRESSION, zdict=arena.storage.codec._DICTIONARY_1)
    return compressor.compress(json.dumps(record).encode()) + compressor.flush()


def long_record(turns):
    """A record of ``turns`` varied turns: its JSON outgrows small windows."""
    moves = random.Random(turns)
    return record_for(0, 7, (1, 2), ("a", "b")) | {
        "turns": [{"0": moves.choice("NESW"), "1": moves.choice("NESW")} for _ in range(turns)]}


@pytest.mark.parametrize("record", [*RECORDS, long_record(40), long_record(300), long_record(5000)])
def test_a_record_is_stored_as_small_as_with_the_full_window_and_older_streams_still_read(record):
    stored = encode_record(record)
    older = full_window_stream(record)
    assert len(stored) == len(older)
    assert record_json(older) == json.dumps(record) == zlib.decompressobj(
        zdict=arena.storage.codec._DICTIONARY_1).decompress(stored).decode()  # as an older arena reads it


def test_a_batch_holding_games_stored_already_stores_and_counts_only_the_new_ones():
    with Store("arena.db") as store:
        run_id = new_run(store, "r", 4)
        seats = [{"label": "a", "bot_id": 1, "role": None}, {"label": "b", "bot_id": 2, "role": None}]

        def row(idx, ranks, think):
            return NewGameRow(idx, seats, ranks, "crash", {}, think, 0.1, 1, record_for(idx, idx, ranks, ("a", "b")))

        store.add_games(run_id, [row(0, (1, 2), (0.25, 0.5))])
        store.add_games(run_id, [row(0, (2, 1), (1.0, 1.0)), row(1, (1, 2), (0.5, 0.25)),
                                 row(1, (1, 1), (1.0, 1.0)), row(2, (2, 1), (0.125, 0.125))])
        assert [(game.idx, game.ranks, game.think_time) for game in store.games(run_id=run_id)] == [
            (0, (1, 2), (0.25, 0.5)), (1, (1, 2), (0.5, 0.25)), (2, (2, 1), (0.125, 0.125))]
        standings = {row.label: (row.games, row.wins, row.draws, row.losses)
                     for row in summaries.read(store.conn, run_id).tally.rows.values()}
        assert standings == {"a": (3, 2, 0, 1), "b": (3, 1, 0, 2)}
        assert_summaries_match_games(store, run_id)


def version_1_database(path):
    """A database as arena wrote it at schema version 1: records as JSON text, snapshots, one leaderboard."""
    conn = sqlite3.connect(path)
    for statement in arena.storage.migrations.MIGRATIONS[1].split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("application", "arena"), ("schema_version", "1")])
    conn.executemany("INSERT INTO bots (id, label, name, version, source, first_seen) VALUES (?, ?, ?, ?, ?, ?)",
                     [(1, "a", "a", "v1", "bots/a.py", "2025"), (2, "b", "b", "v1", "bots/b.py", "2025")])
    conn.execute("INSERT INTO runs VALUES (1, 'old', 'tron', 'round-robin', '{}', 'f', 3, 'complete', "
                 "'2025-01-01T00:00:00', '2025-01-01T00:01:00')")
    records = [record_for(idx, idx, ranks, ("a", "b")) for idx, ranks in enumerate([(1, 2), (1, 1), (2, 1)])]
    seats = json.dumps([{"label": "a", "bot_id": 1, "role": None}, {"label": "b", "bot_id": 2, "role": None}])
    for idx, record in enumerate(records):
        conn.execute("INSERT INTO games (run_id, idx, game, map, seed, seats, ranks, reason, failures, think_time, "
                     "duration, turns, record, finished_at) VALUES (1, ?, 'tron', 'tiny', ?, ?, ?, 'r', '{}', "
                     "'[0.001, 0.002]', 0.01, 1, ?, '2025')",
                     (idx, idx, seats, json.dumps(record["result"]["ranks"]), json.dumps(record)))
    ratings: list = []
    rate([(((1, None), (2, None)), tuple(r["result"]["ranks"])) for r in records], ratings)
    conn.executemany("INSERT INTO rating_snapshots VALUES (1, ?, ?, '', ?, ?)",
                     [(position, key[0], mu, sigma) for position, key, mu, sigma in ratings])
    final = {key[0]: Rating(mu, sigma) for _, key, mu, sigma in ratings}
    conn.executemany("INSERT INTO leaderboard VALUES (1, 'tron', ?, '', ?, ?, 3)",
                     [(bot, r.mu, r.sigma) for bot, r in final.items()])
    conn.commit()
    conn.close()
    return records, final


def test_a_version_1_database_migrates_and_reads_back_the_same():
    records, final = version_1_database("old.db")
    runs_before = json.loads(invoke("runs", "-f", "json", "--db", "old.db").stdout)  # read-only: migrates it
    with Store("old.db") as store:
        assert store.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == \
            str(SCHEMA_VERSION)
        assert [row.record for row in store.games()] == records
        assert {row[0] for row in store.conn.execute("SELECT typeof(record) FROM games")} == {"blob"}
        assert store.run(1).played == 3
        assert store.run_ratings(1) == sorted((bot, None, r.mu, r.sigma, 3) for bot, r in final.items())
        assert len(store.snapshots(1)) == 6
    best = max(final, key=lambda bot: final[bot].conservative)
    assert [(r["run"], r["bots"], r["leader"], r["games"]) for r in runs_before] == [("1", "2", "ab"[best - 1],
                                                                                        "3/3")]
    # a single run's leaderboard is the same number under the way boards are kept now: nothing differs
    assert invoke("ratings", "--recompute", "--db", "old.db").stdout == \
        "recomputed 8 stored ratings from the games: all equal to the stored ones\n" \
        "rebuilt the summaries of 1 runs from their games: all equal to the kept ones\n"
    with Store("old.db") as store:
        assert store.leaderboard_state("tron")[:2] == (1, (1, 3))


def test_a_version_4_ladder_migrates_with_its_pass_from_its_games_and_the_draws_of_its_own_games():
    chooser = random.Random(3)
    with Store("arena.db") as store:
        bots = bot_ids(store)
        ladder, _ = ladder_run(store, "tron")
        add_games(store, ladder, range(30), chooser, bots)
        add_games(store, new_run(store, "a tournament", 20), range(20), chooser, bots)  # not the ladder's games
        ties = sum(row.ranks[0] == row.ranks[1] for row in store.games(run_id=ladder))
        assert 0 < ties < sum(row.ranks[0] == row.ranks[1] for row in store.games())
    conn = sqlite3.connect("arena.db")  # as an arena of schema 4 left it: ladder entries with no pass, no draws
    conn.executescript("DROP TABLE ladder_draws; ALTER TABLE ladder DROP COLUMN pass; "
                       "ALTER TABLE ladder DROP COLUMN scheduled; "
                       "UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.executemany("INSERT INTO ladder (game, bot_id, role, mu, sigma, games, last_round) "
                     "VALUES ('tron', ?, '', ?, 3.0, ?, ?)", [(1, 27.0, 12, 5), (2, 24.0, 18, 4)])
    conn.commit()
    conn.close()
    with Store("arena.db") as store:
        assert store.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == \
            str(SCHEMA_VERSION) == "5"
        assert store.ladder("tron") == {(1, None): LadderRow(27.0, 3.0, 12, 5, 12.0, 12),
                                        (2, None): LadderRow(24.0, 3.0, 18, 4, 18.0, 18)}
        assert store.ladder_draws("tron") == (ties, 30)
        assert store.ladder_draws("snafu") == (0, 0)
        assert environment(store, "tron").draw_probability == (ties + 1) / (30 + 2)


def test_a_corrupt_game_page_is_refused_before_writing_and_reported_when_read(tmp_path):
    db = tmp_path / "big.db"
    chooser = random.Random(5)
    with Store(db) as store:
        bots = bot_ids(store)
        run_id = new_run(store, "big", 400)
        add_games(store, run_id, range(400), chooser, bots)
        finalize_run(store, run_id, "complete")
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = store.conn.execute("SELECT pageno FROM dbstat WHERE name = 'games' AND pagetype = 'leaf' "
                                  "ORDER BY pageno LIMIT 1 OFFSET 3").fetchone()[0]
    with db.open("r+b") as handle:
        handle.seek((page - 1) * 4096)
        handle.write(b"\xff" * 4096)
    content = db.read_bytes()
    assert invoke("runs", "--db", db).exit_code == 0  # it reads no game
    exported = invoke("export", "1", "--jsonl", "-", "--db", db)
    assert exported.exit_code == 2
    assert exported.stderr.strip().splitlines()[-1].startswith("error: the database is corrupt or unreadable (")
    played = invoke("tournament", "empty_room", "-b", "random,floodfill", "-n", "2", "-w", "1", "--db", db)
    assert played.exit_code == 2
    assert played.stderr.strip().startswith(f"error: {db}: the database is corrupt")
    assert db.read_bytes() == content


def test_the_ladder_grows_its_newest_run_until_another_run_or_its_size_limit_starts_a_new_one(monkeypatch):
    monkeypatch.setattr(arena.tournament.persistent_ladder, "LADDER_RUN_GAMES", 10)
    with Store("arena.db") as store:
        first, index = ladder_run(store, "tron")
        assert index == 0 and store.run(first).name == "tron ladder"
        store.set_run_status(first, "complete", scheduled=6)
        assert ladder_run(store, "tron") == (first, 6)  # a round continues it
        new_run(store, "a tournament", 4)  # a newer run of the game: a round would rate it again
        second, index = ladder_run(store, "tron")
        assert second == first + 2 and index == 0 and store.run(second).name == "tron ladder, part 2"
        store.set_run_status(second, "complete", scheduled=10)  # full
        third, _ = ladder_run(store, "tron")
        assert third == second + 1 and store.run(third).name == "tron ladder, part 3"
        store.create_run("snafu ladder", "snafu", "ladder", {"game": "snafu"}, "ladder-snafu", 0)
        assert ladder_run(store, "tron") == (third, 0)  # other games' runs do not count


def test_seatings_equal_in_value_but_not_in_type_are_stored_as_written():
    with Store("arena.db") as store:
        run_id = new_run(store, "r", 3)
        for idx, bot_id in enumerate((1, 1.0, 1)):
            store.add_game(run_id, idx, [{"label": "a", "bot_id": bot_id, "role": None}], [1], "r", {}, (0.5,), 0.1,
                           0, record_for(idx, idx, (1, 2), ("a", "b")))
        assert [row[0] for row in store.conn.execute("SELECT seats FROM games ORDER BY idx")] == [
            '[{"label":"a","bot_id":1,"role":null}]', '[{"label":"a","bot_id":1.0,"role":null}]',
            '[{"label":"a","bot_id":1,"role":null}]']
