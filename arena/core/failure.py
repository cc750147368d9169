"""How a bot can fail in a game, and the one description of a failure the referee, storage and reports share."""

from __future__ import annotations

from dataclasses import dataclass

FAILURE_KINDS = ("timeout", "crash", "illegal", "memory")


@dataclass(frozen=True)
class Failure:
    """A bot's failure in a game: its ``kind`` (one of :data:`FAILURE_KINDS`), what happened in words, and
    for a crash the last lines of the bot's own code the exception passed through (``""`` if none)."""

    kind: str
    detail: str
    traceback: str = ""
