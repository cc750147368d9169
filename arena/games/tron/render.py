"""Text rendering of a Tron board (Tron and Snafu): plain characters, or rich markup with colours."""

from __future__ import annotations

from arena.games.tron.board import BARRIER, DEAD, EMPTY, OUT, TRAIL, WALL, TronBoard
from arena.games.tron.powerups import SYMBOLS

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
