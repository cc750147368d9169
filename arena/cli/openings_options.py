"""The options of commands that play from an opening book: the file, the order, the plies and how many."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.tournament.openings import ORDERS

OpeningsFile = Annotated[str | None, typer.Option(
    "--openings", metavar="FILE", show_default=False,
    help="An opening book (chess: .epd or .pgn): each opening is a start position played as a map, once with "
         "each bot in each seat (colour) [default: none].")]
OpeningsOrder = Annotated[str | None, typer.Option(
    "--openings-order", metavar="|".join(ORDERS), show_default=False,
    help="The order the openings are played in: the file's, or shuffled by the seed [default: sequential].")]
OpeningsPlies = Annotated[int | None, typer.Option(
    "--openings-plies", metavar="N", show_default=False,
    help="Play at most N half-moves of each PGN line [default: the whole line].")]
OpeningsCount = Annotated[int | None, typer.Option(
    "--openings-count", metavar="N", show_default=False,
    help="Play only the first N openings, in that order [default: all].")]
