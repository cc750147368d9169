"""What of a bot's failure each reader of the league may see.

Everyone sees a failure's kind and a short reason (``raised KeyError on move 3``, ``ran out of time on move
5``). The rest is its team's and the organiser's: the traceback (it quotes the bot's source lines), what the bot
wrote to stderr, and the words of its exception and its reason (a message can quote anything, and a crash's
site names the file and line it ran from). A record shown to someone else is rewritten to leave them out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from arena.core.failure import Failure
from arena.league.models import GameInfo, Organiser, Seat, Team
from arena.play.referee import failure_reason

KIND_WORDS = {"crash": "crashed", "timeout": "ran out of time", "illegal": "made an illegal move",
              "memory": "ran out of memory"}
"""A failure's kind in words, for a reason that says no more."""

_RAISED = re.compile(r"raised ([A-Za-z_][A-Za-z0-9_.]{0,79})((?: in [a-z_]{1,20}\(\))?(?: on move \d{1,9})?)(?::|$)")
_WHERE = re.compile(r" (on move \d{1,9}|in (?:prepare|start)\(\))")


def short_failure(kind: str, detail: str = "") -> str:
    """The reason of a failure that anyone may read: its kind in words, where in the game it happened, and for
    a crash the exception's type; nothing else of ``detail`` (the exception's message, the file and line)."""
    raised = _RAISED.match(detail)
    if kind == "crash" and raised:
        return f"raised {raised[1]}{raised[2]}"
    where = _WHERE.search(detail)
    return KIND_WORDS.get(kind, "failed") + (f" {where[1]}" if where else "")


def visible_seats(who: Team | Organiser | None, seats: Sequence[Seat]) -> frozenset[int]:
    """The seats of a game whose failures ``who`` may read in full: the organiser all, a team its own bots'."""
    if isinstance(who, Organiser):
        return frozenset(range(len(seats)))
    if isinstance(who, Team):
        return frozenset(index for index, seat in enumerate(seats) if seat.team == who.name)
    return frozenset()


def listed_reason(info: GameInfo) -> str:
    """A game's reason as lists show it to everyone: each failed bot's kind of failure, in words."""
    failed = {index: Failure(seat.failure, KIND_WORDS.get(seat.failure, "failed"))
              for index, seat in enumerate(info.seats) if seat.failure}
    return failure_reason(failed, [seat.label for seat in info.seats]) if failed else info.reason


def record_for(record: dict[str, Any], visible: frozenset[int], organiser: bool = False) -> dict[str, Any]:
    """``record`` as a reader who may see the failures of the ``visible`` seats in full reads it: another seat's
    failure keeps its kind and short reason, without traceback or stderr; the hooks' errors are the
    ``organiser``'s."""
    entries = [entry for entry in record.get("failures", []) if isinstance(entry, dict)]
    hidden = [entry for entry in entries if _seat(entry) not in visible]
    stderr = record.get("stderr")
    if not hidden and (organiser or "hook_errors" not in record) and (
            not isinstance(stderr, dict) or all(_int(seat) in visible for seat in stderr)):
        return record
    shown = dict(record)
    shown["failures"] = [entry if _seat(entry) in visible else _short_entry(entry) for entry in entries]
    if isinstance(stderr, dict):
        kept = {seat: text for seat, text in stderr.items() if _int(seat) in visible}
        if kept:
            shown["stderr"] = kept
        else:
            shown.pop("stderr")
    if not organiser:
        shown.pop("hook_errors", None)
    if hidden and isinstance(record.get("result"), dict):
        shown["result"] = {**record["result"], "reason": _reason(record, entries, visible)}
    return shown


def _reason(record: dict[str, Any], entries: list[dict[str, Any]], visible: frozenset[int]) -> str:
    labels: dict[int, str] = {}
    for index, player in enumerate(record.get("players", [])):
        if isinstance(player, dict):
            labels[_int(player.get("seat", index))] = str(player.get("bot", "?"))
    failed = {}
    for entry in entries:
        kind, detail = str(entry.get("kind", "")), str(entry.get("detail", ""))
        seat = _seat(entry)
        failed[seat] = Failure(kind, detail if seat in visible else short_failure(kind, detail))
    width = max([*labels, *failed], default=-1) + 1
    return failure_reason(failed, [labels.get(seat, "?") for seat in range(width)])


def _short_entry(entry: dict[str, Any]) -> dict[str, Any]:
    kind = str(entry.get("kind", ""))
    return {"seat": entry.get("seat"), "kind": kind, "detail": short_failure(kind, str(entry.get("detail", "")))}


def _seat(entry: dict[str, Any]) -> int:
    return _int(entry.get("seat", -1))


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1
