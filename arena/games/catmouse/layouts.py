"""Cat-and-mouse boards from map files, with errors that name the file, line and column."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from arena.core.maps import GameMap, parse_map
from arena.games.catmouse.rules import Layout

CELL_CHARS = frozenset("#. CM")


def layout_from_map(game_map: GameMap) -> Layout:
    """The board a map describes: ``#`` obstacles, ``.`` or space empty, ``C`` and ``M`` the starts.

    A missing ``C`` puts the cat in the bottom-left corner, a missing ``M`` the mouse in the top-right.
    """
    return _layout(game_map.rows, game_map.label, game_map.first_row_line)


@lru_cache(maxsize=64)
def _layout(rows: tuple[str, ...], label: str, first_line: int) -> Layout:
    game_map = GameMap(label, "", rows, path=label, first_row_line=first_line)
    width, height = game_map.width, game_map.height
    starts: dict[str, tuple[int, int]] = {}
    blocked = []
    for x, y, char in game_map.cells():
        if char not in CELL_CHARS:
            raise game_map.error(
                f"unknown character {char!r} (catmouse maps use '#', '.' or ' ', and starts 'C' and 'M')", x, y)
        if char in "CM":
            if char in starts:
                fx, fy = starts[char]
                raise game_map.error(
                    f"duplicate start {char!r} (also at line {first_line + fy}, column {fx + 1})", x, y)
            starts[char] = (x, y)
        blocked.append(char == "#")
    if width * height - sum(blocked) < 2:
        raise game_map.error("a catmouse board needs at least two free cells")
    defaults = {"C": ((0, height - 1), "bottom-left"), "M": ((width - 1, 0), "top-right")}
    names = {"C": "cat", "M": "mouse"}
    for char, ((x, y), corner) in defaults.items():
        if char not in starts:
            if blocked[y * width + x]:
                raise game_map.error(f"no '{char}' start, and the default {corner} corner is an obstacle", x, y)
            starts[char] = (x, y)
    if starts["C"] == starts["M"]:
        x, y = starts["C"]
        raise game_map.error("the cat and the mouse start on the same cell", x, y)
    layout = Layout(width, height, blocked, layout_cell(starts["C"], width), layout_cell(starts["M"], width))
    for char in "CM":
        x, y = starts[char]
        if not layout.moves_from[layout_cell(starts[char], width)]:
            raise game_map.error(f"the {names[char]}'s start has no free neighbour to move to", x, y)
    return layout


def layout_cell(xy: tuple[int, int], width: int) -> int:
    """The cell number of ``(x, y)`` on a board ``width`` columns wide."""
    return xy[1] * width + xy[0]


def open_map(rows: int, cols: int, header: dict[str, str] | None = None) -> GameMap:
    """A map of an obstacle-free ``rows`` x ``cols`` board with the default starts (for scripts and tests)."""
    if rows < 1 or cols < 1 or rows * cols < 2:
        from arena.core.errors import ArenaError

        raise ArenaError(f"a {rows}x{cols} board is too small: a catmouse board needs at least two cells")
    lines = [f"; {key} = {value}" for key, value in {"game": "catmouse", **(header or {})}.items()]
    grid = [["."] * cols for _ in range(rows)]
    grid[rows - 1][0] = "C"
    grid[0][cols - 1] = "M"
    text = "\n".join(lines + ["".join(row) for row in grid]) + "\n"
    return parse_map(text, name=f"catmouse_{rows}x{cols}")


def layout_rows(layout: Layout) -> list[str]:
    """The board as map rows: ``#`` obstacles, ``.`` empty, ``C`` and ``M`` the starts."""
    rows = []
    for y in range(layout.height):
        row = []
        for x in range(layout.width):
            cell = layout.cell(x, y)
            row.append("C" if cell == layout.cat_start else "M" if cell == layout.mouse_start
                       else "#" if layout.blocked[cell] else ".")
        rows.append("".join(row))
    return rows


def layout_from_rows(rows: list[str], label: str = "board") -> Layout:
    """The board of map rows such as :func:`layout_rows` gives."""
    return layout_from_map(parse_map("\n".join(rows) + "\n", name=label))


def layout_of(obs: Any) -> Layout:
    """The board a :class:`~arena.games.catmouse.game.CatMouseObservation` shows (starts: where the players are)."""
    width = obs.width
    return Layout(width, obs.height, list(obs.blocked), obs.cat[1] * width + obs.cat[0],
                  obs.mouse[1] * width + obs.mouse[0])
