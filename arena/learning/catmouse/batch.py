"""Many cat-and-mouse games at once with numpy: the same games as :mod:`.plain`, played in lockstep.

Every game of a batch starts from the same position, so all of them have made the same number of moves
at every step; finished games are dropped from the working arrays as they end. Controllers are those of
:mod:`.plain`; a window controller carries one policy per group of games, ``("window", array[groups, 729])``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.games.catmouse.rules import CAT, MOUSE
from arena.learning.catmouse.training_rules import Rules


def play_full_batch(rules: Rules, cat_next: np.ndarray, mouse_next: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``B`` games of full policies; ``cat_next[b]`` and ``mouse_next[b]`` are game ``b``'s next-cell tables.

    Returns ``(winner, moves, distance)`` arrays, as :func:`.plain.play_full` returns for one game.
    """
    layout = rules.layout
    cells, width = layout.cells, layout.width
    games = cat_next.shape[0]
    winner = np.zeros(games, dtype=np.int8)
    plies = np.zeros(games, dtype=np.int32)
    distance = np.zeros(games, dtype=np.int32)
    ids = np.arange(games)
    cat = np.full(games, layout.cat_start, dtype=np.int64)
    mouse = np.full(games, layout.mouse_start, dtype=np.int64)
    side = rules.first
    visited = None
    if rules.repeat:
        visited = np.zeros((games, 2 * cells * cells), dtype=bool)
        visited[ids, (cat * cells + mouse) * 2 + side] = True
    ply = mouse_moves = 0
    limit = rules.move_limit if rules.move_limit is not None else -1
    while ids.size:
        entry = cat * cells + mouse
        if side == CAT:
            cat = cat_next[ids, entry].astype(np.int64)
        else:
            mouse = mouse_next[ids, entry].astype(np.int64)
            mouse_moves += 1
        ply += 1
        side = 1 - side
        caught = cat == mouse
        gap = np.abs(cat % width - mouse % width) + np.abs(cat // width - mouse // width)
        if mouse_moves == limit:
            escaped = ~caught
        elif visited is not None:
            position = (cat * cells + mouse) * 2 + side
            escaped = visited[ids, position] & ~caught
            visited[ids, position] = True
        else:
            escaped = np.zeros_like(caught)
        done = caught | escaped
        if done.any():
            finished = ids[done]
            winner[finished] = np.where(caught[done], CAT, MOUSE)
            plies[finished] = ply
            distance[finished] = gap[done]
            keep = ~done
            ids, cat, mouse = ids[keep], cat[keep], mouse[keep]
    return winner, plies, distance


def play_window_batch(rules: Rules, cat: Any, mouse: Any, u: np.ndarray, groups: int = 1
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``groups`` x ``len(u)`` games: game ``g`` uses the random numbers ``u[g % len(u)]`` and, for a
    window controller, the policy of group ``g // len(u)``.

    Returns ``(caught, moves, distance_sum)`` arrays, as :func:`.plain.play_window` returns for one game.
    """
    layout = rules.layout
    cells = layout.cells
    per_group = u.shape[0]
    total_games = groups * per_group
    caught_out = np.zeros(total_games, dtype=bool)
    plies_out = np.zeros(total_games, dtype=np.int32)
    distance_out = np.zeros(total_games, dtype=np.float64)
    ids = np.arange(total_games)
    cat_cell = np.full(total_games, layout.cat_start, dtype=np.int64)
    mouse_cell = np.full(total_games, layout.mouse_start, dtype=np.int64)
    total = np.zeros(total_games, dtype=np.float64)
    side = rules.first
    visited = None
    if rules.repeat:
        visited = np.zeros((total_games, 2 * cells * cells), dtype=bool)
        visited[ids, (cat_cell * cells + mouse_cell) * 2 + side] = True
    ply = mouse_moves = 0
    limit = rules.move_limit if rules.move_limit is not None else -1
    xs, ys, targets = rules.xs, rules.ys, rules.targets
    while ids.size:
        draws = u[ids % per_group, ply]
        if side == CAT:
            move = _choose(rules, cat, CAT, cat_cell, mouse_cell, draws, ids // per_group)
            cat_cell = targets[cat_cell, move]
        else:
            move = _choose(rules, mouse, MOUSE, mouse_cell, cat_cell, draws, ids // per_group)
            mouse_cell = targets[mouse_cell, move]
            mouse_moves += 1
        ply += 1
        side = 1 - side
        caught = cat_cell == mouse_cell
        dx = xs[cat_cell] - xs[mouse_cell]
        dy = ys[cat_cell] - ys[mouse_cell]
        total += np.sqrt(dx * dx + dy * dy)
        if mouse_moves == limit:
            escaped = ~caught
        elif visited is not None:
            position = (cat_cell * cells + mouse_cell) * 2 + side
            escaped = visited[ids, position] & ~caught
            visited[ids, position] = True
        else:
            escaped = None
        done = caught if escaped is None else caught | escaped
        if done.any():
            finished = ids[done]
            caught_out[finished] = caught[done]
            plies_out[finished] = ply
            distance_out[finished] = total[done]
            keep = ~done
            ids, cat_cell, mouse_cell, total = ids[keep], cat_cell[keep], mouse_cell[keep], total[keep]
    return caught_out, plies_out, distance_out


def _choose(rules: Rules, controller: Any, role: int, here: np.ndarray, other: np.ndarray, draws: np.ndarray,
            group: np.ndarray) -> np.ndarray:
    """The move index (0-3) each game's controller picks for the player on ``here``."""
    xs, ys, targets = rules.xs, rules.ys, rules.targets
    options = targets[here]
    valid = options >= 0
    safe = np.where(valid, options, 0)
    tx, ty = xs[safe], ys[safe]
    ox, oy = xs[other][:, None], ys[other][:, None]
    if isinstance(controller, tuple):
        gap = ((tx - ox) ** 2 + (ty - oy) ** 2).astype(np.float64)
        move: np.ndarray
        if role == CAT:
            move = np.argmin(np.where(valid, gap, np.inf), axis=1)
        else:
            move = np.argmax(np.where(valid, gap, -np.inf), axis=1)
        width, height = rules.layout.width, rules.layout.height
        if width < 3 or height < 3:
            return move
        hx, hy, px, py = xs[here], ys[here], xs[other], ys[other]
        near = (np.abs(hx - px) <= 2) & (np.abs(hy - py) <= 2)
        if near.any():
            hx, hy, px, py = hx[near], hy[near], px[near], py[near]
            sx = np.minimum(np.minimum(hx, px), width - 3)
            sy = np.minimum(np.minimum(hy, py), height - 3)
            h_edge = np.where(sx == 0, 1, np.where(sx == width - 3, 2, 0))
            v_edge = np.where(sy == 0, 1, np.where(sy == height - 3, 2, 0))
            (cx, cy), (mx, my) = ((hx, hy), (px, py)) if role == CAT else ((px, py), (hx, hy))
            entry = (((((cx - sx) * 3 + (cy - sy)) * 3 + (mx - sx)) * 3 + (my - sy)) * 3 + h_edge) * 3 + v_edge
            wanted = controller[1][group[near], entry].astype(np.int64)
            allowed = options[near, wanted] >= 0
            rows = np.flatnonzero(near)[allowed]
            move[rows] = wanted[allowed]
        return move
    if controller == "random":
        mask = valid
    elif controller == "wary":
        gap = np.abs(tx - ox) + np.abs(ty - oy)
        tier = np.where(valid, np.where(gap == 0, 2, np.where(gap == 1, 1, 0)), 3)
        mask = tier == tier.min(axis=1, keepdims=True)
    elif controller == "greedy":
        gap = np.where(valid, (tx - ox) ** 2 + (ty - oy) ** 2, np.iinfo(np.int64).max)
        mask = gap == gap.min(axis=1, keepdims=True)
    else:
        raise ValueError(f"unknown controller {controller!r}")
    count = mask.sum(axis=1)
    pick = (draws * count).astype(np.int64)
    rank = np.cumsum(mask, axis=1) - 1
    picked: np.ndarray = np.argmax(mask & (rank == pick[:, None]), axis=1)
    return picked
