"""Drawing a Tron board (Tron and Snafu): as text (plain, or rich markup with colours), or as the replay viewer's
board view."""

from __future__ import annotations

from collections.abc import Mapping

from arena.core.view import BoardView, CellStyle, Mark, Piece
from arena.games.tron.powerups import SYMBOLS
from arena.games.tron.rules import BARRIER, DEAD, EMPTY, OUT, TRAIL, WALL, TronBoard

_PLAIN = {EMPTY: ".", WALL: "#", OUT: " ", BARRIER: "x"}
_COLORS = ("bright_red", "bright_blue", "bright_green", "bright_yellow")


def render_board(board: TronBoard, color: bool = False, items: bytes | bytearray | None = None) -> str:
    """``#`` walls, ``1``-``4`` heads, ``a``-``d`` trails, ``x`` barriers, powerups by their map character."""
    heads = {head: seat for seat, head in enumerate(board.heads) if head != DEAD}
    lines = []
    for y in range(board.height):
        chars = []
        for x in range(board.width):
            index = board.index(x, y)
            value = board.cells[index]
            if index in heads:
                seat = heads[index]
                char = f"[bold {_COLORS[seat]}]{seat + 1}[/]" if color else str(seat + 1)
            elif TRAIL <= value < BARRIER:
                seat = value - TRAIL
                char = f"[{_COLORS[seat]}]█[/]" if color else "abcd"[seat]
            elif items is not None and items[index]:
                symbol = SYMBOLS[items[index]]
                char = f"[bold magenta]{symbol}[/]" if color else symbol
            elif color and value in (WALL, BARRIER):
                char = f"[grey50]{_PLAIN[value]}[/]"
            else:
                char = _PLAIN[value]
            chars.append(char)
        lines.append("".join(chars))
    return "\n".join(lines)


_VIEW_CHARS = {EMPTY: ".", WALL: "#", OUT: " ", BARRIER: "x"}
_POWERUP_STYLES = {"*": ("#7b3fb0", "trap: barriers around the others"), "!": ("#c2410c", "bomb: clears barriers"),
                   "@": ("#0e7490", "armor: survive one barrier"), "^": ("#a16207", "speed: 5 moves in a row")}


def board_view(board: TronBoard, crashed_at: Mapping[int, int], items: bytes | bytearray | None = None,
               notes: Mapping[int, str] | None = None, status: str = "") -> BoardView:
    """The board as the replay viewer draws it: trails in each seat's colour, heads as numbered discs,
    barriers, powerups, and a cross where each crashed player crashed (``crashed_at``: seat to flat index)."""
    rows = []
    for y in range(board.height):
        chars = []
        for x in range(board.width):
            index = board.index(x, y)
            value = board.cells[index]
            if TRAIL <= value < BARRIER:
                chars.append("abcd"[value - TRAIL])
            elif items is not None and items[index]:
                chars.append(SYMBOLS[items[index]])
            else:
                chars.append(_VIEW_CHARS[value])
        rows.append("".join(chars))
    styles = {".": CellStyle("#f7f7f7"), "#": CellStyle("#444444", name="wall"), " ": CellStyle("#ffffff"),
              **{"abcd"[seat]: CellStyle(f"trail{seat}", name=f"player {seat + 1}'s trail")
                 for seat in range(len(board.heads))}}
    if items is not None:
        styles["x"] = CellStyle("#8a8a8a", "×", "barrier")
        styles.update({symbol: CellStyle(colour, symbol, name) for symbol, (colour, name) in _POWERUP_STYLES.items()})
    pieces = [Piece(*board.xy(head), seat, str(seat + 1)) for seat, head in enumerate(board.heads) if head != DEAD]
    marks = []
    for seat, index in sorted(crashed_at.items()):
        x, y = board.xy(index)
        marks.append(Mark(min(max(x, 0), board.width - 1), min(max(y, 0), board.height - 1), seat))
    return BoardView(rows, styles, pieces, marks, status, dict(notes or {}))
