"""``arena check game NAME`` and ``arena check bot SPEC``: the conformance kit from the command line."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.cli.app import app
from arena.cli.common import (
    BotsDir,
    BuildTimeout,
    SandboxFlag,
    StartupTimeout,
    command_group,
    load_registry_reporting,
    out,
    plugin_config,
    user_errors,
)
from arena.cli.panels import TOOLS
from arena.cli.timing import ClockOption, FirstMove, TimeControlOption, TimeLimit, timing
from arena.play.sandbox.limits import SandboxLimits
from arena.testing import ConformanceReport, check_bot, check_game

check = command_group(app, "check", "Check a game plugin or a bot against the arena's contracts.", panel=TOOLS)
FAILED_EXIT_CODE = 1

Maps = Annotated[list[str] | None, typer.Option(
    "--map", "-m", help="A map to check on (repeatable) [default: the game's default maps].", show_default=False)]
Seed = Annotated[int, typer.Option(help="Seed of the random games.")]


@check.command("game")
@user_errors
def check_game_command(
    name: Annotated[str, typer.Argument(help="The registered game to check, as `arena games` lists it.")],
    maps: Maps = None,
    max_combinations: Annotated[int, typer.Option(
        help="Combinations of option values to try; beyond it, an even spread of this many.")] = 64,
    games: Annotated[int, typer.Option(help="Random games per map and combination.")] = 2,
    seed: Seed = 0,
    bots_dir: BotsDir = None,
) -> None:
    """Play random games of a game under every combination of its options, checking the Game contract."""
    registry = load_registry_reporting(plugin_config(bots_dir))
    _show(check_game(registry.game(name), maps, max_combinations=max_combinations, seed=seed, games=games))


@check.command("bot")
@user_errors
def check_bot_command(
    spec: Annotated[str, typer.Argument(help="The bot spec to check, e.g. floodfill or voronoi:depth=2.")],
    game: Annotated[str | None, typer.Option(
        help="The game to play [default: the game the bot plays].", show_default=False)] = None,
    maps: Maps = None,
    games: Annotated[int, typer.Option(help="Games per map and seat.")] = 2,
    opponent: Annotated[str | None, typer.Option(
        help="The opponent's bot spec [default: a random bot of the game].", show_default=False)] = None,
    time_limit: TimeLimit = None,
    time_control: TimeControlOption = None,
    first_move: FirstMove = None,
    clock: ClockOption = None,
    seed: Seed = 0,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Show every line exchanged with a program bot, game by game.")] = False,
    sandbox: SandboxFlag = False,
    build_timeout: BuildTimeout = None,
    startup_timeout: StartupTimeout = None,
    bots_dir: BotsDir = None,
) -> None:
    """Play a bot in every seat (and role) it can take, checking it never crashes, times out or cheats.

    Works for Python bots and for programs (arena-bot.toml directories, exec:command=...).
    """
    registry = load_registry_reporting(plugin_config(bots_dir, build_timeout, startup_timeout,
                                                     SandboxLimits() if sandbox else None))
    transcript: list[str] | None = [] if verbose else None
    move_limit, control = timing(time_limit, time_control, first_move, clock)
    report = check_bot(spec, game, maps=maps, games=games, seed=seed, time_limit=move_limit, opponent=opponent,
                       registry=registry, transcript=transcript, time_control=control,
                       sandbox=SandboxLimits() if sandbox else None)
    for line in transcript or []:
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    _show(report)


def _show(report: ConformanceReport) -> None:
    out.print(str(report), markup=False, highlight=False, soft_wrap=True)
    if not report.ok:
        raise typer.Exit(FAILED_EXIT_CODE)
