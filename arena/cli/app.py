"""The ``arena`` typer application, on its own so command modules can add to it without import cycles."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.cli.panels import PanelGroup
from arena.core.version import VERSION

app = typer.Typer(
    help="Run tournaments between game-playing bots, rate them with TrueSkill, and show the standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=PanelGroup,
)


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[bool, typer.Option("--version", help="Show the version and exit.")] = False,
) -> None:
    if version:
        typer.echo(f"arena {VERSION}")
        raise typer.Exit()


