"""The cat-and-mouse commands: ``arena train catmouse-full``, ``arena train catmouse-window`` and
``arena solve catmouse`` / ``catmouse-parity``. Each parses its options, calls the library, and renders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from arena.cli.common import command_group, err, out, user_errors
from arena.cli.panels import RESEARCH
from arena.core.errors import ArenaError


def add_commands(app: typer.Typer) -> None:
    """Add the cat-and-mouse commands to the ``arena`` application."""
    train = command_group(app, "train", "Train learning bots and reproduce published training runs.", RESEARCH)
    solve = command_group(app, "solve", "Solve games exactly.", RESEARCH)
    train.command("catmouse-full")(user_errors(train_full_command))
    train.command("catmouse-window")(user_errors(train_window_command))
    solve.command("catmouse")(user_errors(solve_command))
    solve.command("catmouse-parity")(user_errors(parity_command))


def parse_range(text: str, option: str) -> tuple[int, int]:
    """``"3"`` or ``"1-10"`` as ``(low, high)``."""
    low, sep, high = text.partition("-")
    try:
        values = (int(low), int(high) if sep else int(low))
    except ValueError:
        raise ArenaError(f"{option} {text!r}: give a number or a range such as 1-10") from None
    return values


Iterations = Annotated[int | None, typer.Option(help="Total iterations (a resumed run may raise it).",
                                                show_default=False)]
Seed = Annotated[int | None, typer.Option(help="Random seed of the run.", show_default=False)]
Out = Annotated[Path | None, typer.Option(
    "--out", help="Policy file to write [default: runs/catmouse-full/policy.json, or catmouse-window for version 2].",
    show_default=False)]
CheckpointPath = Annotated[Path | None, typer.Option(
    help="Checkpoint file [default: checkpoint.json beside the run folder's policy.json, else the policy file's "
         "name with .checkpoint.json].", show_default=False)]
Resume = Annotated[bool, typer.Option("--resume", help="Continue the run saved in the checkpoint.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Only the final summary.")]


def train_full_command(
    map_spec: Annotated[str | None, typer.Option("--map", "-m", help="Board to train on [default: catmouse_8x7].",
                                                 show_default=False)] = None,
    first: Annotated[str | None, typer.Option(help="Who moves first: cat or mouse [default: the map's].",
                                              show_default=False)] = None,
    max_moves: Annotated[int | None, typer.Option(help="Also end games after this many mouse moves.",
                                                  show_default=False)] = None,
    iterations: Iterations = None,
    candidates: Annotated[str | None, typer.Option(help="Candidates an iteration, drawn from a range [default: 1-10].",
                                                   show_default=False)] = None,
    cells: Annotated[str | None, typer.Option(help="Cells changed per candidate, a number or range [default: 1].",
                                              show_default=False)] = None,
    engine: Annotated[str | None, typer.Option(help="plain or batch (numpy); same results [default: plain].",
                                               show_default=False)] = None,
    notebook: Annotated[bool, typer.Option("--notebook", help="Re-run the article's notebook exactly: its random "
                                           "stream, game loop and acceptance code.")] = False,
    seed: Seed = None,
    out: Out = None,
    checkpoint: CheckpointPath = None,
    resume: Resume = False,
    every: Annotated[int, typer.Option(help="Iterations between progress lines.")] = 10_000,
    quiet: Quiet = False,
) -> None:
    """Version 1: full cat and mouse policies, improved in turn against each other (100,000 iterations)."""
    from arena.builtin.catmouse.commands.training import train_full

    given = {"first": first, "max_moves": max_moves, "iterations": iterations,
             "candidates": parse_range(candidates, "--candidates") if candidates else None,
             "cells": parse_range(cells, "--cells") if cells else None, "engine": engine,
             "variant": "notebook" if notebook else None, "seed": seed}
    train_full(map_spec, given, out, checkpoint, resume, every, quiet, out_console=out_console(), err_console=err)


def train_window_command(
    map_spec: Annotated[str | None, typer.Option("--map", "-m", help="Board to train on [default: catmouse_5x5].",
                                                 show_default=False)] = None,
    role: Annotated[str | None, typer.Option(help="The role to train: cat or mouse [default: cat].",
                                             show_default=False)] = None,
    opponents: Annotated[str | None, typer.Option(help="Opponents in turn, comma separated [default: cat: random,wary; "
                                                  "mouse: random,greedy].", show_default=False)] = None,
    first: Annotated[str | None, typer.Option(help="Who moves first [default: the map's].",
                                              show_default=False)] = None,
    max_moves: Annotated[int | None, typer.Option(help="Mouse moves to survive [default: the map's].",
                                                  show_default=False)] = None,
    iterations: Iterations = None,
    candidates: Annotated[int | None, typer.Option(help="Candidates an iteration [default: 10].",
                                                   show_default=False)] = None,
    games: Annotated[int | None, typer.Option(help="Games per evaluation [default: 1000].",
                                              show_default=False)] = None,
    cells: Annotated[str | None, typer.Option(help="Entries changed per candidate, a number or range [default: 1-10].",
                                              show_default=False)] = None,
    start: Annotated[str | None, typer.Option(help="Starting policy: up, random or closer [default: up].",
                                              show_default=False)] = None,
    seed: Seed = None,
    out: Out = None,
    checkpoint: CheckpointPath = None,
    resume: Resume = False,
    quiet: Quiet = False,
) -> None:
    """Version 2: a 3x3 window policy for any board size, trained against scripted opponents."""
    from arena.builtin.catmouse.commands.training import train_window

    given = {"role": role, "opponents": tuple(o.strip() for o in opponents.split(",") if o.strip())
             if opponents else None, "first": first, "max_moves": max_moves, "iterations": iterations,
             "candidates": candidates, "games": games,
             "cells": parse_range(cells, "--cells") if cells else None, "start": start, "seed": seed}
    train_window(map_spec, given, out, checkpoint, resume, quiet, out_console=out_console(), err_console=err)


def solve_command(
    maps: Annotated[list[str], typer.Argument(help="Map files or names.")],
) -> None:
    """Who wins each map with perfect play, under its options, and in how many moves."""
    from arena.builtin.catmouse.commands.solving import solve_maps

    solve_maps(maps, out_console())


def parity_command(
    smallest: Annotated[int, typer.Option("--min", help="Smallest number of rows and of columns.")] = 2,
    largest: Annotated[int, typer.Option("--max", help="Largest number of rows and of columns.")] = 8,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table or md.")] = "table",
) -> None:
    """Check the article's parity claim on every open board from --min to --max, both first movers."""
    from arena.builtin.catmouse.commands.solving import parity

    parity(smallest, largest, fmt, out_console())


def out_console() -> Console:
    """The console for results (stdout)."""
    return out
