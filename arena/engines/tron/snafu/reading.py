"""Readings of what Cloppert (2007) leaves open: switches of the CLA, each with the paper's literal reading first.

* ``perception``: ``edges`` (P measures the cells to the board's edge, as the paper writes it) or ``trails``
  (P measures the free cells before the first wall, trail or head, so it sees trails);
* ``round``: ``raw`` (R is the round number, not normalised, as the paper writes it) or ``scaled`` (R divided by
  the board's cells, so that it lies in [0, 1] like the other features and no longer dominates the cosine);
* ``dictation``: ``any`` (the table's decision is played whatever it leads to) or ``safe`` (a decision onto an
  occupied cell or off the board is not played: the automaton plays as the opponent then);
* ``walls``: ``half-planes`` (W is the occupied share of the half-planes ahead, left and right) or ``rays`` (the
  occupied share of the straight lines of cells from the head to the edge ahead, left and right);
* ``growth``: ``every-round`` (every round's state enters the table and is rewarded) or ``turns`` (only the
  rounds where the cell straight ahead is occupied, where the opponent's rule has to choose, enter the table
  and are rewarded; the table is still consulted every round), or ``matched`` (a round's reward goes to the
  entry its state matched, the most similar one if that similarity is at least ``c``, and only a state that
  matched none becomes a new entry);
* ``credit``: ``game`` (every recorded move gets the game's reward) or ``last`` (only the last
  :data:`LAST_MOVES` recorded moves do: those that led into the end).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from arena.core.errors import ArenaError

LAST_MOVES = 10
"""How many of the last recorded moves of a game ``credit=last`` rewards."""

CHOICES: dict[str, tuple[str, ...]] = {
    "perception": ("edges", "trails"),
    "round": ("raw", "scaled"),
    "dictation": ("any", "safe"),
    "walls": ("half-planes", "rays"),
    "growth": ("every-round", "turns", "matched"),
    "credit": ("game", "last"),
}
"""Each switch's values, the paper's literal reading first."""


@dataclass(frozen=True)
class Reading:
    """One value per switch of :data:`CHOICES`; the defaults are the paper's literal reading."""

    perception: str = "edges"
    round: str = "raw"
    dictation: str = "any"
    walls: str = "half-planes"
    growth: str = "every-round"
    credit: str = "game"

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ArenaError(f"{name} {value!r} is not one of: {', '.join(allowed)}")

    def codes(self) -> np.ndarray:
        """Each switch as the index of its value (0 the paper's literal reading), in :data:`CHOICES` order, for
        compiled code."""
        return np.array([CHOICES[name].index(getattr(self, name)) for name in CHOICES], dtype=np.int64)

    def settings(self) -> dict[str, str]:
        """The switches as JSON-ready settings."""
        return {name: getattr(self, name) for name in CHOICES}

    @property
    def changes(self) -> dict[str, str]:
        """The switches that differ from the paper's literal reading."""
        return {name: value for name, value in self.settings().items() if value != CHOICES[name][0]}

    @property
    def label(self) -> str:
        """``paper`` or the changed switches, such as ``dictation=safe,round=scaled``."""
        return ",".join(f"{name}={value}" for name, value in self.changes.items()) or "paper"

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Reading:
        """The reading in ``settings`` (missing switches take the paper's reading)."""
        return cls(**{item.name: str(settings.get(item.name, item.default)) for item in fields(cls)})


def rewarded_rounds(kept: np.ndarray, credit: str) -> np.ndarray:
    """The rounds, in order, whose (state, decision) a game's reward goes to: those that enter the table (``kept``
    not -2, see ``growth``), or with credit ``last`` only the last :data:`LAST_MOVES` of them."""
    rows = np.flatnonzero(np.asarray(kept) != -2)
    return rows[-LAST_MOVES:] if credit == "last" else rows


PAPER = Reading()
"""The paper's literal reading."""

# Positions of the switches in :meth:`Reading.codes`.
PERCEPTION, ROUND, DICTATION, WALLS, GROWTH, CREDIT = range(len(CHOICES))
