"""Where Tron players start: on the map's ``1``..``4``, or on random point-mirrored cells.

``starts = map`` (default): seat k starts on the map's ``k + 1``.

``starts = mirrored`` (Brown CSCI 1410): the map's digits are ignored (they only say how many seats
there are). Seat 0 goes on a cell drawn uniformly from the candidates, seat 1 on its point mirror
``(width - 1 - x, height - 1 - y)``. A candidate is an empty cell (``.``, space or a digit, not a wall or a
powerup) whose mirror is also empty and is not the cell itself, so the centre of an odd-sized map is
never a start. With four seats, seats 2 and 3 are a second mirrored pair drawn the same way from the
cells not yet taken; a third seat of three gets a random free candidate cell. Every draw comes from the
game's numpy generator, in seat order.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from arena.core.errors import ArenaError
from arena.core.maps import GameMap

POWERUP_CHARS = "*!@^?"
"""Powerup cells: trap, bomb, armor, speed, and a random one of those four."""

CELL_CHARS = frozenset("#. 1234" + POWERUP_CHARS)
_OPEN = frozenset(". 1234")
_KNOWN = "'#', ' ' or '.', starts '1'-'4', and powerups '*', '!', '@', '^', '?'"


_VALID_STARTS: dict[tuple[str, ...], tuple[tuple[int, int], ...]] = {}
"""The starts of maps already checked, by their rows: a tournament sets up thousands of games on a few maps."""


def map_starts(game_map: GameMap) -> list[tuple[int, int]]:
    """The ``(x, y)`` of starts ``1``..``k``; raises :class:`MapError` for unknown characters or bad starts."""
    known = _VALID_STARTS.get(game_map.rows)
    if known is not None:
        return list(known)
    found: dict[int, tuple[int, int]] = {}
    for x, y, char in game_map.cells():
        if char not in CELL_CHARS:
            raise game_map.error(f"unknown character {char!r} (tron maps use {_KNOWN})", x, y)
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
    starts = [found[p] for p in range(1, count + 1)]
    if len(_VALID_STARTS) >= 256:
        _VALID_STARTS.clear()
    _VALID_STARTS[tuple(game_map.rows)] = tuple(starts)
    return starts


@lru_cache(maxsize=256)
def mirror_candidates(rows: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The cells a mirrored start may use, row by row: empty, with an empty mirror that is another cell."""
    width, height = len(rows[0]), len(rows)
    return tuple((x, y) for y, row in enumerate(rows) for x, char in enumerate(row)
                 if char in _OPEN and rows[height - 1 - y][width - 1 - x] in _OPEN
                 and (width - 1 - x, height - 1 - y) != (x, y))


def mirrored_starts(game_map: GameMap, seats: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """Random starts in point-mirrored pairs (see the module docstring), drawn from ``rng``."""
    rows = tuple(game_map.rows)
    candidates = mirror_candidates(rows)
    width, height = len(rows[0]), len(rows)
    starts: list[tuple[int, int]] = []
    while len(starts) < seats:
        pair = seats - len(starts) >= 2
        usable = candidates
        if starts:
            taken = set(starts)
            usable = tuple(cell for cell in candidates if cell not in taken
                           and not (pair and (width - 1 - cell[0], height - 1 - cell[1]) in taken))
        if not usable:
            raise ArenaError(f"{game_map.label}: not enough mirrored pairs of empty cells for {seats} random starts")
        x, y = usable[int(rng.integers(len(usable)))]
        starts.append((x, y))
        if pair:
            starts.append((width - 1 - x, height - 1 - y))
    return starts
