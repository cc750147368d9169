"""``arena report --html`` writes replay pages for a bounded, stated choice of games, in bounded memory, unless
asked for all of them (``--replays all|none|N``)."""

import dataclasses
import re
import tracemalloc

import pytest

from arena.cli.main import app
from arena.play.executors import run_in_process
from arena.storage.store import Store
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import open_run, store_games
from tests.cli_runner import CliRunner

runner = CliRunner()
HUGE = 5_000  # holding every game's row takes ~47 MiB, the report ~0.35 MiB


def stored_run(path, registry, games):
    """A run of ``games`` random-vs-wallhugger games, stored cheaply: 20 games played, then stored again and
    again at the other game numbers (a report replays each record as it is)."""
    plan = plan_tournament(TournamentDefinition(maps=("empty_room",), bots=("random", "wallhugger"),
                                                games=games, seed=5), registry)
    assert len(plan.first_stage()) == games
    schedule = plan.first_stage()
    played = list(run_in_process([schedule[i] for i in range(20)], registry))
    with Store(path) as store:
        run_id = open_run(store, plan).run.run_id
        bot_ids = {}
        for start in range(0, games, 2000):
            store_games(store, run_id, plan.game,
                        [(schedule[i], dataclasses.replace(played[i % 20], index=i))
                         for i in range(start, min(start + 2000, games))], registry, bot_ids)
    return played


def pages(folder):
    return sorted(path.name for path in folder.iterdir()) if folder.exists() else []


def report(tmp_path, db, *options):
    result = runner.invoke(app, ["report", "1", "--db", str(db), "--html", str(tmp_path / "report.html"), *options])
    assert result.exit_code == 0, result.output
    return result, (tmp_path / "report.html").read_text()


@pytest.mark.slow
def test_a_huge_runs_report_writes_a_bounded_stated_choice_of_replay_pages_in_bounded_memory(tmp_path,
                                                                                            shipped_registry):
    db = tmp_path / "arena.db"
    played = stored_run(db, shipped_registry, HUGE)
    longest = max(range(20), key=lambda i: (played[i].turns, -i))  # its first copy is game `longest`

    # --replays 5 first: it also loads what any report loads, so the measure below is of this run's games alone
    (tmp_path / "five").mkdir()
    _, page = report(tmp_path / "five", db, "--replays", "5")
    five = pages(tmp_path / "five" / "report-games")
    spread = [k * HUGE // 4 for k in range(4)]  # 0, 1250, 2500, 3750
    expected = sorted({longest, *spread} if longest not in spread else {*spread, 1})
    assert five == ["index.html", *[f"run1-game{n:05d}.html" for n in expected]]
    assert f"Replay pages for 5 of {HUGE} games" in page

    tracemalloc.start()
    try:
        result, page = report(tmp_path, db)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    folder = tmp_path / "report-games"
    written = [name for name in pages(folder) if name != "index.html"]
    assert len(written) == 100 and "index.html" in pages(folder)
    assert f"run1-game{longest:05d}.html" in written
    assert f"Replay pages for 100 of {HUGE} games: the longest game of each pairing, then games spread evenly" in page
    assert "100 replay pages to report-games/" in result.stderr
    assert len(re.findall(r'href="report-games/run1-game\d+\.html"', page)) == 100
    assert peak < 8 * 2**20, f"{peak / 2**20:.1f} MiB"


@pytest.mark.slow
def test_replays_none_writes_none_and_all_writes_one_per_game(tmp_path, shipped_registry):
    db = tmp_path / "arena.db"
    stored_run(db, shipped_registry, 30)
    (tmp_path / "none").mkdir()
    _, page = report(tmp_path / "none", db, "--replays", "none")
    assert pages(tmp_path / "none" / "report-games") == []
    assert "No replay pages were written (--replays none); the run has 30 games." in page
    (tmp_path / "all").mkdir()
    _, page = report(tmp_path / "all", db, "--replays", "all")
    assert pages(tmp_path / "all" / "report-games") == ["index.html", *[f"run1-game{n:05d}.html" for n in range(30)]]
    assert "Every game (30) has a replay page." in page
    assert len(re.findall(r'href="report-games/run1-game\d+\.html"', page)) == 30


def test_a_bad_replays_value_is_one_line(tmp_path):
    result = runner.invoke(app, ["report", "1", "--db", str(tmp_path / "none.db"), "--html",
                                 str(tmp_path / "r.html"), "--replays", "some"])
    assert result.exit_code == 2
    assert result.stderr == "error: --replays 'some' is not all, none or a number of games\n"
