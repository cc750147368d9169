"""The rules a training run plays by, and the tables the engines share."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from arena.core.errors import ArenaError
from arena.games.catmouse.rules import CAT, Layout

SCRIPTED_BOTS_BY_ROLE = {"cat": ("greedy", "random"), "mouse": ("random", "wary")}
"""The scripted opponents a window policy can train against, by the role they play."""


@dataclass(frozen=True)
class Rules:
    """Board, first mover, the mouse's move limit (``None``: none) and the repetition rule."""

    layout: Layout
    first: int = CAT
    move_limit: int | None = None
    repeat: bool = True
    targets: np.ndarray = field(init=False, repr=False, compare=False)
    xs: np.ndarray = field(init=False, repr=False, compare=False)
    ys: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.move_limit is None and not self.repeat:
            raise ArenaError("a game needs a move limit, the repetition rule, or both")
        cells = np.arange(self.layout.cells)
        object.__setattr__(self, "targets", np.array(self.layout.targets, dtype=np.int64))
        object.__setattr__(self, "xs", cells % self.layout.width)
        object.__setattr__(self, "ys", cells // self.layout.width)

    @property
    def max_plies(self) -> int:
        """An upper bound on the length of a game (in moves of both players)."""
        bounds = []
        if self.move_limit is not None:
            bounds.append(2 * self.move_limit)
        if self.repeat:
            bounds.append(2 * self.layout.cells ** 2 + 1)
        return min(bounds)

    def describe(self) -> str:
        """The rules in a few words, for progress lines and policy files."""
        layout = self.layout
        ending = []
        if self.move_limit is not None:
            ending.append(f"mouse survives {self.move_limit} moves")
        if self.repeat:
            ending.append("repetition")
        first = "cat" if self.first == CAT else "mouse"
        return f"{layout.height}x{layout.width} board, {first} first, mouse wins by {' or '.join(ending)}"
