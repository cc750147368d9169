"""What a Tron bot sees: read-only snapshots of the board, with helpers for simple and fast bots.

:class:`TronObservation` serves every rule set. With powerups on, a :class:`PowerupObservation` also
says where the powerups are and who holds armor or a speed boost; Snafu's observation
(:class:`arena.games.tron.snafu.SnafuObservation`) speaks in relative actions. The same helpers work in
all of them: ``legal_moves()``, ``safe_moves()``, ``walls_around(move)``, ``delta[move]``, ``cells``,
``head``, ``stride``, ``position``, ``opponents()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from arena.games.tron.rules import BARRIER, DEAD, DIRECTIONS, EMPTY, TRAIL, WALL, TronBoard

if TYPE_CHECKING:
    from arena.games.tron.powerups import PowerupBoard


_new = object.__new__
_GLYPHS = bytes.maketrans(bytes([EMPTY, WALL, BARRIER, TRAIL, TRAIL + 1, TRAIL + 2, TRAIL + 3]), b".#xabcd")


TurnSnapshot = tuple[bytes, tuple[int, ...], int, int, int, str, int]
"""What every seat's observation of a turn shares: its ``cells``, ``heads``, ``stride``, ``width``, ``height``,
``moves`` and ``turn`` (all but ``seat``, and ``delta``, a mapping proxy: a game holding a snapshot still
pickles)."""


def turn_snapshot(board: TronBoard, moves: str) -> TurnSnapshot:
    """The :data:`TurnSnapshot` of this turn of ``board``: ``cells`` and ``heads`` copied once for every seat, and
    both immutable, so a bot that keeps an observation keeps its turn's board."""
    return bytes(board.cells), tuple(board.heads), board.stride, board.width, board.height, moves, board.turn


