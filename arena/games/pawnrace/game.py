"""The pawn race as an arena game: options, maps, observations, moves as text, and the board drawn.

Player 1 is white (base at ``a1``, moves first), player 2 black. A map draws the board, top rank first:
``w`` white's base squares, ``b`` black's, ``.`` the rest; ``; pawns = 3`` in its header sets the pawns
per side. Options ``n`` (5 to 10) and ``a`` (1 or 2) override the map's board and base size (``map``: take
them from the map); a map can draw larger bases.

Array form (for :mod:`arena.rl`): planes of pawns, bases and waiting pawns seen from the seat's own corner,
and every move the board allows numbered, masked to the legal ones (:mod:`arena.games.pawnrace.arrays`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Option, Result
from arena.core.maps import GameMap, resolve_map
from arena.core.view import BoardView, CellStyle, Piece
from arena.games.pawnrace.arrays import action_table, pawnrace_array, pawnrace_mask, progress
from arena.games.pawnrace.rules import (
    BLACK,
    SIDES,
    WHITE,
    Position,
    Setup,
    Square,
    legal_moves,
    move_name,
    parse_square,
    pawn_moves,
    play,
    square_name,
    start,
)

BOARD_SIZES = tuple(str(n) for n in range(5, 11))
BASE_SIZES = ("1", "2")  # both fit on every board from 5 x 5; a map draws larger bases


@dataclass(frozen=True)
class PawnRaceObservation:
    """What a pawn-race bot sees: the board, both sides' pawns and waiting pawns, and its legal moves.

    ``mine`` and ``theirs`` are squares ``(x, y)`` of pawns on the board; ``waiting`` and ``their_waiting`` count
    the pawns still in each base. Moves are text: ``b3-c3``, or ``base-c1`` for a pawn leaving the base.
    """

    n: int
    a: int
    seat: int
    side: str
    mine: tuple[Square, ...]
    theirs: tuple[Square, ...]
    waiting: int
    their_waiting: int
    moves_made: int
    legal: tuple[str, ...]

    def legal_moves(self) -> tuple[str, ...]:
        """Every legal move, in name order."""
        return self.legal

    def to_json(self) -> dict[str, object]:
        """The observation as JSON (the ``arena-json`` protocol): ``n`` (board size), ``a`` (base size),
        ``side``, ``mine`` and ``theirs`` (``[x, y]`` squares), ``waiting``, ``their_waiting``, ``moves_made``."""
        return {
            "n": self.n, "a": self.a, "side": self.side, "mine": [list(square) for square in self.mine],
            "theirs": [list(square) for square in self.theirs], "waiting": self.waiting,
            "their_waiting": self.their_waiting, "moves_made": self.moves_made,
        }

    def target(self, move: str) -> Square:
        """The square a move (``b3-c3``, ``base-c1``) takes its pawn to."""
        square = parse_square(move.split("-")[1])
        if square is None:
            raise ValueError(f"{move!r} is not a move")
        return square

    def origin(self, move: str) -> Square | None:
        """The square a move takes its pawn from, or ``None`` for a pawn leaving its base."""
        return parse_square(move.split("-")[0])

    def safe(self, move: str) -> bool:
        """Whether the pawn ``move`` takes would still have a move of its own afterwards, if nothing else moved
        (a pawn left without one is removed at once)."""
        setup = Setup(self.n, self.a)
        side = SIDES.index(self.side)
        origin, target = self.origin(move), self.target(move)
        if setup.in_base(1 - side, target):
            return True
        occupied = (set(self.mine) | set(self.theirs) | {target}) - ({origin} if origin else set())
        return bool(pawn_moves(setup, side, target, frozenset(occupied)))

    def position(self) -> Position:
        """The position as the rules see it (for solvers and learners), its move count left out."""
        side = SIDES.index(self.side)
        pawns = [frozenset(self.mine), frozenset(self.theirs)]
        waiting = [self.waiting, self.their_waiting]
        if side == BLACK:
            pawns.reverse()
            waiting.reverse()
        return Position((pawns[0], pawns[1]), (waiting[0], waiting[1]), side)

    def distance_to_goal(self, square: Square) -> int:
        """Steps from ``square`` to the nearest square of the enemy base (0 inside it)."""
        goal = self.n - self.a if self.side == "white" else self.a - 1
        x, y = square
        if self.side == "white":
            return max(goal - x, 0) + max(goal - y, 0)
        return max(x - goal, 0) + max(y - goal, 0)


def board_of(game_map: GameMap | None) -> tuple[int, int]:
    """``(n, a)`` drawn by a pawn-race map (checked), or the paper's smallest board without one."""
    if game_map is None:
        return 5, 2
    rows = game_map.rows
    n = len(rows)
    if any(len(row) != n for row in rows):
        raise game_map.error(f"a pawn-race board is square: {len(rows[0])} columns, {n} rows")
    a = sum(1 for char in rows[-1] if char == "w")
    if a < 1:
        raise game_map.error("the bottom row should start with white's base: 'w' squares", 0, n - 1)
    for index, row in enumerate(rows):
        y = n - 1 - index
        for x, char in enumerate(row):
            expected = "w" if x < a and y < a else "b" if x >= n - a and y >= n - a else "."
            if char != expected:
                raise game_map.error(f"expected {expected!r} at {square_name((x, y))} for bases of size {a}",
                                     x, index)
    return n, a


