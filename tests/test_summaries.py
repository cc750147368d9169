"""Run summaries: kept as each game is stored, equal to a recomputation from the games, and rebuilt by the
migration that added them and by ``arena ratings --recompute``."""

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.stats.ratings import rate
from arena.storage import summaries, summary_queries
from arena.storage.history import finalize_run
from arena.storage.store import NewGameRow, Store
from tests.cli_runner import CliRunner
from tests.helpers import assert_summaries_match_games

runner = CliRunner()
BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "summaries_scale.py"


def synthetic_games(count, seed=1, players=(2, 3, 4)):
    """``count`` stored-game rows of made-up free-for-all games between bots a-e on two maps, some with a
    bot failing, in a shuffled order (as workers hand them in)."""
    chooser = random.Random(seed)
    games = []
    for idx in range(count):
        seated = chooser.sample("abcde", chooser.choice(players))
        ranks = [chooser.randint(1, len(seated)) for _ in seated]
        failures = {seat: chooser.choice(["crash", "timeout"]) for seat in range(len(seated))
                    if chooser.random() < 0.1}
        record = {"game": "tron", "seed": idx, "map": {"name": chooser.choice(["m1", "m2"])},
                  "players": [{"seat": seat, "bot": label, "version": "v"} for seat, label in enumerate(seated)],
                  "turns": [], "result": {"ranks": ranks, "reason": "made up"},
                  "failures": [{"seat": seat, "kind": kind, "detail": f"{kind} in game {idx}", "traceback": "tb"}
                               for seat, kind in failures.items()]}
        seats = [{"label": label, "bot_id": "abcde".index(label) + 1, "role": None} for label in seated]
        games.append(NewGameRow(idx, seats, ranks, "made up", failures, [0.001 * idx] * len(seated), 0.1, 0, record))
    chooser.shuffle(games)
    return games


def new_run(store, games):
    with store.transaction():
        for label in "abcde":
            store.bot_id(label, label, "v", f"{label}.py")
        return store.create_run("r", "tron", "round-robin", {}, "f", games)


def test_summaries_kept_game_by_game_equal_the_games_recomputed(monkeypatch):
    monkeypatch.setattr(summaries, "HISTORY_POINTS", 12)  # so that the history is thinned three times
    games = synthetic_games(150)
    with Store("arena.db") as store:
        run_id = new_run(store, len(games))
        for game in games[:100]:  # one at a time, as a tournament stores them
            store.add_game(run_id, *game)
        store.add_games(run_id, games[100:])  # and a batch
        store.add_games(run_id, games[:40])  # second copies: ignored, counted once
        assert summary_queries.standings(store, run_id).played == 150 == store.run(run_id).played
        assert not summary_queries.ratings_are_final(store, run_id)
        assert_summaries_match_games(store, run_id)

        # the live ratings: each game rated as it was stored, with the draw rate of the games stored so far
        live = {}
        ties = pairs = 0
        for game in games:
            labels = [seat["label"] for seat in game.seats]
            for i in range(len(labels)):
                for j in range(i + 1, len(labels)):
                    pairs += 1
                    ties += game.ranks[i] == game.ranks[j]
            rated, _ = rate([(labels, game.ranks)], probability=(ties + 1) / (pairs + 2), start=live)
            live.update(rated)
        standings = summary_queries.standings(store, run_id)
        assert {row.label: row.rating for row in standings.rows} == live
        for row in standings.rows:  # every step-th game's rating, step a power of two, then the current one
            history = summary_queries.rating_history(store, run_id, row.label)[(row.label, None)]
            step = summaries.thinned_step(row.games)
            assert step == 8 and [point.games for point in history] == [
                *range(step, row.games + 1, step), *([row.games] if row.games % step else [])]
            assert history[-1].rating == live[row.label] and len(history) <= 13

        failures = summary_queries.failure_summaries(store, run_id)
        first = min((g for g in games if g.failures), key=lambda g: g.idx)
        seat, kind = min(first.failures.items())
        label = first.seats[seat]["label"]
        assert (label, kind, f"{kind} in game {first.idx}") in [(row[0], row[1], row[4]) for row in failures
                                                                 if row[3] == first.idx]
        assert sum(row[2] for row in failures) == sum(len(g.failures) for g in games)
        shown = summary_queries.failed_games(store, run_id, 5)
        assert [f.game for f in shown] == sorted(f.game for f in shown) and shown[0].game == first.idx

        finalize_run(store, run_id, "complete")
        assert summary_queries.ratings_are_final(store, run_id)
        assert_summaries_match_games(store, run_id)
        final = summary_queries.rating_history(store, run_id, "a")[("a", None)]
        assert final[-1].rating == next(row.rating for row in summary_queries.standings(store, run_id).rows
                                        if row.label == "a") != live["a"]


