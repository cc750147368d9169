"""Snafu (after Cloppert 2007): the ``snafu`` game, Tron with random starts and relative moves.

Board: an open M x N board whose edge is deadly (leaving it crashes). It comes from the ``size`` option
(``size = 15x15``: width x height) or, with ``size = map`` (the default), from the map's grid: ``.`` or
space empty, ``#`` a wall; a map has no starts. Without a map and with ``size = map``, the board is
15x15. A ``size`` other than ``map`` wins over the map's grid: the board is then an open board of that
size.

Players: 2. Each starts on a random empty cell (two different cells), facing a random heading among
N, E, S, W; both are drawn from the game's numpy generator (the two cells, then the two headings).

Actions: ``"straight"`` (keep the heading), ``"left"`` or ``"right"`` (turn 90 degrees, then move). All
three are legal, fatal or not; anything else is illegal and loses. A player never reverses.

Moves are simultaneous, with the AI Challenge collision rules: the cell a player leaves becomes a wall
(its trail); a player that moves into a wall, a trail or a head, or off the board, crashes; two players
entering the same cell both crash. The game ends when a player crashes; both crashing in the same turn
is a tie.

Observation: :class:`SnafuObservation`, a :class:`TronObservation` whose ``delta`` maps the relative
actions to index offsets for the current heading, so ``safe_moves()``, ``legal_moves()``,
``walls_around(move)`` and ``cells[head + delta[move]]`` speak in relative actions; ``heading`` and
``headings`` give the absolute headings (``"N"``, ``"E"``, ``"S"``, ``"W"``).

Array form (for :mod:`arena.rl`): Tron's planes and the cell ahead of each head, optionally centred on
the head and turned so the heading points up (:mod:`arena.games.tron.arrays`); actions ``straight``,
``left``, ``right`` as 0-2, all legal.

Versions: 1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import METADATA_KEYS, Game, Option, Result
from arena.core.maps import GameMap, parse_map
from arena.core.view import BoardView
from arena.games.tron.arrays import all_legal, reachable_share, snafu_array
from arena.games.tron.observation import TronObservation
from arena.games.tron.render import board_view, render_board
from arena.games.tron.rules import DIRECTIONS, EMPTY, WALL, TronBoard

RELATIVE = ("straight", "left", "right")
TURNS = MappingProxyType({"straight": 0, "right": 1, "left": 3})
"""How many quarter turns clockwise each action makes (``DIRECTIONS`` is clockwise from north)."""
DEFAULT_SIZE = (15, 15)
MAX_SIDE = 1000
_SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """``"15x15"`` as ``(width, height)``; raises :class:`ArenaError` for anything else or a board too small."""
    match = _SIZE.match(text)
    if not match:
        raise ArenaError(f"option size = {text!r} is not 'map' or WIDTHxHEIGHT, such as 15x15")
    width, height = int(match.group(1)), int(match.group(2))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height < 2:
        raise ArenaError(f"option size = {text!r}: each side must be 1 to {MAX_SIDE}, with room for two players")
    return width, height


def open_map(width: int, height: int) -> GameMap:
    """An open Snafu map of ``width`` x ``height`` cells (``; game = snafu``), named ``snafu_WxH``."""
    parse_size(f"{width}x{height}")
    text = f"; game = snafu\n; title = Snafu, {width} x {height}\n" + ("." * width + "\n") * height
    return parse_map(text, name=f"snafu_{width}x{height}")


@lru_cache(maxsize=256)
def open_cells(rows: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The ``(x, y)`` of every cell that is not a wall, row by row: where players may start."""
    return tuple((x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if char != "#")


class SnafuObservation(TronObservation):
    """A Tron observation in relative actions: ``delta`` maps ``straight``/``left``/``right`` to offsets."""

    __slots__ = ("heading", "headings")

    ACTIONS = RELATIVE

    def __init__(self, board: TronBoard, seat: int, headings: tuple[str, ...], delta: Mapping[str, int]):
        super().__init__(board, seat, "simultaneous")
        self.delta = delta
        self.heading: str = headings[seat]  # this bot's heading: "N", "E", "S" or "W"
        self.headings: tuple[str, ...] = headings  # every seat's heading

    def legal_moves(self) -> list[str]:
        """Every legal action: ``"straight"``, ``"left"``, ``"right"``."""
        return list(RELATIVE)

    def to_json(self) -> dict[str, object]:
        """Tron's observation JSON plus ``heading`` (this bot's: ``N``, ``E``, ``S`` or ``W``) and
        ``headings`` (every seat's)."""
        data = super().to_json()
        data["heading"] = self.heading
        data["headings"] = list(self.headings)
        return data

    def safe_moves(self) -> list[str]:
        """The relative actions onto an empty cell: they don't crash at once."""
        head, cells, delta = self.heads[self.seat], self.cells, self.delta
        return [move for move in RELATIVE if cells[head + delta[move]] == EMPTY]


class SnafuGame(Game):
    """Snafu: two light cycles on an open board with a deadly edge, random starts, relative moves."""

    name = "snafu"
    description = "Snafu (Cloppert 2007): open board, deadly edge, random starts and headings, straight/left/right."
    min_players = 2
    max_players = 2
    default_maps = ("snafu_15x15",)
    size_option = "size"
    options = {
        "size": Option("map", ("map", "15x15", "30x30"),
                       "map: the map's grid (15x15 without a map); WIDTHxHEIGHT: an open board of that size"),
    }

    @classmethod
    def resolve_options(cls, given: Mapping[str, str]) -> dict[str, str]:
        """Check the options: ``size`` is ``map`` or any ``WIDTHxHEIGHT``."""
        resolved = {key: option.default for key, option in cls.options.items()}
        for key, value in given.items():
            if key in METADATA_KEYS:
                continue
            if key not in cls.options:
                raise ArenaError(f"game {cls.name!r} has no option {key!r} (known options: size)")
            if value != "map":
                width, height = parse_size(value)
                value = f"{width}x{height}"
            resolved[key] = value
        return resolved

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """Only ``.``, space and ``#``; at least two empty cells (starts are random, so maps have none)."""
        free = 0
        for x, y, char in game_map.cells():
            if char in ". ":
                free += 1
            elif char.isdigit():
                raise game_map.error(f"start {char!r}: snafu players start on random cells, so maps have no "
                                     "starts", x, y)
            elif char != "#":
                raise game_map.error(f"unknown character {char!r} (snafu maps use '.' or ' ' empty, '#' wall)",
                                     x, y)
        if free < 2:
            raise game_map.error("a snafu map needs at least two empty cells for the random starts")

    @classmethod
    def num_players(cls, game_map: GameMap | None) -> int:
        """Always two."""
        return 2

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        size = options.get("size", "map")
        if size != "map":
            width, height = parse_size(size)
            rows: Sequence[str] = ("." * width,) * height
        elif game_map is not None:
            rows = game_map.rows
        else:
            rows = ("." * DEFAULT_SIZE[0],) * DEFAULT_SIZE[1]
        self.map = game_map
        free = open_cells(tuple(rows))
        cells = rng.choice(len(free), size=2, replace=False)
        headings = rng.integers(4, size=2)
        self._place(rows, [free[int(i)] for i in cells], [DIRECTIONS[int(h)] for h in headings])

    @classmethod
    def from_position(cls, rows: Sequence[str], starts: Sequence[tuple[int, int]],
                      headings: Sequence[str]) -> SnafuGame:
        """A game from a chosen position rather than a random one (for tests and analyses).

        ``rows`` as in a map (``.`` empty, ``#`` wall), ``starts`` the two ``(x, y)``, ``headings`` the two
        headings (``"N"``, ``"E"``, ``"S"``, ``"W"``).
        """
        game = cls.__new__(cls)
        game.map = None
        game._place(rows, starts, headings)
        return game

    def _place(self, rows: Sequence[str], starts: Sequence[tuple[int, int]], headings: Sequence[str]) -> None:
        self.headings = [DIRECTIONS.index(h) for h in headings]  # indices into DIRECTIONS, clockwise from N
        self._names = tuple(headings)
        self.board = TronBoard(rows, starts)
        self.num_seats = 2
        absolute = self.board.deltas
        self._deltas = tuple(
            MappingProxyType({action: absolute[DIRECTIONS[(h + turn) % 4]] for action, turn in TURNS.items()})
            for h in range(4))
        self._result: Result | None = None
        self._all = (0, 1)
        self.crashed_at: dict[int, int] = {}
        """Where each crashed seat crashed: the flat index of the cell it moved into."""

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_deltas"] = tuple(dict(deltas) for deltas in self._deltas)  # mapping proxies cannot be pickled
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._deltas = tuple(MappingProxyType(deltas) for deltas in self._deltas)

    def to_act(self) -> Sequence[int]:
        """Both seats, until the game ends."""
        return self._all

    def legal_actions(self, seat: int) -> Sequence[str]:
        """``"straight"``, ``"left"``, ``"right"`` (a fatal move is legal; it just crashes)."""
        return RELATIVE

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether ``action`` is one of ``"straight"``, ``"left"``, ``"right"``."""
        return type(action) is str and action in TURNS

    def apply(self, actions: Mapping[int, str]) -> None:
        """Turn each seat as it asked, then move both at once; the game ends at the first crash."""
        headings = self.headings
        moves = {}
        for seat, action in actions.items():
            heading = (headings[seat] + TURNS[action]) % 4
            headings[seat] = heading
            moves[seat] = DIRECTIONS[heading]
        self._names = (DIRECTIONS[headings[0]], DIRECTIONS[headings[1]])
        board = self.board
        before = list(board.heads)
        board.move_simultaneous(moves)
        for seat, _ in board.last_crashes:
            self.crashed_at[seat] = before[seat] + board.deltas[moves[seat]]
        if board.living < 2:
            self._result = Result(board.ranks(), board.reason())

    @property
    def result(self) -> Result | None:
        """The ranks and reason once the game is over."""
        return self._result

    def observe(self, seat: int) -> SnafuObservation:
        """A snapshot of the board for ``seat``, in relative actions."""
        return SnafuObservation(self.board, seat, self._names, self._deltas[self.headings[seat]])

    def render(self, color: bool = False) -> str:
        """The board as text: ``#`` walls, ``1``/``2`` heads, ``a``/``b`` trails, ``.`` empty."""
        return render_board(self.board, color)

    @classmethod
    def array_observation(cls, obs: SnafuObservation, centered: bool = False) -> np.ndarray:
        """Planes of walls, trails, heads and the cells ahead; centred and turned heading-up with ``centered``."""
        return snafu_array(obs, centered)

    @classmethod
    def array_actions(cls, obs: SnafuObservation) -> Sequence[str]:
        """``straight``, ``left``, ``right``."""
        return RELATIVE

    @classmethod
    def array_mask(cls, obs: SnafuObservation) -> np.ndarray:
        """All three moves are legal (a fatal one crashes)."""
        return all_legal(len(RELATIVE))

    def moves_together(self) -> bool:
        """Always: both players move at once."""
        return True

    def shaping(self, seat: int) -> float:
        """The share of the board's open cells the seat's head can still reach."""
        board = self.board
        open_cells = board.width * board.height - bytes(board.cells).count(WALL)
        return reachable_share(board.cells, board.stride, board.heads[seat], open_cells)

    def view(self) -> BoardView:
        """The board for the replay viewer, each player's heading beside its name."""
        names = {seat: f"heading {self._names[seat]}" for seat in self._all if self.board.alive[seat]}
        return board_view(self.board, self.crashed_at, notes=names)
