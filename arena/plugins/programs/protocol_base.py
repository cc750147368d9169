"""What every line protocol is: :class:`Protocol`, the base the protocols of
:mod:`arena.plugins.programs.protocols` and :mod:`arena.plugins.programs.uci` implement."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from arena.core.game import MatchInfo, Result


class _Pending:
    def __repr__(self) -> str:
        return "PENDING"


PENDING: Any = _Pending()
"""What :meth:`Protocol.action` returns for a line that does not settle the answer yet: read another."""


def shown(line: bytes) -> str:
    """A line a program wrote, as a report quotes it (cut at 60 characters)."""
    text = line.decode("utf-8", "replace")
    return repr(text if len(text) <= 60 else text[:57] + "...")


class Protocol:
    """How the arena and a program talk; subclasses set ``name`` and implement the messages."""

    name: ClassVar[str] = ""
    says_ready: ClassVar[bool] = False
    """Whether the program must answer the start message with a ready line."""
    speaks_unasked: ClassVar[bool] = False
    """Whether the program may write lines between its answers (read and judged with the next answer), rather
    than such output being illegal."""
    takes_options: ClassVar[bool] = False
    """Whether the program can be given options (``option.NAME=VALUE`` in an ``exec`` spec)."""

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options: dict[str, str] = dict(options or {})
        """The program's options, as its bot spec or manifest gives them."""

    @classmethod
    def check_game(cls, game: str, options: Mapping[str, str], seats: int) -> None:
        """Refuse a game the protocol cannot express, with a one-line :class:`ArenaError` (default: accept)."""

    def start(self, info: MatchInfo) -> bytes | None:
        """The line that opens a game, or ``None`` to send nothing."""
        return None

    def ready(self, line: bytes) -> bytes | None:
        """Check a line of the program's answer to the start line: ``None`` when it completes the start, else
        the bytes to send before the next line is read (empty to send nothing)."""
        return None

    def turn(self, obs: Any, turn: int, time_limit: float) -> bytes:
        """The text of one turn's observation."""
        raise NotImplementedError

    def action(self, line: bytes, obs: Any) -> Any:
        """The action in the program's answer line (:data:`PENDING`: the answer goes on in the next line)."""
        raise NotImplementedError

    def silence_note(self) -> str:
        """What to add to the report of a program that did not answer in time (e.g. the last line it wrote)."""
        return ""

    def end(self, result: Result, seat: int) -> bytes | None:
        """The line that closes a game, or ``None`` to send nothing."""
        return None
