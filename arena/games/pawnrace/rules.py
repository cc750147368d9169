"""The rules of the pawn race (Kalles and Kanellopoulos 2001, section 2), with no arena types.

Squares are ``(x, y)`` with ``0 <= x, y < n``. White's base is the ``a x a`` corner at ``(0, 0)``, black's the
one at ``(n - 1, n - 1)``; a base counts as one square that holds any number of waiting pawns. A move takes one
pawn one square up, down, left or right onto an empty square, or from its base onto an empty square next to
the base, and never brings a pawn closer to its own base. A pawn that enters the enemy base wins; so does
taking the opponent's last pawn off. After every move, each pawn that has no legal move is removed (with
``removal = "mover"``, only those of the side about to move). A game that reaches ``max_moves`` moves is a draw,
and so is a move after which both sides have no pawns left.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

WHITE, BLACK = 0, 1
SIDES = ("white", "black")
BASE = "base"
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))

Square = tuple[int, int]


@dataclass(frozen=True)
class Setup:
    """A configuration: board size ``n``, base size ``a``, pawns per side, the removal rule, the move cap."""

    n: int = 5
    a: int = 2
    pawns: int = 1
    removal: str = "all"
    max_moves: int = 2000

    def in_base(self, side: int, square: Square) -> bool:
        """Whether ``square`` is in ``side``'s base."""
        x, y = square
        if side == WHITE:
            return x < self.a and y < self.a
        return x >= self.n - self.a and y >= self.n - self.a

    def distance(self, side: int, square: Square) -> int:
        """How far a pawn of ``side`` is from its own base, as the paper measures it; it may never decrease."""
        x, y = square
        if side == WHITE:
            return max(x - self.a, y - self.a)
        return max(self.n - self.a - x, self.n - self.a - y)

    def exits(self, side: int) -> tuple[Square, ...]:
        """The squares a pawn leaving ``side``'s base may step onto: next to the base, outside it (2a of them)."""
        a, far = self.a, self.n - 1 - self.a
        if side == WHITE:
            return tuple([(a, y) for y in range(a)] + [(x, a) for x in range(a)])
        return tuple([(far, y) for y in range(self.n - a, self.n)] + [(x, far) for x in range(self.n - a, self.n)])

    def fastest_win(self) -> int:
        """The fewest moves of its own a side can win in, unopposed: leave the base, then walk to the enemy's."""
        goal = self.n - self.a
        return 1 + min(max(goal - x, 0) + max(goal - y, 0) for x, y in self.exits(WHITE))

    def on_board(self, square: Square) -> bool:
        """Whether ``square`` is on the board."""
        return 0 <= square[0] < self.n and 0 <= square[1] < self.n

    @cached_property
    def steps(self) -> dict[tuple[int, Square], tuple[Square, ...]]:
        """For each side and square, the squares a pawn there may step to on an empty board: on it, outside its
        own base, and no closer to its own base (or into the enemy base). Computed once per configuration."""
        table = {}
        for side in (WHITE, BLACK):
            for x in range(self.n):
                for y in range(self.n):
                    here = self.distance(side, (x, y))
                    targets = []
                    for dx, dy in STEPS:
                        target = (x + dx, y + dy)
                        if not self.on_board(target) or self.in_base(side, target):
                            continue
                        if self.in_base(1 - side, target) or self.distance(side, target) >= here:
                            targets.append(target)
                    table[side, (x, y)] = tuple(targets)
        return table

    @cached_property
    def reach(self) -> dict[tuple[int, Square | str], frozenset[Square]]:
        """:attr:`steps` as sets, with each side's base exits under ``(side, BASE)``: a pawn is stuck when its set
        is a subset of the occupied squares."""
        table: dict[tuple[int, Square | str], frozenset[Square]] = {
            key: frozenset(targets) for key, targets in self.steps.items()}
        for side in (WHITE, BLACK):
            table[side, BASE] = frozenset(self.exits(side))
        return table


@lru_cache(maxsize=1024)
def square_name(square: Square) -> str:
    """``(2, 0)`` as ``c1``: file letter, then rank from 1."""
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def parse_square(text: str) -> Square | None:
    """``c1`` as ``(2, 0)``, or ``None`` if it is not a square's name."""
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    return ord(text[0].lower()) - ord("a"), int(text[1:]) - 1


@dataclass(frozen=True)
class Position:
    """Where every pawn is: on squares (per side), waiting in a base (counts), whose move, how many moves made,
    and how the game ended (``winner`` a side, or ``None`` with ``reason`` for a draw; ``reason`` empty while
    it goes on)."""

    pawns: tuple[frozenset[Square], frozenset[Square]]
    waiting: tuple[int, int]
    to_move: int = WHITE
    moves: int = 0
    winner: int | None = None
    reason: str = ""

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.reason)

    def left(self, side: int) -> int:
        """How many pawns ``side`` still has, on the board and in its base."""
        return len(self.pawns[side]) + self.waiting[side]


