"""The CLA's state-transition table (the paper's STM), its selection rule and its update rule.

An entry is a state vector with an integer score for each decision, in the paper's order: straight, right,
left (:data:`ACTIONS`). Selection: the entry of highest cosine similarity to the current state (the earliest
entry on a tie) is a match when that similarity is at least ``c``; its best decision is played when it beats
both others by more than ``t``; otherwise the automaton plays as the pseudo-random opponent (:data:`NO_MATCH`).
Update: after a game, each (state, decision) played adds the game's reward to that decision's score in the
entry of exactly that state, created if missing. A zero vector has similarity 0 to everything.

Entries keep their unit vectors, so the similarity is one dot product per entry, compiled with numba; and
since only a decisive entry (one whose best decision beats the others by more than ``t``) can dictate a
decision, a round looks for the most similar decisive entry first and checks the rest only as far as needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from arena.core.errors import ArenaError
from arena.core.json_files import read_json_file, write_json_atomically

ACTIONS = ("straight", "right", "left")
NO_MATCH = -1
TABLE_FORMAT = "arena-snafu-cla-table/1"

Vectors = npt.NDArray[np.float64]
"""A state vector, its unit vector, or the table's rows of them."""
Scores = npt.NDArray[np.int64]
"""An entry's score of each decision, the table's rows of them, or a list of entries."""


@njit(cache=True)
def unit_vector(vector: Vectors, out: Vectors) -> None:
    """Write ``vector / |vector|`` into ``out`` (zeros for a zero vector)."""
    total = 0.0
    for value in vector:
        total += value * value
    norm = np.sqrt(total)
    for i in range(vector.shape[0]):
        out[i] = vector[i] / norm if norm > 0 else 0.0


@njit(cache=True)
def _similarity(units: Vectors, entry: int, unit: Vectors) -> float:
    total = 0.0
    for i in range(unit.shape[0]):
        total += units[entry, i] * unit[i]
    return total


@njit(cache=True)
def decision(scores: Scores, similarity: float, c: float, t: float) -> int:
    """The decision an entry with ``scores`` at ``similarity`` dictates under ``c`` and ``t``, else -1."""
    if similarity < c:
        return -1
    for action in range(3):
        if scores[action] - scores[(action + 1) % 3] > t and scores[action] - scores[(action + 2) % 3] > t:
            return action
    return -1


@njit(cache=True)
def decisive_entries(scores: Scores, size: int, t: float) -> Scores:
    """The entries, in order, whose best decision beats both others by more than ``t``: the only entries
    whose match dictates a decision."""
    found = np.empty(size, dtype=np.int64)
    count = 0
    for entry in range(size):
        if decision(scores[entry], 1.0, 0.0, t) >= 0:
            found[count] = entry
            count += 1
    return found[:count]


@njit(cache=True)
def is_beaten(units: Vectors, size: int, unit: Vectors, entry: int, similarity: float) -> bool:
    """Whether another of the ``size`` entries comes before ``entry`` (of ``similarity`` to ``unit``) under the
    rule: more similar, or as similar and earlier. It stops at the first such entry."""
    for other in range(size):
        found = _similarity(units, other, unit)
        if found > similarity or (found == similarity and other < entry):
            return True
    return False


@njit(cache=True)
def most_similar(units: Vectors, size: int, state: Vectors, unit_buffer: Vectors, c: float) -> int:
    """The entry most similar to ``state`` (the earliest on a tie) if that similarity is at least ``c``, else
    -1."""
    unit_vector(state, unit_buffer)
    best, best_similarity = -1, -np.inf
    for entry in range(size):
        similarity = _similarity(units, entry, unit_buffer)
        if similarity > best_similarity:
            best, best_similarity = entry, similarity
    return best if best >= 0 and best_similarity >= c else -1


@njit(cache=True)
def select(units: Vectors, scores: Scores, size: int, decisive: Scores, state: Vectors, unit_buffer: Vectors, c: float,
           t: float) -> int:
    """The decision the table dictates for ``state`` (see the module's rule), or -1 to play as the opponent;
    ``decisive`` is the table's :func:`decisive_entries` under ``t``.

    The rule's answer is a decision only when the most similar entry is decisive, so the most similar
    decisive entry is found first, and decides unless it is below ``c`` or some entry comes before it (a
    scan that stops at the first one). Tables hold few decisive entries (none at all for a while, when
    ``t`` is high), so most rounds need no scan, or stop early. The answer is exactly the rule's: the
    decision of the first entry of highest similarity, if that is at least ``c``.
    """
    if decisive.shape[0] == 0:
        return -1
    unit_vector(state, unit_buffer)
    best, best_similarity = -1, -np.inf
    for entry in decisive:
        similarity = _similarity(units, entry, unit_buffer)
        if similarity > best_similarity:
            best, best_similarity = entry, similarity
    if best_similarity < c or is_beaten(units, size, unit_buffer, best, best_similarity):
        return -1
    return decision(scores[best], best_similarity, c, t)


