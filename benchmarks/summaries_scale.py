"""Summaries: `arena show` and `arena report` of one long run (a league never ends), read from the run's summaries
against reading every game again, as they did before the summaries.

Run: python benchmarks/summaries_scale.py [--games 1000000] [--bots 8] [--db FILE]

Builds one run of ``--games`` games among ``--bots`` bots, stored through ``Store.add_games`` (the store's own
path: each game's row and its summaries in one transaction a batch, as a tournament stores the games that
arrive together), copies of a few real Tron games played once at the start. Then times, in this process:

- ``arena show RUN``, ``arena report RUN`` and ``arena report RUN --html FILE --no-replays`` while the run is
  being played (live ratings) and once it is finished (its final ratings), each the best of three, through the
  command-line app without the interpreter's start-up;
- the same two answers computed the old way: every game read back and tallied, and rated again (show's
  standings and failures; report's standings, analysis and failures), once;
- finishing the run (``finalize_run``: its ratings in schedule order, snapshots, leaderboard, final summaries);

and checks that the old way and the summaries give the same standings, head-to-head, analysis and failures.
With ``--db``, an existing database built by an earlier call is measured again (nothing is built).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from timing import Figures, add_json_option, best_seconds
from typer.testing import CliRunner

from arena.cli.main import app
from arena.play.referee import MatchOutcome, run_match
from arena.plugins.registry import load_registry
from arena.report.analysis import analysis_records
from arena.report.failures import failure_records, failures_by_bot, failures_from_summaries
from arena.report.tables import export
from arena.stats.analysis import analyse
from arena.stats.standings import standings_from_games
from arena.storage import summary_queries
from arena.storage.history import finalize_run, played_from_rows
from arena.storage.store import NewGameRow, Store

TEMPLATE_GAMES = 40
BATCH = 2000


def template_games() -> list[tuple[MatchOutcome, dict]]:
    """A few short real Tron games (a crasher among them) and their records, to store copies of."""
    registry = load_registry()
    bots = ["random", "chaser", "wallhugger", "floodfill"]
    games = []
    for seed in range(TEMPLATE_GAMES):
        pair = [bots[seed % 4], bots[(seed // 4 + seed + 1) % 4]]
        if pair[0] == pair[1]:
            pair[1] = bots[(seed + 2) % 4]
        outcome = run_match("tron", pair, game_map="empty_room", seed=seed, time_limit=0.05, registry=registry)
        games.append((outcome, outcome.record()))
    return games


def build(db: Path, games: int, bot_count: int) -> tuple[int, float]:
    """Store one run of ``games`` games between ``bot_count`` bots; its id and the seconds it took."""
    templates = template_games()
    chooser = random.Random(7)
    started = time.perf_counter()
    with Store(db) as store:
        with store.transaction():
            bots = [store.bot_id(f"bot{i}", f"bot{i}", "v1", f"bots/bot{i}.py") for i in range(bot_count)]
            run_id = store.create_run("league", "tron", "round-robin", {"name": "league"}, "league", games)
        pairs = [(a, b) for a in range(bot_count) for b in range(bot_count) if a != b]
        maps = ["empty_room", "center_block", "four_corners"]
        for start in range(0, games, BATCH):
            batch = []
            for idx in range(start, min(games, start + BATCH)):
                first, second = pairs[idx % len(pairs)]
                outcome, record = templates[chooser.randrange(len(templates))]
                ranks = chooser.choices([(1, 2), (2, 1), (1, 1)], weights=(first + 4, second + 4, 2))[0]
                failures = {1: "crash"} if ranks == (1, 2) and second == 0 and idx % 7 == 0 else {}
                record = {**record, "map": {"name": maps[idx % 3]},
                          "players": [{"seat": 0, "bot": f"bot{first}", "version": "v1"},
                                      {"seat": 1, "bot": f"bot{second}", "version": "v1"}],
                          "result": {"ranks": list(ranks), "reason": "made up"},
                          "failures": [{"seat": 1, "kind": "crash", "detail": f"crashed in game {idx}",
                                        "traceback": "  File bot0.py, line 3"}] if failures else []}
                seats = [{"label": f"bot{first}", "bot_id": bots[first], "role": None},
                         {"label": f"bot{second}", "bot_id": bots[second], "role": None}]
                batch.append(NewGameRow(idx, seats, ranks, "made up", failures, outcome.think_time, outcome.duration,
                                        outcome.turns, record))
            store.add_games(run_id, batch)
    return run_id, time.perf_counter() - started


def command(*args: str) -> Callable[[], None]:
    """Run ``arena ARGS`` in this process, failing loudly if it fails."""
    def run() -> None:
        result = CliRunner().invoke(app, list(args))
        if result.exit_code != 0:
            raise RuntimeError(f"arena {' '.join(args)} failed: {result.output}")
    return run


def old_show(store: Store, run_id: int) -> str:
    """What ``arena show RUN -f json`` and its failures printed before the summaries, computed as it was: every
    game read back, tallied and rated again, and every failed game's record read."""
    run = store.run(run_id)
    standings = standings_from_games(run.game, played_from_rows(list(store.games(run_id=run_id))), run.scheduled)
    failures = failures_by_bot((row.idx, row.record) for row in store.failed_games(run_id))
    return export(standings, "json") + json.dumps(failure_records(failures))


