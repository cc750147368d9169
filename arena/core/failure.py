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


class BotFailure(Exception):  # it reports a failure the bot had elsewhere
    """A bot failure seen from outside the bot (its own process died, or answered with an error).

    ``kind`` is one of :data:`FAILURE_KINDS`; the referee appends where in the game it happened
    (`` on move 3``) unless ``where`` says otherwise.
    """

    def __init__(self, kind: str, detail: str, where: str | None = None):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.where = where  # where in the bot it happened, if not in the call that reports it
