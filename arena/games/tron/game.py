"""Tron light cycles: the ``tron`` game.

Players: 2 to 4, one per start ``1``..``4`` on the map (seat 0 starts on ``1``).
Actions: ``"N"``, ``"E"``, ``"S"``, ``"W"``: move one cell up, right, down or left. Every direction is
legal; a fatal one crashes the player. Anything else is illegal and loses the game.
Options (map header ``; moves = alternating`` and so on):

* ``moves = simultaneous`` (default, Google AI Challenge 2010): every living player moves at once.
  A player crashes moving into a wall, a trail (its own included, so reversing is fatal), off the
  board, into a cell another player also enters this turn (both crash), or into another player's head
  (so swapping cells crashes both).
* ``moves = alternating`` (Brown CSCI 1410): players move one at a time in seat order; moving into a
  wall, a trail or a head crashes the mover.

The cell a player leaves becomes its trail, a wall for everyone. Crashed players leave the board and
their trails stay. The last player standing wins; players who crash in the same turn share a place,
so if every remaining player crashes at once, they draw.

Observation: :class:`TronObservation`, a read-only snapshot with helpers (``safe_moves``,
``walls_around``, ``is_free``) and the raw padded grid (``cells``, ``stride``) for fast bots.

Versions: 1 - simultaneous and alternating moves, 2-4 players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import numpy as np

from arena.game import Game, Option, Result
from arena.games.tron.board import DEAD, DIRECTIONS, EMPTY, OUT, SAME_CELL, TRAIL, WALL, TronBoard
from arena.maps import GameMap

_CELL_CHARS = frozenset("#. 1234")
_PLAIN = {EMPTY: ".", WALL: "#", OUT: " "}
_COLORS = ("bright_red", "bright_blue", "bright_green", "bright_yellow")


class TronObservation:
    """What a Tron bot sees: a snapshot of the grid, every head, and whose turn it is.

    Coordinates are ``(x, y)`` with ``x`` the column and ``y`` the row, ``y`` growing southward.
    ``cells`` is the padded flat grid (``bytes``): 0 empty, 1 wall, 2 off the board, 3 + k seat k's
    trail or head. ``cells[index(x, y)]``; a move adds ``delta[move]`` to an index.
    """

    __slots__ = ("cells", "stride", "width", "height", "seat", "heads", "moves", "turn", "delta")

    def __init__(self, board: TronBoard, seat: int, moves: str):
        self.cells = bytes(board.cells)
        self.stride = board.stride
        self.width = board.width
        self.height = board.height
        self.seat = seat
        self.heads = tuple(board.heads)
        self.moves = moves
        self.turn = board.turn
        self.delta = board.deltas

    def __getstate__(self) -> dict[str, object]:
        state: dict[str, object] = {name: getattr(self, name) for name in self.__slots__}
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
        """Whether ``(x, y)`` is on the board and empty."""
        return 0 <= x < self.width and 0 <= y < self.height and self.cells[self.index(x, y)] == EMPTY

    def safe_moves(self) -> list[str]:
        """The moves that don't crash at once (in simultaneous play an opponent may still take the cell)."""
        head, cells, delta = self.heads[self.seat], self.cells, self.delta
        return [move for move in DIRECTIONS if cells[head + delta[move]] == EMPTY]

    def walls_around(self, move: str) -> int:
        """How many of the four neighbours of the cell ``move`` leads to are not empty."""
        target = self.heads[self.seat] + self.delta[move]
        cells, stride = self.cells, self.stride
        return (
            (cells[target - stride] != EMPTY)
            + (cells[target + stride] != EMPTY)
            + (cells[target - 1] != EMPTY)
            + (cells[target + 1] != EMPTY)
        )


