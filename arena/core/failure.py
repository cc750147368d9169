"""How a bot can fail in a game, and the one description of a failure the referee, storage and reports share."""

from __future__ import annotations

from dataclasses import dataclass

FAILURE_KINDS = ("timeout", "crash", "illegal", "memory")


@dataclass(frozen=True)
class Failure:
    """A bot's failure in a game: its ``kind`` (one of :data:`FAILURE_KINDS`) and what happened, in words."""

    kind: str
    detail: str
