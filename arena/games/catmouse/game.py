"""Cat and mouse: the ``catmouse`` game (W. Brett Kennedy, "Using Optimization to Solve Adversarial
Problems", 2025).

Players: 2, with roles. Seat 0 is the cat, seat 1 the mouse (``CatMouseGame.roles``).
Board: a map with ``#`` obstacles, ``.`` or space empty cells, ``C`` the cat's start and ``M`` the
mouse's. Without a ``C`` the cat starts in the bottom-left corner, without an ``M`` the mouse starts in
the top-right. Without any map the board is 8 rows x 7 columns with no obstacles.
Actions: ``"U"``, ``"D"``, ``"L"``, ``"R"``: move one cell up, down, left or right. The players take turns;
staying put is not allowed, and a move off the board or into an obstacle is illegal (that bot loses).
Ending:

* the cat wins by moving onto the mouse's cell; a mouse that moves onto the cat is caught too;
* the mouse wins by evading: once it has made ``max_moves`` moves of its own without being caught,
  or, with ``repeat = on``, as soon as a position (both cells and the side to move) occurs again.

Options (map header ``; first = mouse`` and so on):

* ``first = cat | mouse``: who moves first (default ``cat``);
* ``max_moves = auto | N``: the mouse's moves to survive; ``auto`` (the default) is 2 x (rows + columns)
  with ``repeat = off`` and no limit with ``repeat = on`` (the repetition rule alone then ends every
  game, since a board has finitely many positions); a number ``N`` from 1 to 100000 applies either way;
* ``repeat = off | on``: the repetition rule (default ``off``).

Ranks: the winner 1, the loser 2; there are no draws.
Observation: :class:`CatMouseObservation`, a read-only snapshot: both positions, the board and its
obstacles, the side to move, the moves made so far, and helpers (``legal_moves``, ``target``,
``moves_from``, ``is_free``).
Array form (for :mod:`arena.rl`): planes of obstacles, both players, the role and the move limit used
(:mod:`arena.games.catmouse.arrays`); actions ``U``, ``D``, ``L``, ``R`` as 0-3, masked to the legal ones.

Versions: 1 - obstacles, move limit and repetition rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Option, Result
from arena.core.maps import GameMap, resolve_map
from arena.core.view import BoardView, CellStyle, Mark, Piece
from arena.games.catmouse.arrays import catmouse_array, catmouse_mask, closeness
from arena.games.catmouse.layouts import layout_from_map
from arena.games.catmouse.rules import CAT, MOUSE, MOVES, SIDE_NAMES, GameState, Layout, open_layout

MAX_MOVE_LIMIT = 100_000
_NUMBER = re.compile(r"^[1-9][0-9]{0,5}$")


class MoveLimitChoices(tuple[str, ...]):
    """The values ``max_moves`` accepts: ``auto`` or a whole number from 1 to 100000.

    It iterates over two examples (``auto`` and the largest limit), so listings stay short, while ``in``
    accepts every valid value.
    """

    def __new__(cls) -> MoveLimitChoices:
        """The choices of ``max_moves``."""
        return super().__new__(cls, ("auto", str(MAX_MOVE_LIMIT)))

    def __contains__(self, value: object) -> bool:
        return value == "auto" or (isinstance(value, str) and bool(_NUMBER.match(value))
                                   and int(value) <= MAX_MOVE_LIMIT)


def move_limit(options: Mapping[str, str], layout: Layout) -> int | None:
    """The mouse's number of moves to survive under ``options`` (``None``: no limit)."""
    value = options.get("max_moves", "auto")
    if value == "auto":
        return None if options.get("repeat", "off") == "on" else layout.default_move_limit()
    return int(value)


