"""``arena openspiel sweep``: every OpenSpiel game arena registers, loaded and played once by random bots."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from arena.cli.common import command_group, out, user_errors
from arena.cli.panels import TOOLS
from arena.core.errors import ArenaError
from arena.games.openspiel.sweep import sweep


def add_commands(app: typer.Typer) -> None:
    """Add the ``arena openspiel`` commands."""
    group = command_group(app, "openspiel", "OpenSpiel's games in arena.", TOOLS)
    group.command("sweep")(user_errors(sweep_command))


def sweep_command(
    max_moves: Annotated[int | None, typer.Option(
        min=1, help="Stop each game after this many turns [default: play every game to its end].",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of every game.")] = 0,
) -> None:
    """Load every registered OpenSpiel game and play it with random moves: one line a game, a failure's reason."""
    started = time.perf_counter()
    failed = 0
    for line in sweep(max_moves, seed):
        failed += not line.ok
        out.print(str(line), markup=False, emoji=False, highlight=False, soft_wrap=True)
    out.print(f"{failed} failed; {time.perf_counter() - started:.1f} s", highlight=False)
    if failed:
        raise ArenaError(f"{failed} OpenSpiel game(s) failed to load or play")