def new_show(store: Store, run_id: int) -> str:
    """The same from the summaries."""
    standings = summary_queries.standings(store, run_id)
    failures = failures_from_summaries(summary_queries.failure_summaries(store, run_id))
    return export(standings, "json") + json.dumps(failure_records(failures))


def old_report(store: Store, run_id: int) -> str:
    """``arena report RUN -f json``'s content, computed as it was before the summaries."""
    run = store.run(run_id)
    played = played_from_rows(list(store.games(run_id=run_id)))
    standings = standings_from_games(run.game, played, run.scheduled)
    failures = failures_by_bot((row.idx, row.record) for row in store.failed_games(run_id))
    return json.dumps({**analysis_records(standings, analyse(played)), "failures": failure_records(failures)})


def new_report(store: Store, run_id: int) -> str:
    """The same from the summaries."""
    standings = summary_queries.standings(store, run_id)
    failures = failures_from_summaries(summary_queries.failure_summaries(store, run_id))
    return json.dumps({**analysis_records(standings, summary_queries.analysis(store, run_id)),
                       "failures": failure_records(failures)})


def commands(db: Path, run_id: int, directory: Path) -> dict[str, float]:
    """The three commands' best of three, in seconds."""
    return {name: best_seconds(command(*args, "--db", str(db)), 3) for name, args in (
        ("show", ("show", str(run_id))), ("report", ("report", str(run_id))),
        ("report --html", ("report", str(run_id), "--html", str(directory / "report.html"), "--no-replays")))}


def main() -> None:
    """Build the run, time, check, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="Games of the run.")
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--db", type=Path, default=None, help="Keep the database here (measured again if it exists).")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        db = args.db or directory / "summaries.db"
        if db.exists():
            with Store(db, read_only=True) as store:
                run_id = store.latest_run().id
        else:
            run_id, built = build(db, args.games, args.bots)
            figures.add("build (store games and summaries)", built, "s")
            print(f"stored {args.games:,} games in {built:.1f} s ({args.games / built:,.0f} games/s)", flush=True)
        rows: list[tuple[str, float, float]] = []
        with Store(db) as store:
            if store.run(run_id).status == "running":
                live = commands(db, run_id, directory)
                rows += [(f"{name} (live, while played)", seconds, float("nan")) for name, seconds in live.items()]
                finished = best_seconds(lambda: finalize_run(store, run_id, "complete"))
                figures.add("finish the run", finished, "s")
                print(f"finish the run: {finished:.1f} s", flush=True)
            final = commands(db, run_id, directory)
            old = {"show": best_seconds(lambda: old_show(store, run_id)),
                   "report": best_seconds(lambda: old_report(store, run_id))}
            rows += [(name, seconds, old.get(name, float("nan"))) for name, seconds in final.items()]
            same = old_show(store, run_id) == new_show(store, run_id) and \
                old_report(store, run_id) == new_report(store, run_id)
            played = store.run(run_id).played
        for name, seconds, before in rows:
            figures.add(f"{name}, from summaries", seconds, "s")
            if before == before:
                figures.add(f"{name}, reading every game", before, "s")
        print(f"\n{played:,} games: {'show and report print the same before and after' if same else 'DIFFERENT'}")
        print("| command | from summaries | reading every game | ratio |\n|---|---|---|---|")
        for name, seconds, before in rows:
            old_text = f"{before:.2f} s" if before == before else "-"
            ratio = f"{before / seconds:,.0f}x" if before == before else "-"
            print(f"| {name} | {seconds:.3f} s | {old_text} | {ratio} |")
        figures.write()
        if not same:
            raise SystemExit("the summaries and the games disagree")


if __name__ == "__main__":
    main()
