"""Each bot's time use, from game records: moves, mean and longest move, and the clock it had left at the end.

A record tells how long each seat thought in all (``think_time``), its longest move (``max_think_time``) and,
under a time bank, the bank left after each move (``clocks``); older records without the last two give the
mean alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class TimeUse:
    """One bot's (or seat's) time use over one or more games."""

    label: str
    games: int = 0
    moves: int = 0
    total: float = 0.0
    longest: float | None = None
    clock_left: float = 0.0
    """The bank left at the end of its games, added up (divide by :attr:`clocked` for the mean)."""
    clocked: int = 0
    """Games with a bank."""

    def mean(self) -> float:
        """Seconds a move on average."""
        return self.total / self.moves if self.moves else 0.0

    def text(self) -> str:
        """``12 moves, mean 0.250 s, max 0.300 s a move, 1.499 s left on its clock``."""
        parts = [f"{self.moves} moves", f"mean {self.mean():.3f} s"]
        if self.longest is not None:
            parts.append(f"max {self.longest:.3f} s a move")
        if self.clocked:
            left = self.clock_left / self.clocked
            parts.append(f"{left:.3f} s left on its clock" + (" on average" if self.clocked > 1 else ""))
        return ", ".join(parts)

    def add(self, record: dict[str, Any], seat: int) -> None:
        """Count ``seat``'s time in one game ``record``."""
        key = str(seat)
        think = record.get("think_time") or []
        longest = record.get("max_think_time") or []
        self.games += 1
        self.moves += sum(1 for turn in record.get("turns", []) if key in turn)
        self.total += think[seat] if seat < len(think) else 0.0
        if seat < len(longest):
            self.longest = max(self.longest or 0.0, longest[seat])
        if record.get("clocks") is not None:
            left = next((turn[key] for turn in reversed(record["clocks"]) if key in turn), None)
            if left is None:
                left = float((record.get("time_control") or {}).get("bank") or 0.0)
            self.clock_left += left
            self.clocked += 1


def timed_run(definition: dict[str, Any]) -> bool:
    """Whether a stored run's definition has a time control or clock beyond the plain per-move limit."""
    return bool(definition.get("time_control") or definition.get("first_move")
                or (definition.get("clock") or "wall") != "wall")


def seat_time_use(record: dict[str, Any], names: Sequence[str]) -> list[TimeUse]:
    """Each seat's time use in one game, named ``names[seat]``."""
    uses = []
    for seat, name in enumerate(names):
        use = TimeUse(name)
        use.add(record, seat)
        uses.append(use)
    return uses


def time_use_lines(record: dict[str, Any], names: Sequence[str]) -> list[str]:
    """``Time use:`` and one line per seat of one game."""
    return ["Time use:", *(f"  {use.label}: {use.text()}" for use in seat_time_use(record, names))]


def time_use_by_bot(records: Iterable[dict[str, Any]]) -> list[TimeUse]:
    """Each bot's time use over ``records``, by its label, in the order the bots first appear."""
    bots: dict[str, TimeUse] = {}
    for record in records:
        for player in record.get("players", []):
            label = player["bot"]
            bots.setdefault(label, TimeUse(label)).add(record, player["seat"])
    return list(bots.values())


def time_use_table(uses: Sequence[TimeUse], blank: Any = None) -> tuple[list[str], list[list[Any]]]:
    """Headers and rows of a time-use table (seconds); ``blank`` where a figure is unknown (no bank, an older
    record)."""
    headers = ["bot", "moves", "mean s/move", "max s/move", "clock left s"]
    rows = [[use.label, use.moves, round(use.mean(), 4), blank if use.longest is None else round(use.longest, 4),
             round(use.clock_left / use.clocked, 3) if use.clocked else blank] for use in uses]
    return headers, rows
