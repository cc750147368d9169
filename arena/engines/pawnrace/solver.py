"""Perfect play in the pawn race, by retrograde analysis of every position reachable from the start.

Positions are taken without their move count, so a game that can cycle is a draw with perfect play (the
move cap would end it). Each position gets a value for the side to move: a win in ``plies`` moves (of both
sides), a loss in ``plies``, or a draw. Wins take the fastest way, losses the slowest, as in the
cat-and-mouse solver. Small configurations only: ``max_positions`` guards the memory.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache

from arena.core.errors import ArenaError
from arena.games.pawnrace.rules import Position, Setup, legal_moves, move_name, play, start

WIN, LOSS, DRAW = 1, -1, 0
NO_CAP = 10**9


@dataclass(frozen=True)
class Value:
    """A position's value for the side to move, and in how many moves (of both sides) it comes."""

    outcome: int
    plies: int = 0


@dataclass
class Solution:
    """Every reachable position's value, for one configuration."""

    setup: Setup
    values: dict[Position, Value]

    def value(self, position: Position) -> Value:
        """The value of ``position`` (its move count is ignored)."""
        return self.values[_key(position)]

    def best_moves(self, position: Position) -> list[str]:
        """The moves that keep the best value: the fastest win, the draw, or the slowest loss."""
        options = []
        for move in legal_moves(self.setup, _key(position)):
            after = play(self.setup, _key(position), move)
            options.append((_score(_value_after(self, after)), move_name(move)))
        best = max(score for score, _ in options)
        return [name for score, name in options if score == best]


def _key(position: Position) -> Position:
    return replace(position, moves=0)


def _value_after(solution: Solution, after: Position) -> Value:
    """The value of a move's result for the side that made it."""
    if after.over:
        if after.winner is None:
            return Value(DRAW)
        return Value(WIN if after.winner != after.to_move else LOSS, 1)
    theirs = solution.values[_key(after)]
    return Value(-theirs.outcome, theirs.plies + 1)


def _score(value: Value) -> tuple[int, int]:
    if value.outcome == WIN:
        return (2, -value.plies)
    if value.outcome == LOSS:
        return (0, value.plies)
    return (1, 0)


def solve(setup: Setup, max_positions: int = 2_000_000) -> Solution:
    """Solve ``setup`` from its opening position; an error if it has more than ``max_positions`` positions."""
    rules = replace(setup, max_moves=NO_CAP)
    first = _key(start(rules))
    successors: dict[Position, list[Position]] = {}
    queue = deque([first])
    successors[first] = []
    while queue:
        position = queue.popleft()
        children = []
        for move in legal_moves(rules, position):
            after = play(rules, position, move)
            child = after if after.over else _key(after)
            children.append(child)
            if not child.over and child not in successors:
                if len(successors) >= max_positions:
                    raise ArenaError(f"more than {max_positions:,} positions: too large to solve exactly")
                successors[child] = []
                queue.append(child)
        successors[position] = children
    return Solution(rules, _retrograde(successors))


def _retrograde(successors: dict[Position, list[Position]]) -> dict[Position, Value]:
    values: dict[Position, Value] = {}
    parents: dict[Position, list[Position]] = {position: [] for position in successors}
    unresolved = {position: len(children) for position, children in successors.items()}
    frontier: deque[Position] = deque()
    for position, children in successors.items():
        for child in children:
            if child.over:
                mover_won = child.winner is not None and child.winner == position.to_move
                if mover_won and position not in values:
                    values[position] = Value(WIN, 1)
                    frontier.append(position)
                elif child.winner is None or not mover_won:
                    unresolved[position] -= 1  # a draw or a loss at once: never better than another move
            else:
                parents[child].append(position)
        if position not in values and unresolved[position] == 0 and children:
            best_terminal = any(c.over and c.winner is None for c in children)
            values[position] = Value(DRAW) if best_terminal else Value(LOSS, 1)
            if not best_terminal:
                frontier.append(position)
    while frontier:
        position = frontier.popleft()
        value = values[position]
        for parent in parents[position]:
            if parent in values:
                continue
            if value.outcome == LOSS:
                values[parent] = Value(WIN, value.plies + 1)
                frontier.append(parent)
            else:
                unresolved[parent] -= 1
                if unresolved[parent] == 0:
                    if _has_draw_exit(parent, successors, values):
                        values[parent] = Value(DRAW)
                    else:
                        slowest = max(values[c].plies for c in successors[parent] if not c.over)
                        values[parent] = Value(LOSS, slowest + 1)
                        frontier.append(parent)
    for position in successors:
        values.setdefault(position, Value(DRAW))
    return values


def _has_draw_exit(position: Position, successors: dict[Position, list[Position]],
                   values: dict[Position, Value]) -> bool:
    return any((child.over and child.winner is None) or (not child.over and values[child].outcome == DRAW)
               for child in successors[position])


def solution_for(setup: Setup, max_positions: int = 2_000_000) -> Solution:
    """The solution of ``setup`` (without its move cap), solved once per process."""
    return _cached(replace(setup, max_moves=NO_CAP), max_positions)


@lru_cache(maxsize=8)
def _cached(setup: Setup, max_positions: int) -> Solution:
    return solve(setup, max_positions)


@dataclass(frozen=True)
class Verdict:
    """Who wins a configuration with perfect play, and after how many moves of both sides and of the winner."""

    setup: Setup
    winner: str | None
    plies: int
    positions: int

    @property
    def winner_moves(self) -> int:
        """The winner's own moves (the first player moves on odd plies)."""
        if self.winner is None:
            return 0
        return (self.plies + 1) // 2 if self.winner == "white" else self.plies // 2


def verdict(setup: Setup, max_positions: int = 2_000_000) -> Verdict:
    """The perfect-play verdict of ``setup`` from its opening position."""
    solution = solution_for(setup, max_positions)
    value = solution.value(start(solution.setup))
    winner = None if value.outcome == DRAW else "white" if value.outcome == WIN else "black"
    return Verdict(setup, winner, value.plies, len(solution.values))
