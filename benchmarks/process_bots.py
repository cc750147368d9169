"""Program bots: what a move costs through each protocol, and games per second of a program-bot round robin.

Run: python benchmarks/process_bots.py [--quick]   (needs gcc and node)

* a move's round trip: the same trivial bot (it answers north) asked for a move on a 13x13 Tron position
  (the observation made, then the bot asked) in-process (a Python bot's ``act``), and as a C program over
  ``aic2010`` and over ``arena-json`` (the arena encodes the turn, writes it to the pipe, the program reads
  it and answers, the arena reads and decodes the answer): microseconds a move, and the ratio to in-process;
* games per second of a round robin on ``empty_room`` between the example bots (C over ``aic2010``,
  JavaScript over ``arena-json``), against the same round robin of the Python ``floodfill`` bot, in this
  process; each program game starts the programs afresh;
* the sandbox (needs bubblewrap): the C bot's start-up (started, then stopped: a game's fixed cost) and a
  move's round trip confined against the same program unconfined; and a Python bot (``wallhugger``)
  sandboxed against ``--isolate``: its start and finish a game, and a move, through its zygote and the old way
  (``ARENA_SANDBOX_ZYGOTE=0``: a sandbox and an interpreter a game).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from timing import Figures, add_json_option, best_seconds, per_second

from arena.core.bot import Bot, BotSpec
from arena.core.game import MatchInfo, Result
from arena.core.maps import resolve_map
from arena.play.isolation import IsolatedBots
from arena.play.limits import Limits
from arena.play.referee import bot_rng, run_match
from arena.play.sandbox import SandboxLimits
from arena.play.sandbox.players import SandboxedBots, sandboxed_program
from arena.play.sandbox.zygotes import SWITCH
from arena.plugins.programs.bot import ExecBot
from arena.plugins.registry import PluginConfig, load_registry

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bots"

ECHO_AIC = r"""
#include <stdio.h>
int main(void) {
    char line[4096]; int w, h;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%d %d", &w, &h) != 2) continue;
        for (int y = 0; y < h; y++) if (!fgets(line, sizeof line, stdin)) return 0;
        fputs("1\n", stdout); fflush(stdout);
    }
    return 0;
}
"""
ECHO_JSON = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    static char line[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        if (strstr(line, "\"type\":\"start\"")) fputs("{\"type\":\"ready\"}\n", stdout);
        else if (strstr(line, "\"type\":\"turn\"")) fputs("{\"action\":\"N\"}\n", stdout);
        else break;
        fflush(stdout);
    }
    return 0;
}
"""


class North(Bot):
    """Always north: the in-process baseline."""

    name = "north"
    games = ("tron",)

    def act(self, obs):
        """North."""
        return "N"


def compile_program(directory: Path, name: str, source: str) -> str:
    """Compile a C source into ``directory`` and return the executable's path."""
    (directory / f"{name}.c").write_text(source)
    subprocess.run(["gcc", "-O2", "-o", str(directory / name), str(directory / f"{name}.c")], check=True)
    return str(directory / name)


def move_cost(player: Bot, game: object, moves: int) -> float:
    """Microseconds a move (the observation, then the bot's act), best of three runs of ``moves`` moves."""
    def run() -> None:
        for _ in range(moves):
            player.act(game.observe(0))

    return best_seconds(run, 3) / moves * 1e6


def program_move_cost(command: str, protocol: str, game: object, info: MatchInfo, moves: int) -> float:
    """Microseconds a move through a started program bot."""
    player = ExecBot(command=command, protocol=protocol)
    player.start(info)
    try:
        return move_cost(player, game, moves)
    finally:
        player.finish(Result((1, 1), "benchmark"))


def startup_cost(make: object, info: MatchInfo, repeats: int) -> float:
    """Milliseconds to start a bot for a game and stop it again (median of ``repeats``)."""
    spent = []
    for _ in range(repeats):
        began = time.perf_counter()
        player = make()  # type: ignore[operator]
        player.start(info)
        player.finish(Result((1, 1), "benchmark"))
        spent.append(time.perf_counter() - began)
    return statistics.median(spent) * 1e3