def start(setup: Setup) -> Position:
    """The opening position: every pawn waiting in its base, white to move."""
    return Position((frozenset(), frozenset()), (setup.pawns, setup.pawns))


def _occupied(position: Position) -> frozenset[Square]:
    return position.pawns[WHITE] | position.pawns[BLACK]


def pawn_moves(setup: Setup, side: int, square: Square, occupied: frozenset[Square]) -> list[Square]:
    """The squares a pawn of ``side`` on ``square`` may step to, with ``occupied`` squares taken."""
    return [target for target in setup.steps[side, square] if target not in occupied]


def legal_moves(setup: Setup, position: Position, side: int | None = None) -> list[tuple[Square | str, Square]]:
    """Every legal move of ``side`` (default: the side to move) as ``(from, to)``; ``from`` is ``"base"`` for a
    pawn leaving its base. In name order, so that a seeded choice among them is reproducible."""
    side = position.to_move if side is None else side
    if position.over:
        return []
    occupied = _occupied(position)
    moves: list[tuple[Square | str, Square]] = []
    if position.waiting[side]:
        moves += [(BASE, exit_) for exit_ in setup.exits(side) if exit_ not in occupied]
    for square in position.pawns[side]:
        moves += [(square, target) for target in pawn_moves(setup, side, square, occupied)]
    return sorted(moves, key=lambda move: move_name(move))


def move_name(move: tuple[Square | str, Square]) -> str:
    """``b3-c3``, or ``base-c1`` for a pawn leaving its base."""
    origin, target = move
    return f"{origin if isinstance(origin, str) else square_name(origin)}-{square_name(target)}"


def _stuck(setup: Setup, position: Position, side: int, occupied: frozenset[Square]) -> tuple[frozenset[Square],
                                                                                            bool]:
    """``side``'s pawns on squares with no legal move, and whether its waiting pawns cannot leave the base."""
    reach = setup.reach
    stuck = frozenset(square for square in position.pawns[side] if reach[side, square] <= occupied)
    blocked = position.waiting[side] > 0 and reach[side, BASE] <= occupied
    return stuck, blocked


def play(setup: Setup, position: Position, move: tuple[Square | str, Square]) -> Position:
    """The position after the side to move plays ``move`` (which must be legal)."""
    side = position.to_move
    origin, target = move
    waiting = list(position.waiting)
    if origin == BASE:
        waiting[side] -= 1
        mine = position.pawns[side]
    else:
        mine = position.pawns[side] - {origin}
    if setup.in_base(1 - side, target):
        pawns = (mine, position.pawns[BLACK]) if side == WHITE else (position.pawns[WHITE], mine)
        return Position(pawns, (waiting[0], waiting[1]), 1 - side, position.moves + 1, side,
                        f"{SIDES[side]} reached {SIDES[1 - side]}'s base")
    mine = mine | {target}
    pawns = (mine, position.pawns[BLACK]) if side == WHITE else (position.pawns[WHITE], mine)
    after = _remove_stuck(setup, Position(pawns, (waiting[0], waiting[1]), 1 - side, position.moves + 1))
    return _judge(setup, after, side)


def _remove_stuck(setup: Setup, position: Position) -> Position:
    sides = (WHITE, BLACK) if setup.removal == "all" else (position.to_move,)
    occupied = _occupied(position)
    found = [(side, *_stuck(setup, position, side, occupied)) for side in sides]  # all found before any goes
    if not any(stuck or blocked for _, stuck, blocked in found):
        return position
    pawns, waiting = list(position.pawns), list(position.waiting)
    for side, stuck, blocked in found:
        pawns[side] = pawns[side] - stuck
        if blocked:
            waiting[side] = 0
    return Position((pawns[0], pawns[1]), (waiting[0], waiting[1]), position.to_move, position.moves)


def _judge(setup: Setup, position: Position, mover: int) -> Position:
    other = 1 - mover
    if position.left(WHITE) == 0 and position.left(BLACK) == 0:
        return replace(position, reason="both sides lost their last pawn on the same move: a draw")
    if position.left(other) == 0:
        return replace(position, winner=mover, reason=f"{SIDES[other]} has no pawns left")
    if position.left(mover) == 0:
        return replace(position, winner=other, reason=f"{SIDES[mover]} has no pawns left")
    if position.moves >= setup.max_moves:
        return replace(position, reason=f"the move cap of {setup.max_moves} moves was reached: a draw")
    return position