class CatMouseObservation:
    """What a cat-and-mouse bot sees when it is to move: a snapshot of the board and both players.

    Coordinates are ``(x, y)``: ``x`` the column from the left, ``y`` the row from the top. ``blocked`` holds
    one byte per cell, row by row (1 for an obstacle).
    """

    __slots__ = ("width", "height", "blocked", "seat", "role", "cat", "mouse", "to_move", "turn", "mouse_moves",
                 "max_moves", "repeat")

    def __init__(self, state: GameState, blocked: bytes, seat: int):
        layout = state.layout
        self.width = layout.width
        self.height = layout.height
        self.blocked = blocked
        self.seat = seat
        self.role = SIDE_NAMES[seat]
        self.cat = layout.xy(state.cat)
        self.mouse = layout.xy(state.mouse)
        self.to_move = SIDE_NAMES[state.to_move]
        self.turn = state.plies
        self.mouse_moves = state.mouse_moves
        self.max_moves = state.move_limit
        self.repeat = state.repeat

    @property
    def position(self) -> tuple[int, int]:
        """This bot's ``(x, y)``."""
        return self.cat if self.seat == CAT else self.mouse

    @property
    def opponent(self) -> tuple[int, int]:
        """The other player's ``(x, y)``."""
        return self.mouse if self.seat == CAT else self.cat

    def is_free(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` is on the board and not an obstacle."""
        return 0 <= x < self.width and 0 <= y < self.height and not self.blocked[y * self.width + x]

    def target(self, move: str, start: tuple[int, int] | None = None) -> tuple[int, int]:
        """The ``(x, y)`` that ``move`` leads to from ``start`` (default: this bot's cell), legal or not."""
        x, y = self.position if start is None else start
        dx, dy = _DELTA[move]
        return x + dx, y + dy

    def moves_from(self, x: int, y: int) -> list[tuple[str, tuple[int, int]]]:
        """The legal moves from ``(x, y)`` with the cell each leads to."""
        found = []
        for move, (dx, dy) in _DELTA.items():
            if self.is_free(x + dx, y + dy):
                found.append((move, (x + dx, y + dy)))
        return found

    def legal_moves(self) -> list[str]:
        """The moves this bot may make now (onto the other player included)."""
        return [move for move, _ in self.moves_from(*self.position)]

    def to_json(self) -> dict[str, object]:
        """The observation as JSON (the ``arena-json`` protocol): ``width``, ``height``, ``rows`` (``#`` an
        obstacle, ``.`` free, ``C`` the cat, ``M`` the mouse), ``role``, ``cat`` and ``mouse`` as ``[x, y]``,
        ``to_move``, ``turn``, ``mouse_moves``, ``max_moves`` (``null`` for none) and ``repeat``."""
        rows = [["#" if self.blocked[y * self.width + x] else "." for x in range(self.width)]
                for y in range(self.height)]
        rows[self.mouse[1]][self.mouse[0]] = "M"
        rows[self.cat[1]][self.cat[0]] = "C"
        return {
            "width": self.width, "height": self.height, "rows": ["".join(row) for row in rows],
            "role": self.role, "cat": list(self.cat), "mouse": list(self.mouse), "to_move": self.to_move,
            "turn": self.turn, "mouse_moves": self.mouse_moves, "max_moves": self.max_moves, "repeat": self.repeat,
        }


_DELTA = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


class CatMouseGame(Game):
    """Cat and mouse on a grid with obstacles: the cat hunts, the mouse evades."""

    name = "catmouse"
    description = "Cat and mouse: the cat hunts, the mouse evades long enough to win (Kennedy 2025)."
    roles = ("cat", "mouse")
    min_players = 2
    max_players = 2
    default_maps = ("catmouse_8x7",)
    options = {
        "first": Option("cat", ("cat", "mouse"), "who moves first"),
        "max_moves": Option("auto", MoveLimitChoices(),
                            "the mouse wins after this many moves of its own; auto: 2 x (rows + columns), "
                            "or no limit with repeat = on"),
        "repeat": Option("off", ("off", "on"), "on: the mouse also wins as soon as a position repeats"),
    }

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """Check the cell characters, the starts (at most one ``C`` and one ``M``) and that both can move."""
        layout_from_map(game_map)

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        layout = layout_from_map(game_map) if game_map is not None else open_layout(8, 7)
        first = CAT if options.get("first", "cat") == "cat" else MOUSE
        self.layout = layout
        self.state = GameState(layout, first, move_limit(options, layout), options.get("repeat", "off") == "on")
        self.num_seats = 2
        self._blocked = bytes(layout.blocked)
        self._result: Result | None = None

    def to_act(self) -> Sequence[int]:
        """The side to move: seat 0 for the cat, seat 1 for the mouse."""
        return (self.state.to_move,)

    def legal_actions(self, seat: int) -> Sequence[str]:
        """The moves that stay on the board and off the obstacles, for the seat to move (none otherwise)."""
        return self.state.legal_moves() if seat == self.state.to_move else ()

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether ``action`` is a legal move for ``seat`` now."""
        return type(action) is str and action in MOVES and action in self.legal_actions(seat)

    def apply(self, actions: Mapping[int, str]) -> None:
        """Move the side to move; decide the result when the game ends."""
        state = self.state
        state.play(actions[state.to_move])
        if state.winner is not None:
            self._result = Result((1, 2) if state.winner == CAT else (2, 1), self._reason())

    def _reason(self) -> str:
        state = self.state
        x, y = self.layout.xy(state.cat)
        moves = f"{state.plies} move{'s' if state.plies != 1 else ''}"
        if state.ending == "caught":
            return f"the cat caught the mouse at ({x}, {y}) after {moves}"
        if state.ending == "walked into the cat":
            return f"the mouse walked into the cat at ({x}, {y}) after {moves}"
        if state.ending == "evaded":
            plural = "s" if state.mouse_moves != 1 else ""
            return f"the mouse evaded the cat for {state.mouse_moves} move{plural} of its own"
        mx, my = self.layout.xy(state.mouse)
        return (f"the position repeated (cat ({x}, {y}), mouse ({mx}, {my}), {SIDE_NAMES[state.to_move]} to move) "
                f"after {moves}: the mouse escapes")

    @property
    def result(self) -> Result | None:
        """The ranks and reason once the game is over."""
        return self._result

    def observe(self, seat: int) -> CatMouseObservation:
        """A snapshot of the game for ``seat``."""
        return CatMouseObservation(self.state, self._blocked, seat)

    @classmethod
    def array_observation(cls, obs: CatMouseObservation) -> np.ndarray:
        """Planes of obstacles, this seat, the other player, the role and the move limit used."""
        return catmouse_array(obs)

    @classmethod
    def array_actions(cls, obs: CatMouseObservation) -> Sequence[str]:
        """``U``, ``D``, ``L``, ``R``."""
        return MOVES

    @classmethod
    def array_mask(cls, obs: CatMouseObservation) -> np.ndarray:
        """The moves the seat may play now."""
        return catmouse_mask(obs)

    def shaping(self, seat: int) -> float:
        """For the cat, how near it is to the mouse; for the mouse, how far."""
        near = closeness(self.observe(seat))
        return near if seat == CAT else 1.0 - near

    def render(self, color: bool = False) -> str:
        """The board as text: ``C`` cat, ``M`` mouse, ``X`` a caught mouse, ``#`` obstacles, ``.`` empty."""
        layout, state = self.layout, self.state
        lines = []
        for y in range(layout.height):
            chars = []
            for x in range(layout.width):
                cell = layout.cell(x, y)
                if cell == state.cat and cell == state.mouse:
                    char = "[bold bright_red]X[/]" if color else "X"
                elif cell == state.cat:
                    char = "[bold bright_red]C[/]" if color else "C"
                elif cell == state.mouse:
                    char = "[bold bright_blue]M[/]" if color else "M"
                elif layout.blocked[cell]:
                    char = "[grey50]#[/]" if color else "#"
                else:
                    char = "."
                chars.append(char)
            lines.append("".join(chars))
        return "\n".join(lines)

    def view(self) -> BoardView:
        """The board for the replay viewer: obstacles, the cat (seat 0) and the mouse (seat 1), a cross where
        the mouse was caught, whose move it is and how many moves the mouse has made."""
        layout, state = self.layout, self.state
        rows = ["".join("#" if layout.blocked[layout.cell(x, y)] else "." for x in range(layout.width))
                for y in range(layout.height)]
        styles = {".": CellStyle("#f7f7f7"), "#": CellStyle("#444444", name="obstacle")}
        cat, mouse = layout.xy(state.cat), layout.xy(state.mouse)
        pieces = [Piece(*mouse, MOUSE, "M"), Piece(*cat, CAT, "C")]
        marks = [Mark(*cat, MOUSE)] if state.winner == CAT else []
        limit = f" of {state.move_limit}" if state.move_limit is not None else ""
        status = f"the mouse has made {state.mouse_moves}{limit} moves"
        notes = {} if state.winner is not None else {state.to_move: "to move"}
        return BoardView(rows, styles, pieces, marks, status, notes)


def load_board(spec: str) -> tuple[GameMap, Layout, dict[str, str]]:
    """A catmouse map by name or path, its board and its resolved options; an error names a map of another
    game."""
    game_map = resolve_map(spec)
    game = game_map.header.get("game", "tron")
    if game != CatMouseGame.name:
        raise ArenaError(f"{game_map.label} is a {game} map, not a catmouse map")
    layout = layout_from_map(game_map)
    try:
        options = CatMouseGame.resolve_options(game_map.header)
    except ArenaError as exc:
        raise ArenaError(f"{game_map.label}: {exc}") from None
    return game_map, layout, options
