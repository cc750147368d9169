"""One game at a time in plain Python: the reference engines (and the benchmark's baseline).

The numpy engines in :mod:`.batch` must give exactly the same results; the tests hold them to it.

Players are *controllers*:

* ``("window", moves)``: a window policy (729 move indices, see :mod:`arena.engines.catmouse.policies`);
* ``"random"``: a uniformly random legal move;
* ``"wary"`` (mouse): random among the moves not next to the cat, else among those not onto it, else any;
* ``"greedy"`` (cat): random among the legal moves nearest the mouse (Euclidean distance).

Random choices take one number ``u`` in [0, 1) per move, from a row of pre-drawn numbers: the move is
the ``int(u * n)``-th of the ``n`` candidates, in the order U, D, L, R.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from arena.engines.catmouse.policies import window_axis
from arena.games.catmouse.rules import CAT, MOUSE
from arena.learning.catmouse.training_rules import Rules


def play_full(rules: Rules, cat_next: Sequence[int], mouse_next: Sequence[int],
              visits: tuple[list[int], list[int]] | None = None) -> tuple[int, int, int]:
    """Play two full policies given as next-cell tables (entry ``cat * cells + mouse``).

    Returns ``(winner, moves, distance)``: moves of both players, and the Manhattan distance at the end.
    With ``visits``, the entries where the cat and where the mouse were to move are appended to its lists.
    """
    layout = rules.layout
    cells, width = layout.cells, layout.width
    cat, mouse, side = layout.cat_start, layout.mouse_start, rules.first
    limit = rules.move_limit if rules.move_limit is not None else -1
    repeat = rules.repeat
    seen = {(cat * cells + mouse) * 2 + side}
    plies = mouse_moves = 0
    cat_visits, mouse_visits = visits if visits is not None else (None, None)
    while True:
        entry = cat * cells + mouse
        plies += 1
        if side == CAT:
            if cat_visits is not None:
                cat_visits.append(entry)
            cat = cat_next[entry]
        else:
            if mouse_visits is not None:
                mouse_visits.append(entry)
            mouse = mouse_next[entry]
            mouse_moves += 1
        side = 1 - side
        if cat == mouse:
            return CAT, plies, 0
        distance = abs(cat % width - mouse % width) + abs(cat // width - mouse // width)
        if mouse_moves == limit:
            return MOUSE, plies, distance
        if repeat:
            position = (cat * cells + mouse) * 2 + side
            if position in seen:
                return MOUSE, plies, distance
            seen.add(position)


def play_window(rules: Rules, cat: Any, mouse: Any, u: Sequence[float]) -> tuple[bool, int, float]:
    """Play one game between two controllers; ``u`` holds one random number per move.

    Returns ``(caught, moves, distance_sum)``: whether the cat won, the moves of both players, and the
    sum over every move of the Euclidean distance between the players after it.
    """
    layout = rules.layout
    width, height = layout.width, layout.height
    targets = layout.targets
    cat_cell, mouse_cell, side = layout.cat_start, layout.mouse_start, rules.first
    limit = rules.move_limit if rules.move_limit is not None else -1
    seen = {(cat_cell * layout.cells + mouse_cell) * 2 + side} if rules.repeat else None
    plies = mouse_moves = 0
    total = 0.0
    while True:
        if side == CAT:
            cat_cell = targets[cat_cell][_choose(cat, CAT, cat_cell, mouse_cell, width, height, targets, u[plies])]
        else:
            mouse_cell = targets[mouse_cell][_choose(mouse, MOUSE, mouse_cell, cat_cell, width, height, targets,
                                                     u[plies])]
            mouse_moves += 1
        plies += 1
        side = 1 - side
        if cat_cell == mouse_cell:
            return True, plies, total
        dx, dy = cat_cell % width - mouse_cell % width, cat_cell // width - mouse_cell // width
        total += math.sqrt(dx * dx + dy * dy)
        if mouse_moves == limit:
            return False, plies, total
        if seen is not None:
            position = (cat_cell * layout.cells + mouse_cell) * 2 + side
            if position in seen:
                return False, plies, total
            seen.add(position)


def _choose(controller: Any, role: int, here: int, other: int, width: int, height: int,
            targets: Sequence[Sequence[int]], u: float) -> int:
    """The move index (0-3) a controller picks for the player on ``here``."""
    options = targets[here]
    ox, oy = other % width, other // width
    if isinstance(controller, tuple):
        hx, hy = here % width, here // width
        if abs(hx - ox) <= 2 and abs(hy - oy) <= 2 and width >= 3 and height >= 3:
            cat_xy, mouse_xy = ((hx, hy), (ox, oy)) if role == CAT else ((ox, oy), (hx, hy))
            sx, h_edge = window_axis(min(hx, ox), width)
            sy, v_edge = window_axis(min(hy, oy), height)
            entry = (((((cat_xy[0] - sx) * 3 + (cat_xy[1] - sy)) * 3 + (mouse_xy[0] - sx)) * 3
                      + (mouse_xy[1] - sy)) * 3 + h_edge) * 3 + v_edge
            move: int = controller[1][entry]
            if options[move] >= 0:
                return move
        best, best_gap = -1, 0
        for move, target in enumerate(options):
            if target < 0:
                continue
            gap = (target % width - ox) ** 2 + (target // width - oy) ** 2
            if best < 0 or (gap < best_gap if role == CAT else gap > best_gap):
                best, best_gap = move, gap
        return best
    if controller == "random":
        candidates = [move for move, target in enumerate(options) if target >= 0]
    elif controller == "wary":
        tiers: list[list[int]] = [[], [], []]
        for move, target in enumerate(options):
            if target >= 0:
                gap = abs(target % width - ox) + abs(target // width - oy)
                tiers[2 if gap == 0 else 1 if gap == 1 else 0].append(move)
        candidates = next(tier for tier in tiers if tier)
    elif controller == "greedy":
        gaps = {move: (target % width - ox) ** 2 + (target // width - oy) ** 2
                for move, target in enumerate(options) if target >= 0}
        least = min(gaps.values())
        candidates = [move for move, gap in gaps.items() if gap == least]
    else:
        raise ValueError(f"unknown controller {controller!r}")
    return candidates[int(u * len(candidates))]


def play_full_notebook(rules: Rules, cat_next: Sequence[int], mouse_next: Sequence[int],
                       visits: tuple[list[int], list[int]] | None = None) -> tuple[int, int, int]:
    """Play two full policies by the game loop of the article's notebook (for an exact reproduction).

    It differs from the arena's rules in three ways: a repeated pair of cells ends the game whichever side
    is to move; when the cat moves first, the position after its opening move is neither checked nor
    remembered; and the count of moves it returns is the number of full rounds (mouse move then cat move)
    completed before the last one, as the notebook counts them. Same arguments and results as
    :func:`play_full`.
    """
    layout = rules.layout
    cells, width = layout.cells, layout.width
    cat, mouse = layout.cat_start, layout.mouse_start
    seen = {cat * cells + mouse}
    cat_visits, mouse_visits = visits if visits is not None else ([], [])
    if rules.first == CAT:
        cat_visits.append(cat * cells + mouse)
        cat = cat_next[cat * cells + mouse]
    for rounds in range(cells * cells + 1):
        for side in (MOUSE, CAT):
            entry = cat * cells + mouse
            if side == MOUSE:
                mouse_visits.append(entry)
                mouse = mouse_next[entry]
            else:
                cat_visits.append(entry)
                cat = cat_next[entry]
            position = cat * cells + mouse
            if position in seen:
                return MOUSE, rounds, abs(cat % width - mouse % width) + abs(cat // width - mouse // width)
            if cat == mouse:
                return CAT, rounds, 0
            seen.add(position)
    raise AssertionError("a deterministic game on a finite board must repeat a position")