def started(player: Bot, info: MatchInfo) -> Bot:
    """``player``, started for a game."""
    player.start(info)
    return player


def sandbox_figures(figures: Figures, aic: str, game: object, info: MatchInfo, moves: int, repeats: int) -> None:
    """The sandbox's costs: the C bot confined against unconfined, a Python bot sandboxed against --isolate."""
    limits = SandboxLimits()
    confined = sandboxed_program(ExecBot, limits)
    plain_start = startup_cost(lambda: ExecBot(command=aic, protocol="aic2010"), info, repeats)
    boxed_start = startup_cost(lambda: confined(command=aic, protocol="aic2010"), info, repeats)
    plain_move = move_cost(started(ExecBot(command=aic, protocol="aic2010"), info), game, moves)
    boxed_move = move_cost(started(confined(command=aic, protocol="aic2010"), info), game, moves)
    figures.add("C bot start-up, unconfined", plain_start, "ms")
    figures.add("C bot start-up, sandboxed", boxed_start, "ms")
    figures.add("a move, C bot unconfined", plain_move, "us")
    figures.add("a move, C bot sandboxed", boxed_move, "us")
    print(f"the sandbox, C bot over aic2010 (start-up: median of {repeats}; a move: {moves} moves, best of 3):")
    print(f"  start-up   unconfined {plain_start:7.1f} ms   sandboxed {boxed_start:7.1f} ms   "
          f"(+{boxed_start - plain_start:.1f} ms a bot)")
    print(f"  a move     unconfined {plain_move:7.1f} us   sandboxed {boxed_move:7.1f} us   "
          f"({boxed_move / plain_move:.2f}x)")

    python_sandbox_figures(figures, game, moves, repeats)


