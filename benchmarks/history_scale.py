"""History scale: what finishing a run and reading results back cost as the database's stored history grows.

Run: python benchmarks/history_scale.py [--sizes 10000,100000] [--runs 10] [--bots 8] [--run-games 1000]

For each size, builds a database holding that many stored games (through the store's API, without
playing them: the records are copies of a few real Tron games, played once at the start), in ``--runs``
finished runs of equal size among ``--bots`` bots, so that only the number of stored games changes from
one size to the next. Then times, in this process:

- finishing one more run of ``--run-games`` games (its snapshots, its standings, the leaderboards), as
  the tournament command does once its games are stored;
- ``arena ratings``, ``arena ratings --history bot0``, ``arena runs`` and ``arena report RUN`` of that last
  run, each the best of three (through the command-line app, without the interpreter's start-up);
- ``arena ratings --recompute`` (once);

and the database's size per stored game. Prints one table; each figure's ratio to the smallest size's
says how it grows with stored history. It uses only what older arenas have too, so running it with an
older checkout first on ``PYTHONPATH`` measures that one the same way.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from timing import Figures, add_json_option, best_seconds
from typer.testing import CliRunner

from arena.cli.main import app
from arena.play.referee import MatchOutcome, run_match
from arena.plugins.registry import load_registry
from arena.storage.history import finalize_run
from arena.storage.queries import run_standings
from arena.storage.store import Store

TEMPLATE_GAMES = 40
BATCH = 1000


def template_games() -> list[tuple[MatchOutcome, dict]]:
    """A few short real Tron games and their records, to store copies of."""
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


def store_run(store: Store, name: str, games: int, bots: list[int], templates: list[tuple[MatchOutcome, dict]],
              chooser: random.Random) -> int:
    """Store one finished round robin of ``games`` games between ``bots`` (ids) and return its id (not finalized)."""
    run_id = store.create_run(name, "tron", "round-robin", {"name": name}, name, games)
    pairs = [(a, b) for a in bots for b in bots if a != b]
    for start in range(0, games, BATCH):
        with batch(store):
            for idx in range(start, min(games, start + BATCH)):
                first, second = pairs[idx % len(pairs)]
                outcome, record = templates[chooser.randrange(len(templates))]
                ranks = chooser.choices([(1, 2), (2, 1), (1, 1)], weights=(first + 4, second + 4, 2))[0]
                seats = [{"label": f"bot{first}", "bot_id": first, "role": None},
                         {"label": f"bot{second}", "bot_id": second, "role": None}]
                store.add_game(run_id, idx, seats, ranks, outcome.reason, outcome.failure_kinds, outcome.think_time,
                               outcome.duration, outcome.turns, record)
    return run_id


@contextmanager
def batch(store: Store) -> Iterator[None]:
    """Commit the games stored inside at once (as ``Store.transaction``, which older arenas lack, does)."""
    store.conn.execute("BEGIN IMMEDIATE")
    yield
    store.conn.execute("COMMIT")


def best_of(times: int, action: Callable[[], None]) -> float:
    """The shortest of ``times`` timings of ``action``, in seconds."""
    return best_seconds(action, times)


def command(*args: str) -> Callable[[], None]:
    """Run ``arena ARGS`` in this process, failing loudly if it fails."""
    def run() -> None:
        result = CliRunner().invoke(app, list(args))
        if result.exit_code != 0:
            raise RuntimeError(f"arena {' '.join(args)} failed: {result.output}")
    return run


def measure(size: int, runs: int, bot_count: int, run_games: int, templates: list[tuple[MatchOutcome, dict]],
            directory: Path) -> dict[str, float]:
    """Build a database with ``size`` stored games and time everything on it."""
    db = directory / f"history-{size}.db"
    chooser = random.Random(size)
    started = time.perf_counter()
    with Store(db) as store:
        bots = [store.bot_id(f"bot{i}", f"bot{i}", "v1", f"bots/bot{i}.py") for i in range(bot_count)]
        for number in range(runs):
            run_id = store_run(store, f"history-{number}", size // runs, bots, templates, chooser)
            finalize_run(store, run_id, "complete")
        last = store_run(store, "measured", run_games, bots, templates, chooser)
        built = time.perf_counter() - started
        finish = best_of(1, lambda: (finalize_run(store, last, "complete"), run_standings(store, last)))
    figures = {"build s": built, "finish run": finish}
    for label, args in (("ratings", ("ratings",)), ("--history", ("ratings", "--history", "bot0")),
                        ("runs", ("runs",)), ("report", ("report", str(last)))):
        figures[label] = best_of(3, command(*args, "--db", str(db)))
    figures["--recompute"] = best_of(1, command("ratings", "--recompute", "--db", str(db)))
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    figures["bytes/game"] = db.stat().st_size / (size + run_games)
    return figures


def main() -> None:
    """Build each size, time, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000",
                        help="Stored games before the measured run, comma separated (e.g. 10000,100000,1000000).")
    parser.add_argument("--runs", type=int, default=10, help="Finished runs the stored games are split into.")
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--run-games", type=int, default=1000, help="Games of the measured run.")
    parser.add_argument("--dir", type=Path, default=None, help="Where to build the databases [default: a temp dir].")
    add_json_option(parser)
    args = parser.parse_args()
    json_figures = Figures.from_arguments(args)
    sizes = [int(size) for size in args.sizes.split(",")]
    templates = template_games()
    with tempfile.TemporaryDirectory() as temporary:
        directory = args.dir or Path(temporary)
        results = {}
        for size in sizes:
            results[size] = measure(size, args.runs, args.bots, args.run_games, templates, directory)
            for name, value in results[size].items():
                json_figures.add(f"{size} stored games, {name}", value,
                                 "bytes" if name == "bytes/game" else "s")
            print(f"{size:>9} stored games: " + ", ".join(f"{k} {v:.3f}" for k, v in results[size].items()),
                  flush=True)
    base = results[sizes[0]]
    print(f"\n{'stored games':>12} | " + " | ".join(f"{k:>16}" for k in base))
    for size, figures in results.items():
        print(f"{size:>12} | " + " | ".join(f"{v:>8.3f} ({v / base[k]:4.2f}x)" if k != "bytes/game"
                                             else f"{v:>16.0f}" for k, v in figures.items()))
    json_figures.write()


if __name__ == "__main__":
    main()
