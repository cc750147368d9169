"""``arena playability GAME``: the design verdict from self-play learners' games, for any game that registers
a playability study (today: the pawn race)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, cast

import typer

from arena.cli.app import app
from arena.cli.common import (
    Options,
    check_output_format,
    emit_table,
    err,
    games_progress,
    load_registry_reporting,
    out,
    parse_options,
    plugin_config,
    user_errors,
)
from arena.learning.playability import PlayabilityStudy, StudyRun
from arena.report.playability import playability_page
from arena.stats.playability import playability


@app.command("playability")
@user_errors
def playability_command(
    game: Annotated[str, typer.Argument(help="The game whose design to judge (one with a registered study, such "
                                             "as pawnrace).")],
    map_spec: Annotated[str | None, typer.Option("--map", "-m", help="The configuration [default: the study's].",
                                                 show_default=False)] = None,
    option: Options = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Self-play games to learn from.")] = 10_000,
    block: Annotated[int, typer.Option(help="Games per block of statistics.")] = 10_000,
    learner: Annotated[str | None, typer.Option(help="The learner, e.g. table or network (nn) for pawnrace "
                                                     "[default: the study's first].", show_default=False)] = None,
    model: Annotated[Path | None, typer.Option(help="Read the statistics a trained model recorded instead of "
                                                    "training.", show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the training.")] = 0,
    fmt: Annotated[str, typer.Option("--format", "-f", help="Output format: table, md, csv or json.")] = "table",
    html_file: Annotated[Path | None, typer.Option("--html", help="Also write a page with the charts.",
                                                   show_default=False)] = None,
) -> None:
    """The design verdict: fairness and length of self-play learners' games, block by block (Kalles and
    Kanellopoulos 2001), with the perfect-play verdict where the board is small enough to solve."""
    # register_studies takes PlayabilityStudy instances; the registry, below learning, knows only their game.
    study = cast(PlayabilityStudy, load_registry_reporting(plugin_config(None)).study(game))
    chosen = study.learner_named(learner)
    check_output_format(fmt)
    if model is not None:
        run = study.recorded(str(model))
    else:
        extra = parse_options(option)
        with games_progress() as progress:
            task = progress.add_task("self-play", total=games)
            run = study.train(map_spec or study.default_map, extra, chosen, games, block, seed,
                              on_game=lambda: progress.advance(task))
    show(run, fmt, html_file)


def show(run: StudyRun, fmt: str, html_file: Path | None) -> None:
    """Print a study's rows in ``fmt`` and, with ``html_file``, write its page."""
    rows = playability(run.blocks, run.block_size)
    first, second = run.sides
    headers = ["block", "games", "moves/player", "sd", first, f"{first} 95%", second, f"{second} 95%",
               f"p({first}=half)", "fewest-move wins", "longest", "draws"]
    table_rows = [[row.label, f"{row.games:,}", f"{row.mean_moves:.2f}", f"{row.sd_moves:.2f}", f"{row.white:.2%}",
                   f"[{row.white_interval[0]:.1%}, {row.white_interval[1]:.1%}]", f"{row.black:.2%}",
                   f"[{row.black_interval[0]:.1%}, {row.black_interval[1]:.1%}]", _p_value(row.p_half),
                   f"{row.fastest:.1%}", str(row.longest), str(row.draws)] for row in rows]
    if fmt == "json":
        typer.echo(json.dumps({"title": run.title, "blocks": [row.as_json(run.sides) for row in rows],
                               "perfect_play": run.perfect_play}, indent=2))
    else:
        emit_table(headers, table_rows, fmt, run.title, names=("block",))
        if run.perfect_play:
            out.print(run.perfect_play, highlight=False, soft_wrap=True)
    if html_file is not None:
        html_file.write_text(playability_page(run.title, rows, run.perfect_play, run.sides), encoding="utf-8")
        err.print(f"playability page written to {html_file}", highlight=False)


def _p_value(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"
