"""``arena solve catmouse`` and ``arena solve catmouse-parity``: the solver's verdicts as tables."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from arena.core.errors import ArenaError
from arena.engines.catmouse.parity import parity_table
from arena.engines.catmouse.perfect_play import perfect_play


def solve_maps(specs: list[str], console: Console) -> None:
    """Print the perfect-play result of each map under its options."""
    if not specs:
        raise ArenaError("give at least one map")
    table = Table(title="Perfect play", title_justify="left")
    for header in ("map", "board", "first", "winner", "moves", "mouse moves allowed"):
        table.add_column(header)
    for spec in specs:
        verdict = perfect_play(spec)
        moves = "-" if verdict.moves is None else str(verdict.moves)
        limit = "unlimited" if verdict.mouse_move_limit is None else str(verdict.mouse_move_limit)
        table.add_row(escape(verdict.map), f"{verdict.height}x{verdict.width}", verdict.first, verdict.winner,
                      moves, limit)
    console.print(table)


def parity(smallest: int, largest: int, fmt: str, console: Console) -> None:
    """Print the solver's verdict against the article's parity claim, as tables or markdown."""
    if fmt not in ("table", "md"):
        raise ArenaError(f"--format {fmt!r} is not one of: table, md")
    if not 1 <= smallest <= largest or largest > 30:
        raise ArenaError("give 1 <= --min <= --max <= 30")
    if largest * largest < 2:
        raise ArenaError("a board needs at least two cells")
    text = parity_table(smallest, largest)
    if fmt == "md":
        typer.echo(text.markdown())
        return
    console.print("The winner with perfect play from the corners, and the move (of both players) that "
                  "catches the mouse; rows down, columns across.", highlight=False)
    for first, rows in text.cells.items():
        table = Table(title=f"{first.capitalize()} moves first", title_justify="left")
        table.add_column("rows")
        for cols in text.sizes:
            table.add_column(str(cols), justify="right")
        for size, row in zip(text.sizes, rows, strict=True):
            table.add_row(str(size), *row)
        console.print(table)
    console.print(text.summary(), highlight=False)