class TronObservation:
    """What a Tron bot sees: a snapshot of the grid, every head, and whose turn it is.

    Coordinates are ``(x, y)`` with ``x`` the column and ``y`` the row, ``y`` growing southward.
    ``cells`` is the padded flat grid (``bytes``): 0 empty, 1 wall, 2 off the board, 3 + k seat k's
    trail or head, 7 a barrier a trap put down. ``cells[index(x, y)]``; a move adds ``delta[move]`` to
    an index. Powerups are not in ``cells`` (their cells read 0, free to enter): see :meth:`powerups`.
    """

    __slots__ = ("cells", "stride", "width", "height", "seat", "heads", "moves", "turn", "delta")

    ACTIONS: ClassVar[tuple[str, ...]] = DIRECTIONS
    """Every legal action, in the order ``legal_moves()`` and ``safe_moves()`` list them."""

    def __init__(self, board: TronBoard, seat: int, moves: str):
        self.cells = bytes(board.cells)
        self.stride = board.stride
        self.width = board.width
        self.height = board.height
        self.seat = seat
        self.heads = tuple(board.heads)
        self.moves = moves
        self.turn = board.turn
        self.delta: Mapping[str, int] = board.deltas

    def __getstate__(self) -> dict[str, object]:
        state: dict[str, object] = {name: getattr(self, name)
                                    for cls in type(self).__mro__ for name in getattr(cls, "__slots__", ())}
        state["delta"] = dict(self.delta)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.delta = MappingProxyType(dict(self.delta))

    def index(self, x: int, y: int) -> int:
        """The flat index of cell ``(x, y)``."""
        return (y + 1) * self.stride + x + 1

    def xy(self, index: int) -> tuple[int, int]:
        """The ``(x, y)`` of a flat index."""
        y, x = divmod(index, self.stride)
        return x - 1, y - 1

    @property
    def head(self) -> int:
        """The flat index of this bot's head."""
        return self.heads[self.seat]

    @property
    def position(self) -> tuple[int, int]:
        """This bot's ``(x, y)``."""
        return self.xy(self.heads[self.seat])

    def opponents(self) -> list[tuple[int, int]]:
        """The ``(x, y)`` of every living opponent."""
        return [self.xy(h) for s, h in enumerate(self.heads) if s != self.seat and h != DEAD]

    def is_free(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` is on the board and empty (a powerup cell is free)."""
        return 0 <= x < self.width and 0 <= y < self.height and self.cells[self.index(x, y)] == EMPTY

    def legal_moves(self) -> list[str]:
        """Every legal action (fatal ones included): ``"N"``, ``"E"``, ``"S"``, ``"W"`` in Tron."""
        return list(self.ACTIONS)

    def safe_moves(self) -> list[str]:
        """The moves onto a free cell (empty or a powerup): they don't crash at once.

        In simultaneous play an opponent may still take the same cell. A player holding armor may
        also survive a move into an ``x`` barrier; that move is not listed here.
        """
        head, cells, stride = self.heads[self.seat], self.cells, self.stride
        # Spelled out, in DIRECTIONS order: bots call this every move. (EMPTY is 0: "not" tests it fastest.)
        moves = []
        if not cells[head - stride]:
            moves.append("N")
        if not cells[head + 1]:
            moves.append("E")
        if not cells[head + stride]:
            moves.append("S")
        if not cells[head - 1]:
            moves.append("W")
        return moves

    def walls_around(self, move: str) -> int:
        """How many of the four neighbours of the cell ``move`` leads to are not empty."""
        target = self.heads[self.seat] + self.delta[move]
        cells, stride = self.cells, self.stride
        walls = 0  # counted with tests of EMPTY (0), cheaper than adding four booleans
        if cells[target - stride]:
            walls += 1
        if cells[target + stride]:
            walls += 1
        if cells[target - 1]:
            walls += 1
        if cells[target + 1]:
            walls += 1
        return walls

    def powerups(self) -> dict[tuple[int, int], str]:
        """The powerups on the board by ``(x, y)``: ``"trap"``, ``"bomb"``, ``"armor"`` or ``"speed"``."""
        return {}

    def rows(self) -> list[str]:
        """The grid as text, row by row from the north: ``.`` empty, ``#`` wall, ``x`` barrier, ``a``-``d`` the
        trail of seat 0-3 and ``A``-``D`` the head of a living seat 0-3."""
        text = self.cells.translate(_GLYPHS).decode("ascii")
        stride, width = self.stride, self.width
        rows = [text[(y + 1) * stride + 1:(y + 1) * stride + 1 + width] for y in range(self.height)]
        for seat, head in enumerate(self.heads):
            if head != DEAD:
                y, x = divmod(head, stride)
                row = rows[y - 1]
                rows[y - 1] = row[:x - 1] + "ABCD"[seat] + row[x:]
        return rows

    def to_json(self) -> dict[str, object]:
        """The observation as JSON for bots in other languages (the ``arena-json`` protocol): ``width``,
        ``height``, ``rows`` (see :meth:`rows`), ``seat``, ``heads`` (``[x, y]`` per seat, ``null`` once
        crashed), ``turn``, ``moves`` (``simultaneous`` or ``alternating``)."""
        return {
            "width": self.width,
            "height": self.height,
            "rows": self.rows(),
            "seat": self.seat,
            "heads": [None if head == DEAD else list(self.xy(head)) for head in self.heads],
            "turn": self.turn,
            "moves": self.moves,
        }

    def powerup(self, move: str) -> str | None:
        """The powerup on the cell ``move`` leads to, or ``None``."""
        return None

    @property
    def armor(self) -> tuple[bool, ...]:
        """Per seat: whether it holds armor."""
        return (False,) * len(self.heads)

    @property
    def speed(self) -> tuple[bool, ...]:
        """Per seat: whether it holds a speed boost that will give it 5 moves in a row from its next turn."""
        return (False,) * len(self.heads)

    @property
    def run_left(self) -> int:
        """How many moves in a row this bot makes now, this one included (more than 1 on a speed run)."""
        return 1


class PowerupObservation(TronObservation):
    """A Tron observation with powerups on: where they are, and who holds armor or a speed boost."""

    __slots__ = ("placed", "armor", "speed", "run_left")

    def __init__(self, board: PowerupBoard, seat: int, moves: str, run_left: int):
        super().__init__(board, seat, moves)
        self.placed: tuple[tuple[int, str], ...] = board.placed  # (index, kind) of every powerup, for fast bots
        self.armor: tuple[bool, ...] = tuple(board.armor)
        self.speed: tuple[bool, ...] = tuple(board.speed)
        self.run_left: int = run_left

    def powerups(self) -> dict[tuple[int, int], str]:
        """The powerups on the board by ``(x, y)``: ``"trap"``, ``"bomb"``, ``"armor"`` or ``"speed"``."""
        return {self.xy(index): kind for index, kind in self.placed}

    def to_json(self) -> dict[str, object]:
        """The plain observation's JSON plus ``powerups`` (``{"x", "y", "kind"}`` each), ``armor`` and
        ``speed`` (a flag per seat) and ``run_left``."""
        data = super().to_json()
        data["powerups"] = [{"x": x, "y": y, "kind": kind} for (x, y), kind in sorted(self.powerups().items())]
        data["armor"] = list(self.armor)
        data["speed"] = list(self.speed)
        data["run_left"] = self.run_left
        return data

    def powerup(self, move: str) -> str | None:
        """The powerup on the cell ``move`` leads to, or ``None``."""
        target = self.heads[self.seat] + self.delta[move]
        for index, kind in self.placed:
            if index == target:
                return kind
        return None