class Table:
    """A growing table of (state vector, scores for straight, right and left)."""

    def __init__(self, dim: int, capacity: int = 1024):
        self.dim = dim
        self.states = np.zeros((capacity, dim))
        self.units = np.zeros((capacity, dim))
        self.scores = np.zeros((capacity, 3), dtype=np.int64)
        self.size = 0
        self._rows: dict[bytes, int] = {}
        self._unit = np.zeros(dim)

    def __len__(self) -> int:
        return self.size

    def row(self, state: np.ndarray) -> int:
        """The entry of exactly ``state``, created (with zero scores) if missing."""
        key = np.ascontiguousarray(state, dtype=np.float64).tobytes()
        row = self._rows.get(key)
        if row is None:
            row = self.size
            if row == len(self.states):
                self._grow()
            self.states[row] = state
            unit_vector(self.states[row], self.units[row])
            self.size += 1
            self._rows[key] = row
        return row

    def _grow(self) -> None:
        capacity = 2 * len(self.states)
        for name in ("states", "units", "scores"):
            old = getattr(self, name)
            new = np.zeros((capacity, old.shape[1]), dtype=old.dtype)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)

    def update(self, states: np.ndarray, actions: np.ndarray, reward: int,
               entries: np.ndarray | None = None) -> None:
        """Add ``reward`` to the score of ``actions[i]`` in the entry of ``states[i]``, for every ``i``; where
        ``entries[i]`` is an entry (not negative), in that entry instead."""
        for i, (state, action) in enumerate(zip(states, actions, strict=True)):
            entry = -1 if entries is None else int(entries[i])
            row = entry if entry >= 0 else self.row(state)  # first: it may grow (replace) the score array
            self.scores[row, int(action)] += reward

    def choose(self, state: np.ndarray, c: float, t: float) -> int:
        """The decision (an index into :data:`ACTIONS`) the table dictates for ``state``, or :data:`NO_MATCH`."""
        return int(select(self.units, self.scores, self.size, decisive_entries(self.scores, self.size, float(t)),
                          np.asarray(state, dtype=np.float64), self._unit, float(c), float(t)))

    def copy(self) -> Table:
        """An independent copy."""
        other = Table(self.dim, max(1024, len(self.states)))
        other.states[: self.size] = self.states[: self.size]
        other.units[: self.size] = self.units[: self.size]
        other.scores[: self.size] = self.scores[: self.size]
        other.size = self.size
        other._rows = dict(self._rows)
        return other

    def to_json(self, settings: dict[str, Any]) -> dict[str, Any]:
        """The table as a JSON document with the ``settings`` it was made with."""
        return {"format": TABLE_FORMAT, "settings": settings, "dim": self.dim,
                "states": self.states[: self.size].tolist(), "scores": self.scores[: self.size].tolist()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        """The table of a document made by :meth:`to_json`."""
        table = cls(int(data["dim"]))
        for state, scores in zip(data["states"], data["scores"], strict=True):
            row = table.row(np.array(state, dtype=np.float64))
            table.scores[row] = scores
        return table


def save_table(path: Path, table: Table, settings: dict[str, Any]) -> None:
    """Write ``table`` and its ``settings`` to ``path`` (JSON, format :data:`TABLE_FORMAT`), atomically."""
    write_json_atomically(path, table.to_json(settings))


def load_table(path: str | Path) -> tuple[Table, dict[str, Any]]:
    """The table and settings in ``path``, or an :class:`ArenaError` naming what is wrong."""
    data = read_json_file(path, "no such table file", "not a readable table file")
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise ArenaError(f"{path}: not a Snafu CLA table (format {TABLE_FORMAT})")
    try:
        return Table.from_json(data), dict(data.get("settings", {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise ArenaError(f"{path}: a damaged Snafu CLA table ({exc})") from None
