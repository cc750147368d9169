"""The ``--format`` option of the commands that print standings or tables: output formats, and for
``tournament`` the tournament format too."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.cli.common import out
from arena.core.errors import ArenaError
from arena.report.tables import FORMATS as OUTPUT_FORMATS
from arena.report.tables import export, render_console
from arena.stats.standings import Standings
from arena.tournament.definition import FORMATS as TOURNAMENT_FORMATS

FormatOption = Annotated[list[str] | None, typer.Option(
    "--format", "-f", show_default=False,
    help="Tournament format (round-robin, gauntlet, swiss) and/or output format (table, md, csv, json); "
         "repeat or separate with commas: -f swiss,json.")]


def split_formats(values: list[str] | None) -> tuple[str | None, str]:
    """Sort ``--format`` values into the tournament format and the output format."""
    tournament, output = None, "table"
    seen_output = False
    for value in (piece.strip() for v in values or [] for piece in v.split(",") if piece.strip()):
        if value in TOURNAMENT_FORMATS:
            if tournament is not None and tournament != value:
                raise ArenaError(f"--format gives two tournament formats: {tournament} and {value}")
            tournament = value
        elif value in OUTPUT_FORMATS:
            if seen_output and output != value:
                raise ArenaError(f"--format gives two output formats: {output} and {value}")
            output, seen_output = value, True
        else:
            raise ArenaError(f"--format {value!r} is not a tournament format ({', '.join(TOURNAMENT_FORMATS)}) "
                             f"or an output format ({', '.join(OUTPUT_FORMATS)})")
    return tournament, output


OutputFormatOption = Annotated[list[str] | None, typer.Option(
    "--format", "-f", show_default=False, help="Output format: table, md, csv or json [default: table].")]


def output_format(values: list[str] | None) -> str:
    """The output format of ``--format`` values; a tournament format there is an error."""
    tournament, output = split_formats(values)
    if tournament is not None:
        raise ArenaError(f"--format {tournament} only applies to tournaments")
    return output


def show_standings(standings: Standings, fmt: str) -> None:
    """Print standings in the output format ``fmt``."""
    if fmt == "table":
        render_console(standings, out)
    else:
        typer.echo(export(standings, fmt), nl=False)