class PawnRaceGame(Game):
    """Race a pawn into the enemy base (Kalles and Kanellopoulos 2001)."""

    name = "pawnrace"
    description = "Pawn race (Kalles and Kanellopoulos 2001): move pawns from your base into the enemy's"
    options = {
        "n": Option("map", ("map", *BOARD_SIZES), "board size n x n; map: the map's"),
        "a": Option("map", ("map", *BASE_SIZES), "base size a x a; map: the map's"),
        "pawns": Option("1", tuple(str(p) for p in range(1, 13)), "pawns per side (the paper's beta)"),
        "removal": Option("all", ("all", "mover"),
                          "after a move, remove stuck pawns of both sides (all) or of the side to move (mover)"),
        "max_moves": Option("2000", ("2000", "200", "500", "1000", "20000"),
                            "the move cap: moves (of both sides) after which the game is a draw"),
    }
    default_maps = ("pawnrace_5x5",)

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """The map must draw a square board with an ``a x a`` base in two opposite corners."""
        board_of(game_map)

    @classmethod
    def setup_of(cls, game_map: GameMap | None, options: Mapping[str, str]) -> Setup:
        """The configuration a map and resolved options give."""
        n, a = board_of(game_map)
        n = n if options["n"] == "map" else int(options["n"])
        a = a if options["a"] == "map" else int(options["a"])
        if not 1 <= a <= (n - 1) // 2:
            raise ArenaError(f"a base of {a} x {a} does not fit twice on a {n} x {n} board with room between")
        return Setup(n, a, int(options["pawns"]), options["removal"], int(options["max_moves"]))

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        self.setup = self.setup_of(game_map, options)
        self.position: Position = start(self.setup)
        self.num_seats = 2
        self._legal = self._moves()

    def _moves(self) -> dict[str, tuple[Square | str, Square]]:
        return {move_name(move): move for move in legal_moves(self.setup, self.position)}

    def to_act(self) -> Sequence[int]:
        """The side to move: white (seat 0) first, then in turn."""
        return () if self.position.over else (self.position.to_move,)

    def legal_actions(self, seat: int) -> Sequence[str]:
        """The moves of the side to move, as text (``b3-c3``, ``base-c1``)."""
        return list(self._legal) if seat == self.position.to_move and not self.position.over else []

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether ``action`` is one of the seat's legal moves."""
        return seat == self.position.to_move and isinstance(action, str) and action in self._legal

    def apply(self, actions: Mapping[int, str]) -> None:
        """Play the side to move's move."""
        self.position = play(self.setup, self.position, self._legal[actions[self.position.to_move]])
        self._legal = self._moves()

    @property
    def result(self) -> Result | None:
        """Who won (or the draw), and why."""
        position = self.position
        if not position.over:
            return None
        if position.winner is None:
            return Result((1, 1), position.reason)
        ranks = (1, 2) if position.winner == WHITE else (2, 1)
        return Result(ranks, f"{position.reason}: {SIDES[position.winner]} (player {position.winner + 1}) wins")

    def observe(self, seat: int) -> PawnRaceObservation:
        """The position from ``seat``'s side."""
        position = self.position
        other = 1 - seat
        legal = tuple(self._legal) if seat == position.to_move and not position.over else ()
        return PawnRaceObservation(self.setup.n, self.setup.a, seat, SIDES[seat], tuple(sorted(position.pawns[seat])),
                                   tuple(sorted(position.pawns[other])), position.waiting[seat],
                                   position.waiting[other], position.moves, legal)

    @classmethod
    def array_observation(cls, obs: PawnRaceObservation) -> np.ndarray:
        """Planes of pawns, bases and waiting pawns from the seat's own corner."""
        return pawnrace_array(obs)

    @classmethod
    def array_actions(cls, obs: PawnRaceObservation) -> Sequence[str]:
        """Every move the board allows a side, numbered in the seat's own frame."""
        return action_table(obs.n, obs.a, obs.seat)

    @classmethod
    def array_mask(cls, obs: PawnRaceObservation) -> np.ndarray:
        """The moves the seat may play now."""
        return pawnrace_mask(obs)

    def shaping(self, seat: int) -> float:
        """Half of 1 + this side's progress - the other's (each its most advanced pawn's)."""
        return (1.0 + progress(self.observe(seat)) - progress(self.observe(1 - seat))) / 2

    def render(self, color: bool = False) -> str:
        """The board, top rank first (``W``/``B`` pawns, ``w``/``b`` base squares), then who waits and moves."""
        setup, position = self.setup, self.position
        marks = {square: "W" for square in position.pawns[WHITE]} | {square: "B" for square in position.pawns[BLACK]}
        lines = []
        for y in range(setup.n - 1, -1, -1):
            cells = []
            for x in range(setup.n):
                char = marks.get((x, y)) or ("w" if setup.in_base(WHITE, (x, y))
                                             else "b" if setup.in_base(BLACK, (x, y)) else ".")
                if color and char in "WB":
                    char = f"[bold {'bright_white' if char == 'W' else 'bright_red'}]{char}[/]"
                elif color and char in "wb":
                    char = f"[grey50]{char}[/]"
                cells.append(char)
            lines.append(f"{y + 1:>2} " + " ".join(cells))
        lines.append("   " + " ".join(chr(ord("a") + x) for x in range(setup.n)))
        state = position.reason or f"{SIDES[position.to_move]} to move"
        lines.append(f"waiting: white {position.waiting[WHITE]}, black {position.waiting[BLACK]}; move "
                     f"{position.moves}; {state}")
        return "\n".join(lines)

    def view(self) -> BoardView:
        """The board for the replay viewer, top rank first: both bases, each pawn as a disc (white is seat 0),
        the pawns still waiting in each base, whose move it is."""
        setup, position = self.setup, self.position
        rows = ["".join("w" if setup.in_base(WHITE, (x, y)) else "b" if setup.in_base(BLACK, (x, y)) else "."
                        for x in range(setup.n)) for y in range(setup.n - 1, -1, -1)]
        styles = {".": CellStyle("#f7f7f7"), "w": CellStyle("trail0", name="white's base"),
                  "b": CellStyle("trail1", name="black's base")}
        pieces = [Piece(x, setup.n - 1 - y, side, "W" if side == WHITE else "B")
                  for side in (WHITE, BLACK) for x, y in sorted(position.pawns[side])]
        notes = {side: f"{position.waiting[side]} waiting" + ("; to move" if side == position.to_move
                                                             and not position.over else "")
                 for side in (WHITE, BLACK)}
        return BoardView(rows, styles, pieces, (), f"move {position.moves}", notes)


def setup_from(map_spec: str, options: Mapping[str, str]) -> Setup:
    """The configuration a pawn-race map and extra options give, or a one-line error."""
    game_map = resolve_map(map_spec)
    if game_map.header.get("game") != PawnRaceGame.name:
        raise ArenaError(f"{game_map.label} is not a pawnrace map")
    PawnRaceGame.check_map(game_map)
    return PawnRaceGame.setup_of(game_map, PawnRaceGame.resolve_options({**game_map.header, **options}))
