"""What the sandbox costs a user of Python bots: a whole game, and a league ladder's games per second.

Run: python benchmarks/sandbox_overhead.py [--quick] [--part game|ladder]   (needs bubblewrap)

* a game: the same tournament of two Python bots from a bot folder (``arena tournament --bots-dir``, one
  worker, on ``empty_room``), run as a user runs it (``python -m arena``), with ``--isolate``, ``--sandbox``
  (each game forked by the bot's zygote) and ``--sandbox`` with ``ARENA_SANDBOX_ZYGOTE=0`` (a sandbox and an
  interpreter a game), interleaved, the median of the rounds: seconds per game, and what the sandbox adds to
  a game over ``--isolate`` (the command's own start-up, the same for all, divided among the games);
* a league ladder: a tron league of 8 teams, each with one Python bot that thinks about 1 ms a move, played
  by the league's own ladder (:class:`~arena.league.ladder_loop.LeagueLadder`) on 2 workers for a fixed
  number of games, from copies of the same league: sandboxed (as every league plays), unconfined (the same
  ladder, its workers playing the bots in their own process) and ``--isolate``d (unconfined, each bot in a
  process of its own kept from game to game): games per second, and sandboxed against each.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from timing import Figures, add_json_option

from arena.league.facade import League
from arena.league.ladder_loop import LeagueLadder
from arena.play.executor_choice import Executor, ExecutorChoice
from arena.play.limits import Limits
from arena.play.sandbox.zygotes import SWITCH
from arena.plugins.registry import PluginConfig, Registry, load_registry

REPO = Path(__file__).resolve().parent.parent

THINKER = '''
import time
from arena import Bot


class Thinker{number}(Bot):
    """Thinks about 1 ms a move, then takes a safe move (each bot its own choice)."""

    name = "thinker{number}"
    games = ("tron",)

    def act(self, obs):
        end = time.perf_counter() + 0.001
        while time.perf_counter() < end:
            pass
        moves = obs.safe_moves() or obs.legal_moves()
        return moves[{number} % len(moves)]
'''


def write_thinkers(folder: Path, count: int) -> list[Path]:
    """``count`` thinker bot modules in ``folder`` (readable by the sandbox's user whatever the umask)."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    paths = []
    for number in range(count):
        path = folder / f"thinker{number}.py"
        path.write_text(THINKER.format(number=number))
        path.chmod(0o644)
        paths.append(path)
    return paths


# --- a whole game ---------------------------------------------------------------------------------------

MODES = {"--isolate": ("--isolate", "1"), "--sandbox (zygote)": ("--sandbox", "1"),
         "--sandbox (old: a sandbox a game)": ("--sandbox", "0")}


def tournament_seconds(scratch: Path, flag: str, zygote: str, games: int, run: int) -> tuple[float, int]:
    """Wall seconds of the tournament and the games it stored."""
    db = scratch / f"run{run}.db"
    command = [sys.executable, "-m", "arena", "tournament", "empty_room", "--bots", "thinker0,thinker1",
               "--games", str(games), "--workers", "1", "--time-limit", "2", "--bots-dir", str(scratch / "bots"),
               "--db", str(db), flag]
    env = {**os.environ, SWITCH: zygote, "PYTHONPATH": str(REPO)}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        stored = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        failed = conn.execute("SELECT count(*) FROM games WHERE failures != '{}'").fetchone()[0]
    finally:
        conn.close()
    if failed:
        raise SystemExit(f"{flag} ({SWITCH}={zygote}): {failed} games with a failing bot")
    return seconds, stored


def game_figures(figures: Figures, games: int, rounds: int) -> None:
    """The per-game cost of each mode, and what the sandbox adds to a game over ``--isolate``."""
    with tempfile.TemporaryDirectory(prefix="sandbox-overhead-") as folder:
        scratch = Path(folder)
        scratch.chmod(0o755)
        write_thinkers(scratch / "bots", 2)
        times: dict[str, list[float]] = {mode: [] for mode in MODES}
        stored = 0
        run = 0
        for _ in range(rounds):
            for mode, (flag, zygote) in MODES.items():
                seconds, stored = tournament_seconds(scratch, flag, zygote, games, run)
                run += 1
                times[mode].append(seconds / stored)
    per_game = {mode: statistics.median(values) for mode, values in times.items()}
    base = per_game["--isolate"]
    print(f"a tournament of two Python bots from a bot folder: {stored} games on empty_room, 1 worker, "
          f"median of {rounds} interleaved rounds (python -m arena tournament ...):")
    for mode, seconds in per_game.items():
        extra = "" if mode == "--isolate" else f"  (+{(seconds - base) * 1000:6.1f} ms a game over --isolate)"
        print(f"  {mode:34s} {seconds * 1000:7.1f} ms a game{extra}")
        figures.add(f"a game, {mode}", seconds * 1000, "ms")
    figures.add("a game, what the zygote sandbox adds over --isolate",
                (per_game["--sandbox (zygote)"] - base) * 1000, "ms")
    figures.add("a game, what the old sandbox adds over --isolate",
                (per_game["--sandbox (old: a sandbox a game)"] - base) * 1000, "ms")


# --- a league ladder ------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Unconfined(ExecutorChoice):
    """The local executor, its workers playing the league's bots in their own process (no sandbox)."""

    def start(self, workers: int | None, config: PluginConfig, limits: Limits, registry: Registry,
              games: int | None = None) -> Executor:
        """The league's executor with the sandbox taken off its limits and its bots' configuration."""
        config = dataclasses.replace(config, confined=None)
        return super().start(workers, config, dataclasses.replace(limits, sandbox=None), load_registry(config), games)


@dataclasses.dataclass(frozen=True)
class Isolated(ExecutorChoice):
    """The local executor, its workers playing each of the league's bots in an unconfined process of its own
    (``--isolate``), without the sandbox."""

    def start(self, workers: int | None, config: PluginConfig, limits: Limits, registry: Registry,
              games: int | None = None) -> Executor:
        """The league's executor with ``--isolate`` in place of the sandbox."""
        config = dataclasses.replace(config, confined=None)
        limits = dataclasses.replace(limits, sandbox=None, isolate=True)
        return super().start(workers, config, limits, load_registry(config), games)


def make_league(folder: Path, bots: int) -> None:
    """A tron league of ``bots`` teams, one thinker each, submitted (every submission checked in the sandbox)."""
    league, _ = League.create(folder, "tron", ["empty_room", "center_block"], seed=5)
    with league:
        for path in write_thinkers(folder.parent / "submitted", bots):
            team = league.authenticate(league.add_team(f"team-{path.stem}"))
            league.submit(team, path)


def ladder_rate(league: Path, copy: Path, executor: ExecutorChoice, games: int, zygote: str) -> float:
    """Games per second of the ladder playing ``games`` games of a fresh copy of ``league`` on 2 workers."""
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(league, copy)
    before = os.environ.get(SWITCH)
    os.environ[SWITCH] = zygote  # the workers read it when they play
    try:
        ladder = LeagueLadder(copy, executor=executor, workers=2, max_games=games)
        started = time.perf_counter()
        ladder.run()
        seconds = time.perf_counter() - started
    finally:
        if before is None:
            del os.environ[SWITCH]
        else:
            os.environ[SWITCH] = before
    if ladder.games_played != games:
        raise SystemExit(f"the ladder stored {ladder.games_played} of {games} games")
    conn = sqlite3.connect(f"file:{copy / 'arena.db'}?mode=ro", uri=True)
    try:
        failed = conn.execute("SELECT count(*) FROM games WHERE failures != '{}'").fetchone()[0]
    finally:
        conn.close()
    if failed:
        raise SystemExit(f"{failed} ladder games with a failing bot")
    return games / seconds


def ladder_figures(figures: Figures, games: int, rounds: int, old: bool) -> None:
    """Games per second of the ladder sandboxed and unconfined, and their ratio."""
    with tempfile.TemporaryDirectory(prefix="sandbox-ladder-") as folder:
        scratch = Path(folder)
        make_league(scratch / "league", 8)
        modes: dict[str, tuple[ExecutorChoice, str]] = {"unconfined": (Unconfined(), "1"),
                                                        "--isolate": (Isolated(), "1"),
                                                        "sandboxed (zygote)": (ExecutorChoice(), "1")}
        if old:
            modes["sandboxed (old: a sandbox a game)"] = (ExecutorChoice(), "0")
        rates: dict[str, list[float]] = {mode: [] for mode in modes}
        for _ in range(rounds):
            for mode, (executor, zygote) in modes.items():
                rates[mode].append(ladder_rate(scratch / "league", scratch / "copy", executor, games, zygote))
    rate = {mode: statistics.median(values) for mode, values in rates.items()}
    base = rate["unconfined"]
    print(f"a league ladder of 8 Python bots thinking ~1 ms a move, 2 workers, {games} games, "
          f"median of {rounds} interleaved rounds:")
    for mode, value in rate.items():
        ratio = "" if mode == "unconfined" else f"  ({value / base:.2f} of unconfined)"
        if mode.startswith("sandboxed"):
            ratio += f" ({value / rate['--isolate']:.2f} of --isolate)"
        print(f"  {mode:34s} {value:7.1f} games/s{ratio}")
        figures.add(f"ladder, {mode}", value, "games/s")
    figures.add("ladder, sandboxed (zygote) / unconfined", rate["sandboxed (zygote)"] / base, "ratio")
    figures.add("ladder, sandboxed (zygote) / --isolate", rate["sandboxed (zygote)"] / rate["--isolate"], "ratio")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    parser.add_argument("--part", choices=("game", "ladder"), help="only this part")
    parser.add_argument("--ladder-old", action="store_true", help="the ladder the old way too (slow)")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    options: dict[str, Any] = {"games": 10 if args.quick else 20, "rounds": 1 if args.quick else 3}
    if args.part in (None, "game"):
        game_figures(figures, **options)
    if args.part in (None, "ladder"):
        ladder_figures(figures, 60 if args.quick else 300, 1 if args.quick else 3, args.ladder_old)
    figures.write()


if __name__ == "__main__":
    main()