def test_a_game_added_after_the_final_ratings_shows_the_live_ones_until_the_next_finish():
    games = synthetic_games(30, players=(2,))
    with Store("arena.db") as store:
        run_id = new_run(store, 30)
        store.add_games(run_id, games[:20])
        finalize_run(store, run_id, "interrupted")
        assert summary_queries.ratings_are_final(store, run_id)
        store.set_run_status(run_id, "running")  # resumed
        store.add_games(run_id, games[20:])
        assert not summary_queries.ratings_are_final(store, run_id)
        assert_summaries_match_games(store, run_id)
        finalize_run(store, run_id, "complete")
        assert summary_queries.ratings_are_final(store, run_id)
        assert_summaries_match_games(store, run_id)


def test_an_older_database_gets_its_summaries_when_opened_and_recompute_rebuilds_lost_ones():
    games = synthetic_games(60)
    with Store("arena.db") as store:
        run_id = new_run(store, 60)
        store.add_games(run_id, games)
        finalize_run(store, run_id, "complete")
        kept = summaries.contents(store.conn, run_id)
    conn = sqlite3.connect("arena.db")  # as arena of schema 3 left it: no summaries
    for table in summaries.TABLES:
        conn.execute(f"DROP TABLE {table}")
    conn.execute("DROP INDEX games_failed")
    conn.executescript("DROP TABLE ladder_draws; ALTER TABLE ladder DROP COLUMN pass; "  # and no schema 5 ladder
                       "ALTER TABLE ladder DROP COLUMN scheduled")
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with Store("arena.db") as store:
        assert summaries.contents(store.conn, run_id) == kept
        store.conn.execute("DELETE FROM summary_standings")  # lost
    lost = runner.invoke(app, ["ratings", "--recompute"])
    assert lost.exit_code == 0
    assert lost.stdout.splitlines()[1] == ("rebuilt the summaries of 1 runs from their games: "
                                           "1 differed and were replaced")
    with Store("arena.db") as store:
        assert summaries.contents(store.conn, run_id) == kept


@pytest.mark.slow
def test_a_tournament_with_roles_keeps_summaries_equal_to_its_games():
    played = runner.invoke(app, ["tournament", "catmouse_5x5", "-b", "greedy,wary,cm_random", "-n", "2", "-w", "1",
                                 "-f", "json"])
    assert played.exit_code == 0, played.output
    with Store("arena.db") as store:
        assert summary_queries.standings(store, 1).roles == ("cat", "mouse")
        assert_summaries_match_games(store, 1)
    shown = runner.invoke(app, ["show", "1", "-f", "json"])
    assert shown.stdout == played.stdout


@pytest.mark.slow
def test_the_benchmark_runs_small():
    result = subprocess.run([sys.executable, str(BENCHMARK), "--games", "3000", "--bots", "6"], capture_output=True,
                            text=True, timeout=300, cwd=BENCHMARK.parent)
    assert result.returncode == 0, result.stderr
    assert "show and report print the same before and after" in result.stdout
    assert "| show |" in result.stdout and "| report |" in result.stdout
