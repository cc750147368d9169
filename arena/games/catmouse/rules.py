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


class GameState:
    """One game in progress. :meth:`play` applies the next move of the side to move.

    The mouse wins once it has made ``move_limit`` moves without being caught (``None``: no limit) or,
    with ``repeat``, as soon as a position (both cells and the side to move) occurs a second time.
    """

    __slots__ = ("layout", "cat", "mouse", "to_move", "plies", "mouse_moves", "move_limit", "repeat", "seen",
                 "winner", "ending")

    def __init__(self, layout: Layout, first: int = CAT, move_limit: int | None = None, repeat: bool = False):
        if move_limit is None and not repeat:
            raise ValueError("a game needs a move limit, the repetition rule, or both")
        self.layout = layout
        self.cat = layout.cat_start
        self.mouse = layout.mouse_start
        self.to_move = first
        self.plies = 0
        self.mouse_moves = 0
        self.move_limit = move_limit
        self.repeat = repeat
        self.seen = {self.position()} if repeat else set()
        self.winner: int | None = None
        self.ending = ""

    def position(self) -> int:
        """The position as one number: both cells and the side to move."""
        return (self.cat * self.layout.cells + self.mouse) * 2 + self.to_move

    def legal_moves(self) -> tuple[str, ...]:
        """The moves the side to move may make (none once the game is over)."""
        if self.winner is not None:
            return ()
        here = self.cat if self.to_move == CAT else self.mouse
        return tuple(move for move, _ in self.layout.moves_from[here])

    def play(self, move: str) -> None:
        """Apply ``move`` for the side to move; raise ``ValueError`` if it is not legal."""
        if self.winner is not None:
            raise ValueError("the game is over")
        side = self.to_move
        here = self.cat if side == CAT else self.mouse
        try:
            target = self.layout.targets[here][MOVES.index(move)]
        except ValueError:
            target = -1
        if target < 0:
            raise ValueError(f"{move!r} is not a legal move for the {SIDE_NAMES[side]}")
        self.plies += 1
        if side == CAT:
            self.cat = target
        else:
            self.mouse = target
            self.mouse_moves += 1
        self.to_move = 1 - side
        if self.cat == self.mouse:
            self.winner = CAT
            self.ending = "caught" if side == CAT else "walked into the cat"
        elif self.move_limit is not None and self.mouse_moves >= self.move_limit:
            self.winner = MOUSE
            self.ending = "evaded"
        elif self.repeat:
            position = self.position()
            if position in self.seen:
                self.winner = MOUSE
                self.ending = "repeated"
            else:
                self.seen.add(position)
