"""What a game looks like at one moment, as the HTML replay viewer draws it: a declarative board view.

A game describes its position with :meth:`arena.core.game.Game.view`, a :class:`BoardView`: a grid of
one-character cells, a style per character, pieces (circles in a seat's colour with a short label),
marks (a cross where a player crashed or was caught) and a line of status text. The viewer draws any
game from these alone, so a game written as a plugin gets a viewer by writing that one method; a game
that does not gets one drawn from its text :meth:`~arena.core.game.Game.render`.

Colours: a style is a CSS colour, or ``seatK`` / ``trailK`` for seat ``K``'s colour (``K`` from 0), so
every game draws its players in the same colours as the page's header.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6a100")
"""Each seat's colour (heads, pieces, the header), by seat."""
TRAIL_COLOURS = ("#f2a3a3", "#9cc3e6", "#a3dba3", "#f5d58a")
"""Each seat's lighter colour, for its trail."""


@dataclass(frozen=True)
class CellStyle:
    """How a cell character is drawn: a fill colour, and optionally a symbol written on it."""

    fill: str
    symbol: str = ""
    name: str = ""
    """What the character means, shown in the page's legend (nothing shown when empty)."""


@dataclass(frozen=True)
class Piece:
    """Something standing on a cell: a disc in seat ``seat``'s colour (``-1``: grey) with a short label."""

    x: int
    y: int
    seat: int
    label: str = ""


@dataclass(frozen=True)
class Mark:
    """A cross on a cell, in seat ``seat``'s colour: where that seat crashed or was caught."""

    x: int
    y: int
    seat: int


@dataclass(frozen=True)
class BoardView:
    """One moment of a game: ``rows`` of cell characters (all the same length), pieces, marks and status."""

    rows: Sequence[str]
    styles: Mapping[str, CellStyle]
    pieces: Sequence[Piece] = ()
    marks: Sequence[Mark] = ()
    status: str = ""
    notes: Mapping[int, str] = field(default_factory=dict)
    """A short note per seat shown beside its name for this moment (``armor``, ``speed``, ``to move``)."""
    move_text: str = ""
    """The move that led to this moment in the game's own notation (chess's ``12. Nf3 +0.35``): the viewer
    lists every turn's in a move list that steps to it; nothing is listed when no turn has one."""
    labels: tuple[str, str] | None = None
    """Names of the columns (left to right) and of the rows (top to bottom), one character each (``abcdefgh``,
    ``87654321``): the viewer then draws the board as named squares with those names along its edges, each
    piece as its label (a chess glyph) in its seat's ink rather than a disc: for small boards of pieces."""

    def cells(self) -> str:
        """Every cell character, row by row, as one string."""
        return "".join(self.rows)

    def frame(self) -> dict[str, Any]:
        """The JSON-ready parts that change from moment to moment (everything but the cells and styles)."""
        frame: dict[str, Any] = {
            "pieces": [[p.x, p.y, p.seat, p.label] for p in self.pieces],
            "marks": [[m.x, m.y, m.seat] for m in self.marks],
            "status": self.status,
            "notes": {str(seat): note for seat, note in sorted(self.notes.items())},
        }
        if self.move_text:  # most games have none: no empty string in every frame of their pages
            frame["move_text"] = self.move_text
        return frame


TEXT_STYLES = {".": CellStyle("#f7f7f7"), " ": CellStyle("#ffffff"), "#": CellStyle("#555555", name="wall")}
"""Styles for a game drawn from its text rendering: any other character is written on a pale cell."""


def text_view(text: str) -> BoardView:
    """A view of a text rendering: one cell per character (short lines padded), each drawn as that character."""
    lines = text.splitlines() or [""]
    width = max(1, *(len(line) for line in lines))
    rows = [line.ljust(width) for line in lines]
    styles = dict(TEXT_STYLES)
    for char in sorted(set("".join(rows)) - set(styles)):
        styles[char] = CellStyle("#eef0f4", char)
    return BoardView(rows, styles)
