"""Exact cat-and-mouse play by retrograde analysis, with the solution cached on disk.

For every position (cat cell, mouse cell, side to move) the solver finds how many moves (of both players)
the cat needs to force a catch when both play perfectly: the cat minimises it, the mouse maximises it.
Positions where the cat can never force a catch get :data:`NEVER`.

That one table decides every variant of the game. With a move limit the cat wins exactly when it can
force a catch before the mouse has made its last move; with the repetition rule the cat wins exactly when
it can force a catch at all, because perfect play then never repeats a position (the number of moves
left drops with every move). A mouse that plays perfectly just maximises the number, a cat minimises it.

Solutions are cached under ``$ARENA_CACHE/catmouse`` (default ``~/.cache/arena/catmouse``), keyed by the
board's size and obstacles.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.games.catmouse.rules import CAT, MOVES, Layout

NEVER = np.int32(1 << 30)
"""The number of moves to a catch the cat cannot force."""

CACHE_VARIABLE = "ARENA_CACHE"
_SOLUTIONS: dict[str, Solution] = {}


@dataclass(frozen=True)
class Solution:
    """Moves to a forced catch, indexed ``[cat cell, mouse cell]``, for each side to move."""

    key: str
    cat_to_move: np.ndarray
    mouse_to_move: np.ndarray

    def moves_to_catch(self, cat: int, mouse: int, to_move: int) -> int | None:
        """How many moves (of both players) the cat needs to force a catch, or ``None`` if it cannot."""
        table = self.cat_to_move if to_move == CAT else self.mouse_to_move
        value = int(table[cat, mouse])
        return None if value >= NEVER else value


def solve(layout: Layout) -> Solution:
    """Solve a board by value iteration over all positions (vectorised; a 10x10 board takes milliseconds)."""
    cells = layout.cells
    targets = np.array(layout.targets, dtype=np.int64)
    rows = np.arange(cells)
    cat_to_move = np.full((cells, cells), NEVER, dtype=np.int32)
    mouse_to_move = np.full((cells, cells), NEVER, dtype=np.int32)
    np.fill_diagonal(cat_to_move, 0)
    np.fill_diagonal(mouse_to_move, 0)
    off_diagonal = ~np.eye(cells, dtype=bool)
    while True:
        best_cat = np.full((cells, cells), NEVER, dtype=np.int32)
        best_mouse = np.full((cells, cells), -1, dtype=np.int32)
        for k in range(len(MOVES)):
            target = targets[:, k]
            valid = target >= 0
            safe = np.where(valid, target, 0)
            # The cat moves from row c to target[c]: catching the mouse there costs nothing more.
            after_cat = np.where(valid[:, None], mouse_to_move[safe, :], NEVER)
            after_cat[rows[valid], target[valid]] = 0
            np.minimum(best_cat, after_cat, out=best_cat)
            # The mouse moves from column m to target[m]: onto the cat is a catch.
            after_mouse = np.where(valid[None, :], cat_to_move[:, safe], -1)
            after_mouse[target[valid], rows[valid]] = 0
            np.maximum(best_mouse, after_mouse, out=best_mouse)
        new_cat = np.where(best_cat >= NEVER, NEVER, best_cat + 1).astype(np.int32)
        new_mouse = np.where((best_mouse >= NEVER) | (best_mouse < 0), NEVER, best_mouse + 1).astype(np.int32)
        new_cat[~off_diagonal] = 0
        new_mouse[~off_diagonal] = 0
        if np.array_equal(new_cat, cat_to_move) and np.array_equal(new_mouse, mouse_to_move):
            return Solution(layout.key(), cat_to_move, mouse_to_move)
        cat_to_move, mouse_to_move = new_cat, new_mouse


def cache_dir() -> Path:
    """Where solutions are cached: ``$ARENA_CACHE/catmouse``, else ``$XDG_CACHE_HOME/arena/catmouse``."""
    base = os.environ.get(CACHE_VARIABLE)
    if base:
        return Path(base) / "catmouse"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "arena" / "catmouse"


def _cache_file(key: str) -> Path:
    return cache_dir() / f"solution-{hashlib.sha256(key.encode()).hexdigest()[:20]}.npz"


def cached_solution(layout: Layout) -> Solution:
    """The solution of ``layout``: from memory, else from the disk cache, else solved and cached."""
    key = layout.key()
    if key in _SOLUTIONS:
        return _SOLUTIONS[key]
    path = _cache_file(key)
    solution = _read(path, key)
    if solution is None:
        solution = solve(layout)
        _write(path, solution)
    _SOLUTIONS[key] = solution
    return solution


def _read(path: Path, key: str) -> Solution | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["key"]) != key:
                return None
            return Solution(key, data["cat_to_move"], data["mouse_to_move"])
    except (OSError, KeyError, ValueError, EOFError):
        return None


def _write(path: Path, solution: Solution) -> None:
    """Write atomically (a temporary file renamed into place); an unwritable cache is skipped silently."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            np.savez(file, key=np.array(solution.key), cat_to_move=solution.cat_to_move,
                     mouse_to_move=solution.mouse_to_move)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, path)
    except OSError:
        return


def clear_memory() -> None:
    """Forget the solutions held in memory (the disk cache stays)."""
    _SOLUTIONS.clear()


def perfect_moves(solution: Solution, layout: Layout, cat: int, mouse: int, side: int) -> list[str]:
    """The best moves for ``side``: the fastest forced catch for the cat, the longest escape for the mouse.

    Among equally good moves the cat prefers the ones nearest the mouse and the mouse the ones farthest
    from the cat (Euclidean distance), so perfect play also presses or avoids an imperfect opponent.
    """
    width = layout.width

    def gap(a: int, b: int) -> int:
        return (a % width - b % width) ** 2 + (a // width - b // width) ** 2

    scored = []
    if side == CAT:
        for move, target in layout.moves_from[cat]:
            moves_left = 0 if target == mouse else int(solution.mouse_to_move[target, mouse])
            scored.append(((moves_left, gap(target, mouse)), move))
        best = min(score for score, _ in scored)
    else:
        for move, target in layout.moves_from[mouse]:
            moves_left = 0 if target == cat else int(solution.cat_to_move[cat, target])
            scored.append(((moves_left, gap(target, cat)), move))
        best = max(score for score, _ in scored)
    return [move for score, move in scored if score == best]


def start_result(layout: Layout, first: int, move_limit: int | None) -> tuple[str, int | None]:
    """The winner from the start with perfect play, and the moves to the catch (``None`` if none comes)."""
    plies = cached_solution(layout).moves_to_catch(layout.cat_start, layout.mouse_start, first)
    if plies is None:
        return "mouse", None
    before = (plies - 1) // 2 if first == CAT else plies // 2
    return ("cat", plies) if move_limit is None or before < move_limit else ("mouse", plies)