def interleaved_move_costs(players: dict[str, Bot], game: object, moves: int, rounds: int = 5) -> dict[str, float]:
    """Microseconds a move of each started player: the best of ``rounds`` runs each, the players taking turns
    run by run, so a burst of load on the machine falls on all of them alike."""
    best = {name: float("inf") for name in players}
    for _ in range(rounds):
        for name, player in players.items():
            best[name] = min(best[name], move_cost(player, game, max(1, moves // 3)))
    return best


def python_sandbox_figures(figures: Figures, game: object, moves: int, repeats: int) -> None:
    """A Python bot sandboxed (through its zygote, and the old way: a sandbox a game) against ``--isolate``."""
    config = PluginConfig(use_cwd_bots=False, use_env_path=False)
    spec = BotSpec("wallhugger")
    sandboxed, isolated = SandboxedBots(config, SandboxLimits()), IsolatedBots(config, Limits(isolate=True))
    python_info = MatchInfo("tron", 0, 2, None, {}, "empty_room", 0, 1.0, bot_rng(0, 0))
    starts: dict[str, float] = {}
    players: dict[str, Bot] = {}
    try:
        starts["isolate"] = startup_cost(lambda: isolated(spec, 0), python_info, repeats)
        players["isolate"] = started(isolated(spec, 0), python_info)
        for name, switch in (("zygote", "1"), ("old", "0")):
            with zygote_switch(switch):
                starts[name] = startup_cost(lambda: sandboxed(spec, 0), python_info, repeats)
                players[name] = started(sandboxed(spec, 0), python_info)
        costs = interleaved_move_costs(players, game, moves)
        for player in players.values():
            player.finish(Result((1, 1), "benchmark"))
    finally:
        isolated.close()
    for name, label in (("isolate", "--isolate"), ("zygote", "sandboxed"), ("old", "sandboxed, a sandbox a game")):
        figures.add(f"Python bot start and finish of a game, {label}", starts[name], "ms")
        figures.add(f"a move, Python bot {label}", costs[name], "us")
    print(f"the sandbox, Python wallhugger against --isolate (start and finish: median of {repeats}; a move: "
          "best of 5 interleaved runs):")
    print(f"  {'':34} {'start and finish':>16} {'a move':>10}")
    for name, label in (("isolate", "--isolate (its process kept)"), ("zygote", "sandboxed (zygote)"),
                        ("old", "sandboxed, ARENA_SANDBOX_ZYGOTE=0")):
        print(f"  {label:34} {starts[name]:13.1f} ms {costs[name]:7.1f} us  "
              f"({costs[name] / costs['isolate']:.2f}x)")


@contextlib.contextmanager
def zygote_switch(value: str) -> Iterator[None]:
    """``ARENA_SANDBOX_ZYGOTE`` set to ``value`` for the games started meanwhile."""
    before = os.environ.get(SWITCH)
    os.environ[SWITCH] = value
    try:
        yield
    finally:
        if before is None:
            del os.environ[SWITCH]
        else:
            os.environ[SWITCH] = before


def games_per_second(bots: list[str], registry, games: int) -> float:
    """Games/s of ``games`` games between ``bots`` (seats swapped every other game) on empty_room."""
    def run() -> None:
        for index in range(games):
            seated = bots if index % 2 == 0 else bots[::-1]
            outcome = run_match("tron", seated, game_map="empty_room", seed=index, registry=registry)
            assert not outcome.failures, outcome.reason

    return per_second(games, run)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer moves and games")
    parser.add_argument("--sandbox-only", action="store_true", help="only the sandbox's figures")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    moves, games = (500, 6) if args.quick else (5000, 20)

    registry = load_registry(PluginConfig(bot_dirs=(str(EXAMPLES),), use_cwd_bots=False, use_env_path=False))
    game_cls = registry.game("tron")
    game = game_cls(resolve_map("empty_room"), game_cls.resolve_options({}), np.random.default_rng(0))
    info = MatchInfo("tron", 0, 2, None, {}, "empty_room", 0, 1.0)
    with tempfile.TemporaryDirectory() as scratch:
        aic = compile_program(Path(scratch), "echo_aic", ECHO_AIC)
        json_bot = compile_program(Path(scratch), "echo_json", ECHO_JSON)
        if args.sandbox_only:
            sandbox_figures(figures, aic, game, info, moves, 10 if args.quick else 30)
            figures.write()
            return
        inprocess = move_cost(North(), game, moves)
        over_aic = program_move_cost(aic, "aic2010", game, info, moves)
        over_json = program_move_cost(json_bot, "arena-json", game, info, moves)
        sandbox_figures(figures, aic, game, info, moves, 10 if args.quick else 30)
    figures.add("a move, in-process Python bot", inprocess, "us")
    figures.add("a move, C program over aic2010", over_aic, "us")
    figures.add("a move, C program over arena-json", over_json, "us")
    print(f"a move on 13x13 Tron, the same north-only bot ({moves} moves, best of 3):")
    print(f"  in-process Python bot     {inprocess:8.1f} us")
    print(f"  C program over aic2010    {over_aic:8.1f} us  ({over_aic / inprocess:.0f}x in-process)")
    print(f"  C program over arena-json {over_json:8.1f} us  ({over_json / inprocess:.0f}x in-process)")

    python_rate = games_per_second(["floodfill", "floodfill"], registry, games)
    program_rate = games_per_second(["aic2010-c", "floodfill-js"], registry, games)
    figures.add("round robin, Python floodfill vs floodfill", python_rate, "games/s")
    figures.add("round robin, aic2010-c (C) vs floodfill-js (node)", program_rate, "games/s")
    figures.write()
    print(f"round robin on empty_room, {games} games in this process:")
    print(f"  Python floodfill vs floodfill          {python_rate:7.1f} games/s")
    print(f"  aic2010-c (C) vs floodfill-js (node)   {program_rate:7.1f} games/s  "
          f"({program_rate / python_rate:.2f}x)")


if __name__ == "__main__":
    main()
