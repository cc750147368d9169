"""Pure Tron rules on a padded flat grid: no bots, no I/O, nothing allocated per move.

The grid has a one-cell border of ``OUT`` cells around the map, so moving off the board is just
another crash and no move needs a bounds check. A player's head cell is already marked with its
trail, because in every rule set the cell a player stands on is never free again (until a bomb
clears it: see :mod:`arena.games.tron.powerups`).

Cell values: ``EMPTY`` 0, ``WALL`` 1 (``#``), ``OUT`` 2 (off the board), ``TRAIL + k`` seat k's trail
or head, ``BARRIER`` 7 (an ``x`` a trap put down). Trails and barriers are the ``x`` barriers of the
Brown rules: every value from ``TRAIL`` up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from arena.core.game import player_name, players_text

EMPTY = 0
WALL = 1
OUT = 2
TRAIL = 3  # seat k's trail is TRAIL + k
BARRIER = 7  # a barrier no seat owns (put down by a trap)

DIRECTIONS = ("N", "E", "S", "W")
DEAD = -1
SAME_CELL = "moved into the same cell as another player"


@lru_cache(maxsize=256)
def padded_grid(rows: tuple[str, ...]) -> bytes:
    """The flat grid of a map's rows with a border of ``OUT`` cells: ``#`` is ``WALL``, anything else ``EMPTY``.

    Cached, since a tournament sets up thousands of games on the same few maps.
    """
    stride = len(rows[0]) + 2
    cells = bytearray([OUT]) * (stride * (len(rows) + 2))
    for y, row in enumerate(rows):
        base = (y + 1) * stride + 1
        for x, char in enumerate(row):
            cells[base + x] = WALL if char == "#" else EMPTY
    return bytes(cells)


@lru_cache(maxsize=64)
def _deltas(stride: int) -> MappingProxyType[str, int]:
    """The offset of each direction on a grid of ``stride``: read-only, because observations hand it to bots (and
    so shared by every board of that width)."""
    return MappingProxyType({"N": -stride, "E": 1, "S": stride, "W": -1})


class TronBoard:
    """The state of one Tron game: cells, heads, who is alive and the crashes so far."""

    __slots__ = ("width", "height", "stride", "cells", "heads", "alive", "out_turn", "turn", "deltas",
                 "last_crashes", "last_collisions", "living")

    def __init__(self, rows: Sequence[str], starts: Sequence[tuple[int, int]]):
        self.width = len(rows[0])
        self.height = len(rows)
        self.stride = self.width + 2
        cells = bytearray(padded_grid(tuple(rows)))
        self.cells = cells
        stride = self.stride
        self.heads = []
        for seat, (x, y) in enumerate(starts):  # index(x, y), spelled out: a tournament sets up every game
            head = (y + 1) * stride + x + 1
            cells[head] = TRAIL + seat
            self.heads.append(head)
        self.alive = [True] * len(starts)
        self.living = len(starts)
        self.out_turn: list[int | None] = [None] * len(starts)
        self.turn = 0
        self.deltas = _deltas(stride)
        self.last_crashes: list[tuple[int, str]] = []
        self.last_collisions: list[list[int]] = []

    def __getstate__(self) -> dict[str, object]:
        state: dict[str, object] = {name: getattr(self, name) for cls in type(self).__mro__
                                    for name in getattr(cls, "__slots__", ()) if hasattr(self, name)}
        state["deltas"] = dict(self.deltas)  # a mapping proxy cannot be pickled
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.deltas = _deltas(self.stride)

    def index(self, x: int, y: int) -> int:
        """The flat index of map cell ``(x, y)``."""
        return (y + 1) * self.stride + x + 1

    def xy(self, index: int) -> tuple[int, int]:
        """The map coordinates of a flat index."""
        y, x = divmod(index, self.stride)
        return x - 1, y - 1

    def describe(self, seat: int, cell: int, heads_before: Sequence[int]) -> str:
        """Why ``seat`` crashed on entering ``cell`` (which is not empty)."""
        value = self.cells[cell]
        if value == WALL:
            return "moved into a wall"
        if value == OUT:
            return "moved off the board"
        if value == BARRIER:
            return "moved into a barrier"
        owner = value - TRAIL
        if owner == seat:
            return "moved into its own trail"
        if heads_before[owner] == cell:
            return f"moved into {player_name(owner)}'s head"
        return f"moved into {player_name(owner)}'s trail"

    def move_simultaneous(self, actions: Mapping[int, str]) -> None:
        """Every living seat moves at once; collisions and swaps crash everyone involved."""
        cells, heads, deltas = self.cells, self.heads, self.deltas
        if len(actions) == 2:  # the common case, spelled out: two players, and (most turns) nobody crashes
            (first, first_action), (second, second_action) = actions.items()
            first_target, second_target = heads[first] + deltas[first_action], heads[second] + deltas[second_action]
            if first_target != second_target and cells[first_target] == EMPTY and cells[second_target] == EMPTY:
                heads[first], heads[second] = first_target, second_target
                cells[first_target], cells[second_target] = TRAIL + first, TRAIL + second
                if self.last_crashes or self.last_collisions:  # (a crash turn ends a 2-player game: rarely true)
                    self.last_collisions, self.last_crashes = [], []
                self.turn += 1
                return
        targets = {seat: heads[seat] + deltas[action] for seat, action in actions.items()}
        clear = len(set(targets.values())) == len(targets)
        for target in targets.values():
            if cells[target] != EMPTY:
                clear = False
        if clear:  # nobody crashes: most turns of most games
            for seat, target in targets.items():
                heads[seat] = target
                cells[target] = TRAIL + seat
            self._moved_without_crash()
            return
        crashes: list[tuple[int, str]] = []
        survivors = []
        collisions: dict[int, list[int]] = {}
        for seat, target in sorted(targets.items()):
            if cells[target] != EMPTY:
                crashes.append((seat, self.describe(seat, target, heads)))
                continue
            if sum(1 for other in targets.values() if other == target) > 1:
                crashes.append((seat, SAME_CELL))
                collisions.setdefault(target, []).append(seat)
                continue
            survivors.append(seat)
        self.last_collisions = list(collisions.values())
        for seat in survivors:
            heads[seat] = targets[seat]
            cells[targets[seat]] = TRAIL + seat
        self._eliminate(crashes)

    def _moved_without_crash(self) -> None:
        self.last_collisions = []
        self.last_crashes = []
        self.turn += 1

    def move_alternating(self, seat: int, action: str) -> None:
        """One seat moves; entering anything but an empty cell crashes it."""
        target = self.heads[seat] + self.deltas[action]
        if self.cells[target] != EMPTY:
            self._eliminate([(seat, self.describe(seat, target, self.heads))])
        else:
            self.heads[seat] = target
            self.cells[target] = TRAIL + seat
            self._eliminate([])
        self.last_collisions = []

    def _eliminate(self, crashes: list[tuple[int, str]]) -> None:
        for seat, _ in crashes:
            self.alive[seat] = False
            self.out_turn[seat] = self.turn
            self.heads[seat] = DEAD
        self.living -= len(crashes)
        self.last_crashes = crashes
        self.turn += 1

    def reason(self) -> str:
        """Why the game ended, from the last turn's crashes (call once at most one player is left)."""
        parts = []  # loops, not comprehensions: this runs at the end of every game
        for seat, what in self.last_crashes:
            if what != SAME_CELL:
                parts.append(f"{player_name(seat)} {what}")
        for group in self.last_collisions:
            parts.append(f"{players_text(group)} moved into the same cell")
        crashes = "; ".join(parts)
        for seat, living in enumerate(self.alive):
            if living:
                return f"{crashes}; {player_name(seat)} wins"
        if len(self.last_crashes) == len(self.alive):
            return f"{crashes}; draw"
        return f"{crashes}; {players_text(sorted(seat for seat, _ in self.last_crashes))} share first place"

    def ranks(self) -> tuple[int, ...]:
        """Rank per seat by elimination order: later out is better; same-turn crashes share a place."""
        never = self.turn + 1
        out = [never if turn is None else turn for turn in self.out_turn]
        ranks = []
        for mine in out:  # loops, not generators: this runs at the end of every game
            rank = 1
            for other in out:
                if other > mine:
                    rank += 1
            ranks.append(rank)
        return tuple(ranks)

