"""Brown CSCI 1410 powerups on the Tron board (``powerups = on``).

Map characters: ``*`` trap, ``!`` bomb, ``@`` armor, ``^`` speed, and ``?``, which setup replaces by one
of those four drawn from the game's numpy generator (row by row, after the starts are drawn). A
powerup lies on an empty cell; it is not part of ``cells`` (a powerup cell reads as ``EMPTY``, so it is
free to enter), it lives in a parallel grid. The player who moves onto one uses it up at once:

* trap: up to 3 barriers (``BARRIER``) go on cells drawn at random from the free cells (empty, no
  powerup) of the ring of the 5x5 square around each living opponent's head (the 16 cells at
  distance exactly 2); fewer if fewer are free;
* bomb: every ``x`` barrier (a trail, or a trap's barrier) in the 9x9 square around the mover
  disappears; ``#`` walls, heads and powerups stay;
* armor: the player holds armor (holding two is holding one). Its next move into an ``x`` barrier,
  not a ``#`` wall and not a head, is survived and uses the armor up;
* speed: from its next turn the player moves 5 times in a row before anyone else moves again (the
  move order is the game's business: see :class:`arena.games.tron.game.TronGame`).

Pick-ups happen after the turn's crashes, in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np

from arena.games.tron.rules import BARRIER, EMPTY, SAME_CELL, TRAIL, TronBoard

TRAP, BOMB, ARMOR, SPEED = 1, 2, 3, 4
KINDS = {"*": TRAP, "!": BOMB, "@": ARMOR, "^": SPEED}
NAMES = ("", "trap", "bomb", "armor", "speed")
SYMBOLS = ("", "*", "!", "@", "^")
"""The map character of each powerup kind, by kind (0: none), as boards are drawn."""
RANDOM = "?"
TRAP_BARRIERS = 3
TRAP_RING = 2  # the ring of the 5x5 square: cells at distance exactly 2
BOMB_RADIUS = 4  # the 9x9 square
SPEED_MOVES = 5


@lru_cache(maxsize=256)
def powerup_grid(rows: tuple[str, ...]) -> tuple[bytes, tuple[int, ...]]:
    """The powerup kind per padded-grid cell (0 none) for a map's rows, and the cells of its ``?``."""
    stride = len(rows[0]) + 2
    items = bytearray(stride * (len(rows) + 2))
    random_cells = []
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            index = (y + 1) * stride + x + 1
            if char in KINDS:
                items[index] = KINDS[char]
            elif char == RANDOM:
                random_cells.append(index)
    return bytes(items), tuple(random_cells)


class PowerupBoard(TronBoard):
    """A Tron board with powerups: ``items`` (a kind per cell, 0 none), armor and waiting speed per seat."""

    __slots__ = ("items", "armor", "speed", "rng", "placed")

    def __init__(self, rows: Sequence[str], starts: Sequence[tuple[int, int]], rng: np.random.Generator):
        super().__init__(rows, starts)
        self.rng = rng
        fixed, random_cells = powerup_grid(tuple(rows))
        items = bytearray(fixed)
        for index in random_cells:
            items[index] = 1 + int(rng.integers(4))
        self.items = items
        self.armor = [False] * len(starts)
        self.speed = [False] * len(starts)
        # The (index, name) of every powerup, row by row; observations share it.
        self.placed = tuple((index, NAMES[kind]) for index, kind in enumerate(items) if kind)

    def _enters(self, seat: int, value: int, target: int, heads: Sequence[int]) -> bool:
        """Whether ``seat`` survives entering ``target`` (holding ``value``): empty, or an ``x`` it has armor for."""
        return value == EMPTY or (value >= TRAIL and self.armor[seat] and target not in heads)

    def move_simultaneous(self, actions: Mapping[int, str]) -> None:
        """Every living seat moves at once, as on a plain board; armor and pick-ups apply.

        Players entering one cell all crash, even into an ``x`` one of them has armor for.
        """
        cells, heads, deltas = self.cells, self.heads, self.deltas
        targets = {seat: heads[seat] + deltas[action] for seat, action in actions.items()}
        crashes: list[tuple[int, str]] = []
        survivors = []
        collisions: dict[int, list[int]] = {}
        for seat, target in sorted(targets.items()):
            value = cells[target]
            sharing = [other for other, cell in targets.items() if cell == target]
            if len(sharing) > 1 and any(self._enters(other, value, target, heads) for other in sharing):
                crashes.append((seat, SAME_CELL))  # armor gets one player into an x, never two
                collisions.setdefault(target, []).append(seat)
            elif not self._enters(seat, value, target, heads):
                crashes.append((seat, self.describe(seat, target, heads)))
            else:
                survivors.append(seat)
        self.last_collisions = list(collisions.values())
        for seat in survivors:
            target = targets[seat]
            if cells[target] != EMPTY:
                self.armor[seat] = False
            heads[seat] = target
            cells[target] = TRAIL + seat
        self._eliminate(crashes)
        for seat in survivors:
            if self.items[targets[seat]]:
                self.pick_up(seat, targets[seat])

    def move_alternating(self, seat: int, action: str) -> None:
        """One seat moves; it survives an empty cell, or an ``x`` barrier if it holds armor."""
        cells, heads = self.cells, self.heads
        target = heads[seat] + self.deltas[action]
        value = cells[target]
        self.last_collisions = []
        if value != EMPTY:
            if value < TRAIL or not self.armor[seat] or target in heads:
                self._eliminate([(seat, self.describe(seat, target, heads))])
                return
            self.armor[seat] = False  # armor carried it through an x barrier
        heads[seat] = target
        cells[target] = TRAIL + seat
        self._eliminate([])
        if self.items[target]:
            self.pick_up(seat, target)

    def pick_up(self, seat: int, cell: int) -> None:
        """``seat`` has moved onto the powerup at ``cell``: use it up and apply its effect."""
        kind = self.items[cell]
        self.items[cell] = 0
        self.placed = tuple(item for item in self.placed if item[0] != cell)
        if kind == TRAP:
            for other, head in enumerate(self.heads):
                if other != seat and self.alive[other]:
                    self.trap(head)
        elif kind == BOMB:
            self.bomb(cell)
        elif kind == ARMOR:
            self.armor[seat] = True
        elif kind == SPEED:
            self.speed[seat] = True

    def _square(self, centre: int, radius: int, ring_only: bool) -> list[int]:
        """The on-board cells of the square of ``radius`` around ``centre`` (just its ring), row by row."""
        cx, cy = self.xy(centre)
        found = []
        for y in range(max(cy - radius, 0), min(cy + radius, self.height - 1) + 1):
            for x in range(max(cx - radius, 0), min(cx + radius, self.width - 1) + 1):
                if not ring_only or max(abs(x - cx), abs(y - cy)) == radius:
                    found.append(self.index(x, y))
        return found

    def trap(self, head: int) -> None:
        """Put up to 3 barriers on random free cells of the 5x5 ring around ``head``."""
        free = [cell for cell in self._square(head, TRAP_RING, True)
                if self.cells[cell] == EMPTY and not self.items[cell]]
        count = min(TRAP_BARRIERS, len(free))
        if count:
            for pick in self.rng.choice(len(free), size=count, replace=False):
                self.cells[free[int(pick)]] = BARRIER

    def bomb(self, centre: int) -> None:
        """Clear every ``x`` barrier (trail or trap barrier, not a head) in the 9x9 square around ``centre``."""
        heads = self.heads
        for cell in self._square(centre, BOMB_RADIUS, False):
            if self.cells[cell] >= TRAIL and cell not in heads:
                self.cells[cell] = EMPTY
