"""Load on a league's web server: concurrent readers of its pages while its ladder plays and stores games.

Builds (or reuses) a league with ``--games`` stored games, printing the seconds each ``--step`` games (10,000)
took to queue, hand out, store and rate, and the last step's time over the first's (a ladder whose cost per game
stays flat prints about 1), and what each page's data costs to compute afresh (as after each game stored). Then
it serves it with ``arena serve`` on a free loopback port (its ladder playing on one worker), and runs
``--clients`` readers for ``--seconds`` seconds, each asking in turn for the leaderboard (page and API), a bot's
page, the games feed and a game's replay page. It prints (and with ``--json`` writes) the latency percentiles,
the requests per second, the errors and the games the ladder stored meanwhile. Loopback only; it stops by
itself and stops the server.

The league's bots are deterministic (they never use their random number generator) and its map is fixed, so a
game between two bots in two seats is the same game whatever its seed: the database is filled by playing each
pairing once for real and storing that outcome under each queue entry of the pairing, through the league's
own ``schedule_ranked``, ``waiting``, ``setups`` and ``record_outcome`` called as the ladder's loop calls them
(stored and rated as the ladder does), which takes minutes instead of hours. The steps' times leave out the
few games played for real.

    python benchmarks/league_load.py                      # 100,000 games, 20 clients, 30 s
    python benchmarks/league_load.py --games 50000 --league /tmp/league50k   # reused by the next run
    python benchmarks/league_load.py --games 2000 --clients 4 --seconds 5 --league /tmp/small
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from timing import Figures, add_json_option, best_seconds

from arena.league.facade import PLAN_AHEAD, RANKED, League
from arena.league.web import data
from arena.play.referee import MatchOutcome, play
from arena.plugins.registry import load_registry

BOTS = {  # team: (bot module, source); a bot's moves depend only on the board, never on its rng
    "ada": ("hugger", "return max(moves, key=obs.walls_around) if moves else 'N'"),
    "ben": ("first", "return moves[0] if moves else 'N'"),
    "cy": ("last", "return moves[-1] if moves else 'N'"),
    "dot": ("open", "return min(moves, key=obs.walls_around) if moves else 'N'"),
    "eve": ("hugger", "return max(reversed(moves), key=obs.walls_around) if moves else 'N'"),
    "fay": ("second", "return moves[min(1, len(moves) - 1)] if moves else 'N'"),
}
SOURCE = '''from arena import bot


@bot(game="tron")
def {name}(obs, rng):
    """A bot for the load benchmark."""
    moves = obs.safe_moves()
    {body}
'''
STEP = 10_000
"""The fill prints the time of each this many games (``--step``)."""
LADDER_BATCH = 64
"""Games handed to the workers at once, as :data:`arena.league.ladder_loop.BATCH`."""


def build_league(folder: Path, games: int, figures: Figures | None = None, step: int = STEP) -> None:
    """Make the league in ``folder`` (unless it is there) and store games until it holds ``games``, the way the
    ladder's loop does (:meth:`arena.league.ladder_loop.LeagueLadder._turn`); prints the seconds each
    ``step`` games took (the ladder's own work: the few games played for real are left out) and the last
    step's time over the first's, in seconds and in CPU seconds of this process."""
    if not folder.exists():
        league, _ = League.create(folder, "tron", ["center_block"], seed=1)
        with league:
            for team, (name, body) in BOTS.items():
                league.add_team(team)
                source = folder.parent / f"{folder.name}-sources" / team / f"{name}.py"
                source.parent.mkdir(parents=True, exist_ok=True)
                source.write_text(SOURCE.format(name=name, body=body))
                league.submit(league.team(team), source)
    with League.open(folder) as league:
        stored = league.store.conn.execute("SELECT count(*) FROM games").fetchone()[0]
        played: dict[tuple[str, ...], MatchOutcome] = {}
        steps: list[tuple[int, float, float]] = []  # games stored by the step's end, its seconds and CPU seconds
        step_start, step_cpu, step_from = time.perf_counter(), time.process_time(), stored
        playing = playing_cpu = 0.0
        while stored < games:
            if not league.waiting((RANKED,)):
                league.schedule_ranked(PLAN_AHEAD)
            batch = league.waiting()[:min(LADDER_BATCH, games - stored)]
            setups = {setup.index: setup for setup in league.setups(batch)}
            for idx in batch:
                if idx not in league.waiting():  # as the ladder checks each game it hands out
                    continue
                setup = setups[idx]
                pairing = tuple(bot.label for bot in setup.bots)
                if pairing not in played:
                    started, started_cpu = time.perf_counter(), time.process_time()
                    played[pairing] = play(setup, load_registry(league.play_config_for([idx])))
                    playing += time.perf_counter() - started
                    playing_cpu += time.process_time() - started_cpu
                outcome = dataclasses.replace(played[pairing], index=setup.index, setup=setup)
                if league.record_outcome(setup, outcome):
                    stored += 1
                if stored % step == 0 and stored > step_from:
                    steps.append((stored, time.perf_counter() - step_start - playing,
                                  time.process_time() - step_cpu - playing_cpu))
                    print(f"\rgames {step_from:,} to {stored:,}: {steps[-1][1]:.1f} s", file=sys.stderr, flush=True)
                    step_start, step_cpu, step_from = time.perf_counter(), time.process_time(), stored
                    playing = playing_cpu = 0.0
            print(f"\rstored {stored:,} of {games:,} games", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    for count, seconds, cpu in steps:
        print(f"games {count - step:,} to {count:,}: {seconds:.1f} s ({step / seconds:,.0f} games/s), "
              f"{cpu:.1f} s of CPU")
        if figures is not None:
            figures.add(f"fill to {count:,} games", seconds, "s")
            figures.add(f"fill to {count:,} games, CPU", cpu, "s")
    if len(steps) > 1:
        ratio, cpu_ratio = steps[-1][1] / steps[0][1], steps[-1][2] / steps[0][2]
        print(f"last {step:,} / first {step:,}: {ratio:.2f}x ({cpu_ratio:.2f}x in CPU time, which the machine's "
              "other work does not change)")
        if figures is not None:
            figures.add("fill, last step / first step", ratio, "x")
            figures.add("fill, last step / first step, CPU", cpu_ratio, "x")


def page_costs(folder: Path, figures: Figures) -> None:
    """Print what each page's data costs to compute afresh (best of three), as after every game the ladder stores
    (the pages' cache is keyed by the league's change stamp): what 20 readers wait for behind each other."""
    with League.open(folder) as league:
        board = data.leaderboard(league)
        row = board["rows"][0]
        newest = league.games(limit=1)[0].id
        pages = {"/ and /api/leaderboard": lambda: data.sparklines(league, data.leaderboard(league)),
                 "/bots/TEAM/BOT": lambda: data.bot_page(league, row["team"], row["bot"]),
                 "/api/bots/TEAM/BOT": lambda: data.bot(league, row["team"], row["bot"]),
                 "/games": lambda: data.games(league, None, 50),
                 "/games/ID": lambda: (data.game(league, newest), data.record(league, newest)),
                 "the ladder's waiting()": league.waiting}
        print("each page's data, computed afresh:")
        for name, compute in pages.items():
            value = figures.add(f"afresh {name}", 1000 * best_seconds(compute, 3), "ms")
            print(f"  {name}: {value:.1f} ms")


@dataclasses.dataclass
class Tally:
    """What the readers saw."""

    latencies: list[float] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)


def reader(host: str, port: int, paths: list[str], until: float, seed: int, tally: Tally) -> None:
    """Ask for ``paths`` in random order over one keep-alive connection until ``until``."""
    rng = random.Random(seed)
    connection = http.client.HTTPConnection(host, port, timeout=60)
    mine: list[float] = []
    errors: list[str] = []
    while time.perf_counter() < until:
        path = rng.choice(paths)
        started = time.perf_counter()
        try:
            connection.request("GET", path)
            answer = connection.getresponse()
            answer.read()
            if answer.status != 200:
                errors.append(f"{path}: {answer.status}")
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{path}: {exc}")
            connection.close()
            connection = http.client.HTTPConnection(host, port, timeout=60)
            continue
        mine.append(time.perf_counter() - started)
    connection.close()
    with tally.lock:
        tally.latencies += mine
        tally.errors += errors


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))] if ordered else float("nan")


def main() -> None:
    """Build the league, serve it, read it with the clients, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games stored before the load starts")
    parser.add_argument("--clients", type=int, default=20, help="concurrent readers")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they read")
    parser.add_argument("--step", type=int, default=STEP, help="print the time of each this many games stored")
    parser.add_argument("--league", type=Path, default=None,
                        help="the league folder to build or reuse [default: a temporary one]")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    with tempfile.TemporaryDirectory(prefix="arena-league-load-") as scratch:
        folder = args.league or Path(scratch) / "league"
        build_league(folder, args.games, figures, args.step)
        page_costs(folder, figures)
        with League.open(folder) as league:
            board = league.leaderboard()
            newest = [game.id for game in league.games(limit=200)]
            before = league.store.conn.execute("SELECT count(*) FROM games").fetchone()[0]
        paths = ["/", "/api/leaderboard", "/games", "/api/games?limit=50",
                 *[f"/bots/{row.team}/{row.bot}" for row in board],
                 *[f"/api/bots/{row.team}/{row.bot}" for row in board],
                 *[f"/games/{game_id}" for game_id in newest[:50]]]
        server = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(folder), "--port", "0",
                                   "--workers", "1"], stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            line = server.stderr.readline() if server.stderr else ""
            found = re.match(r"serving .* at http://(127\.0\.0\.1):(\d+)", line)
            if found is None:
                raise SystemExit(f"the server did not start: {line}")
            host, port = found.group(1), int(found.group(2))
            tally = Tally()
            until = time.perf_counter() + args.seconds
            threads = [threading.Thread(target=reader, args=(host, port, paths, until, seed, tally))
                       for seed in range(args.clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            server.terminate()
            server.wait(60)
        with League.open(folder) as league:
            during = league.store.conn.execute("SELECT count(*) FROM games").fetchone()[0] - before
    requests = len(tally.latencies)
    print(f"{args.clients} clients for {args.seconds:g} s over {before:,} stored games: {requests:,} requests, "
          f"{len(tally.errors)} errors, {during} games stored meanwhile")
    for name, share in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99)):
        value = figures.add(f"latency {name}", 1000 * percentile(tally.latencies, share), "ms")
        print(f"  {name}: {value:.0f} ms")
    figures.add("requests", requests / args.seconds, "requests/s")
    figures.add("errors", len(tally.errors), "requests")
    figures.add("games stored during the load", during, "games")
    print(f"  {requests / args.seconds:.0f} requests/s")
    for error in tally.errors[:5]:
        print(f"  error: {error}")
    figures.write()


if __name__ == "__main__":
    main()
