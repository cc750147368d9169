"""The failures of a run or a game, bot by bot: how many of each kind, and the first one in full.

Read from game records, so a run shows the same section after it is played, in ``arena report`` and in
the HTML report: the first failure's reason (the exception, the bot's file and line, or the move and
the time taken) and, for a crash, the last lines of the bot's own code the exception passed through.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arena.core.failure import FAILURE_KINDS


@dataclass(frozen=True)
class FirstFailure:
    """The first failure of a bot: the game it was in (its index in the run), its kind and words."""

    game: int
    kind: str
    detail: str
    traceback: str = ""


@dataclass
class BotFailures:
    """One bot's failures: a count per kind and the first of them."""

    label: str
    counts: Counter[str] = field(default_factory=Counter)
    first: FirstFailure | None = None

    @property
    def total(self) -> int:
        """How many games the bot lost by failing."""
        return sum(self.counts.values())

    def counts_text(self) -> str:
        """``2 crash, 1 timeout``, in the order of :data:`FAILURE_KINDS`."""
        return ", ".join(f"{self.counts[kind]} {kind}" for kind in FAILURE_KINDS if self.counts[kind])


def failures_by_bot(games: Iterable[tuple[int, dict[str, Any]]]) -> list[BotFailures]:
    """Each bot that failed in ``games`` (``(game index, record)`` in play order), most failures first."""
    bots: dict[str, BotFailures] = {}
    for index, record in games:
        labels = {player["seat"]: player["bot"] for player in record.get("players", [])}
        for failure in record.get("failures", []):
            label = labels.get(failure["seat"], f"seat {failure['seat']}")
            entry = bots.setdefault(label, BotFailures(label))
            entry.counts[failure.get("kind", "crash")] += 1
            if entry.first is None:
                entry.first = FirstFailure(index, failure.get("kind", "crash"), failure.get("detail", ""),
                                           failure.get("traceback", ""))
    return sorted(bots.values(), key=lambda entry: (-entry.total, entry.label))


def failures_from_summaries(rows: Iterable[tuple[str, str, int, int, str, str]]) -> list[BotFailures]:
    """:func:`failures_by_bot` from a run's summaries: ``(label, kind, count, first game, detail, traceback)``
    per bot and kind (see :func:`arena.storage.summary_queries.failure_summaries`)."""
    bots: dict[str, BotFailures] = {}
    firsts: dict[str, FirstFailure] = {}
    for label, kind, count, game, detail, traceback in rows:
        entry = bots.setdefault(label, BotFailures(label))
        entry.counts[kind] += count
        if label not in firsts or game < firsts[label].game:
            firsts[label] = FirstFailure(game, kind, detail, traceback)
    for label, entry in bots.items():
        entry.first = firsts[label]
    return sorted(bots.values(), key=lambda entry: (-entry.total, entry.label))


def failure_lines(failures: list[BotFailures], *, game_word: str = "game") -> list[str]:
    """The section as plain lines: per bot its counts and first failure, then its traceback, indented."""
    if not failures:
        return []
    lines = ["Failures"]
    for entry in failures:
        first = entry.first
        assert first is not None
        lines.append(f"  {entry.label}: {entry.counts_text()}; first in {game_word} {first.game}: {first.detail}")
        lines.extend(f"      {line}" for line in first.traceback.splitlines())
    return lines


def failure_records(failures: list[BotFailures]) -> list[dict[str, Any]]:
    """The section as JSON-ready objects."""
    return [{"bot": entry.label, "counts": {kind: entry.counts[kind] for kind in FAILURE_KINDS if entry.counts[kind]},
             "first": {"game": entry.first.game, "kind": entry.first.kind, "detail": entry.first.detail,
                       "traceback": entry.first.traceback} if entry.first else None}
            for entry in failures]