def _seats(seats: Sequence[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def _starts(game_map: GameMap) -> list[tuple[int, int]]:
    found: dict[int, tuple[int, int]] = {}
    for x, y, char in game_map.cells():
        if char not in _CELL_CHARS:
            raise game_map.error(
                f"unknown character {char!r} (tron maps use '#', ' ' or '.', and starts '1'-'4')", x, y)
        if char.isdigit():
            player = int(char)
            if player in found:
                fx, fy = found[player]
                raise game_map.error(
                    f"duplicate start for player {player} (also at line "
                    f"{game_map.first_row_line + fy}, column {fx + 1})", x, y)
            found[player] = (x, y)
    count = max(found, default=0)
    for player in range(1, max(count, 2) + 1):
        if player not in found:
            raise game_map.error(f"missing start for player {player}")
    return [found[p] for p in range(1, count + 1)]


class TronGame(Game):
    """Tron light cycles for 2-4 players, simultaneous (default) or alternating moves."""

    name = "tron"
    description = "Light cycles: leave a trail, outlast the others (AI Challenge 2010 and Brown CSCI 1410 rules)."
    min_players = 2
    max_players = 4
    options = {
        "moves": Option("simultaneous", ("simultaneous", "alternating"),
                        "simultaneous: all move at once (AI Challenge); alternating: in seat order (Brown)"),
    }

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """Check cell characters and that starts ``1``..``k`` each appear once (k between 2 and 4)."""
        _starts(game_map)

    @classmethod
    def num_players(cls, game_map: GameMap | None) -> int:
        """One seat per start on the map."""
        if game_map is None:
            return 2
        return len(_starts(game_map))

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        if game_map is None:
            raise ValueError("tron needs a map")
        self.map = game_map
        self.moves = options.get("moves", "simultaneous")
        self.board = TronBoard(game_map.rows, _starts(game_map))
        self.num_seats = len(self.board.heads)
        self._simultaneous = self.moves == "simultaneous"
        self._next = 0
        self._result: Result | None = None
        self._all = tuple(range(self.num_seats))

    def to_act(self) -> Sequence[int]:
        """Every living seat (simultaneous), or the next living seat in order (alternating)."""
        if self._simultaneous:
            alive = self.board.alive
            return self._all if self.board.living == self.num_seats else [s for s in self._all if alive[s]]
        return (self._next,)

    def legal_actions(self, seat: int) -> Sequence[str]:
        """All four directions (a fatal move is legal; it just crashes)."""
        return DIRECTIONS

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether ``action`` is one of ``"N"``, ``"E"``, ``"S"``, ``"W"``."""
        return type(action) is str and action in self.board.deltas

    def apply(self, actions: Mapping[int, str]) -> None:
        """Move the seats in ``to_act()``; decide the result once at most one player is left."""
        board = self.board
        if self._simultaneous:
            board.move_simultaneous(actions)
        else:
            seat = self._next
            board.move_alternating(seat, actions[seat])
            if board.living > 1:
                nxt = (seat + 1) % self.num_seats
                while not board.alive[nxt]:
                    nxt = (nxt + 1) % self.num_seats
                self._next = nxt
        if board.living <= 1:
            self._result = Result(board.ranks(), self._reason())

    def _reason(self) -> str:
        parts = [f"seat {seat} {what}" for seat, what in self.board.last_crashes if what != SAME_CELL]
        parts += [f"{_seats(group)} moved into the same cell" for group in self.board.last_collisions]
        crashes = "; ".join(parts)
        alive = [seat for seat in self._all if self.board.alive[seat]]
        if alive:
            return f"{crashes}; seat {alive[0]} wins"
        if len(self.board.last_crashes) == self.num_seats:
            return f"{crashes}; draw"
        return f"{crashes}; {_seats(sorted(seat for seat, _ in self.board.last_crashes))} share first place"

    @property
    def result(self) -> Result | None:
        """The ranks and reason once the game is over."""
        return self._result

    def observe(self, seat: int) -> TronObservation:
        """A snapshot of the board for ``seat``."""
        return TronObservation(self.board, seat, self.moves)

    def render(self, color: bool = False) -> str:
        """The board as text: ``#`` walls, ``1``-``4`` heads, ``a``-``d`` trails (colours with ``color``)."""
        board = self.board
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
                elif value >= TRAIL:
                    seat = value - TRAIL
                    char = f"[{_COLORS[seat]}]█[/]" if color else "abcd"[seat]
                elif color and value == WALL:
                    char = "[grey50]#[/]"
                else:
                    char = _PLAIN[value]
                chars.append(char)
            lines.append("".join(chars))
        return "\n".join(lines)
