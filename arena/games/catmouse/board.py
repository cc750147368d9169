"""Pure cat-and-mouse rules: the board layout, legal moves and the state of one game. No bots, no I/O.

Cells are numbered row by row from the top-left corner: ``cell = y * width + x``, with ``x`` the column
and ``y`` the row (``y`` grows downward, as in a map file). ``"U"`` moves to row ``y - 1``.
"""

from __future__ import annotations

from collections.abc import Sequence

MOVES = ("U", "D", "L", "R")
"""The four moves, in the order every table in this package uses."""

DELTAS = ((0, -1), (0, 1), (-1, 0), (1, 0))
"""``(dx, dy)`` of each move in :data:`MOVES`."""

CAT, MOUSE = 0, 1
"""Sides (and seats): the cat is seat 0, the mouse seat 1."""

SIDE_NAMES = ("cat", "mouse")


class Layout:
    """A board: its size, obstacles and start cells, with the move table every engine shares.

    ``targets[cell][k]`` is the cell move ``MOVES[k]`` leads to from ``cell``, or ``-1`` when the move
    leaves the board or enters an obstacle.
    """

    __slots__ = ("width", "height", "blocked", "cat_start", "mouse_start", "targets", "moves_from")

    def __init__(self, width: int, height: int, blocked: Sequence[bool], cat_start: int, mouse_start: int):
        if width < 1 or height < 1 or len(blocked) != width * height:
            raise ValueError("a layout needs a positive size and one obstacle flag per cell")
        self.width = width
        self.height = height
        self.blocked = tuple(bool(b) for b in blocked)
        self.cat_start = cat_start
        self.mouse_start = mouse_start
        targets = []
        for cell in range(width * height):
            x, y = cell % width, cell // width
            row = []
            for dx, dy in DELTAS:
                tx, ty = x + dx, y + dy
                inside = 0 <= tx < width and 0 <= ty < height
                row.append(ty * width + tx if inside and not self.blocked[ty * width + tx] else -1)
            targets.append(tuple(row))
        self.targets = tuple(targets)
        self.moves_from = tuple(
            tuple((MOVES[k], target) for k, target in enumerate(row) if target >= 0) for row in targets
        )

    @property
    def cells(self) -> int:
        """How many cells the board has (obstacles included)."""
        return self.width * self.height

    def cell(self, x: int, y: int) -> int:
        """The cell number of column ``x``, row ``y``."""
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        """The ``(x, y)`` of a cell number."""
        return cell % self.width, cell // self.width

    def default_move_limit(self) -> int:
        """The mouse's default number of moves to survive: 2 x (rows + columns)."""
        return 2 * (self.width + self.height)

    def key(self) -> str:
        """A text that identifies the board (size and obstacles, not the starts)."""
        rows = ("".join("#" if self.blocked[y * self.width + x] else "." for x in range(self.width))
                for y in range(self.height))
        return f"{self.width}x{self.height}:" + "/".join(rows)


def open_layout(rows: int, cols: int) -> Layout:
    """An obstacle-free board with the cat in the bottom-left corner and the mouse in the top-right."""
    if rows < 1 or cols < 1 or rows * cols < 2:
        raise ValueError("a cat-and-mouse board needs at least two cells")
    return Layout(cols, rows, [False] * (rows * cols), (rows - 1) * cols, cols - 1)
