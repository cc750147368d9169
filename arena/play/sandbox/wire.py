"""The line protocol between the referee and a Python bot's runner inside the sandbox.

It is ``arena-json``'s shape (one JSON object a line, a ready answer to the start, ``{"action": ...}`` a
turn), with the arena's own objects (the match info with the bot's seeded rng, the observation, the result)
pickled inside the referee's lines, so the bot sees exactly what it would see in process. Only the referee's
lines carry pickles: everything the bot sends back is plain JSON, read as untrusted text.
"""

from __future__ import annotations

import json
from typing import Any

from arena.core.clock import Clock
from arena.core.failure import BotFailure
from arena.core.game import MatchInfo, Result
from arena.play.bot_traceback import Crash
from arena.play.limits import RemoteCrash
from arena.play.sandbox.wire_format import line, pack
from arena.plugins.programs.protocols import Protocol

TEXT_CAP = 4000
"""The longest text of a crash report kept from a bot (message, site, traceback)."""
FAILURE_KINDS = ("memory", "illegal")


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else ""
    return text if len(text) <= TEXT_CAP else text[:TEXT_CAP] + "..."


def _read(line_: bytes, what: str) -> dict[str, Any]:
    try:
        message = json.loads(line_)
    except (ValueError, UnicodeDecodeError):
        message = None
    if not isinstance(message, dict):
        shown = line_[:60].decode("utf-8", "replace")
        raise BotFailure("illegal", f"answered {shown!r} to {what}, which is not the runner's JSON")
    if message.get("type") == "crash":
        crash = message.get("crash") if isinstance(message.get("crash"), dict) else {}
        assert isinstance(crash, dict)
        where = message.get("where")
        raise RemoteCrash(Crash(_text(crash.get("exception")) or "Exception", _text(crash.get("message")),
                                _text(crash.get("site")), _text(crash.get("traceback"))),
                          _text(where) if isinstance(where, str) else None)
    if message.get("type") == "failure":
        kind = message.get("kind")
        raise BotFailure(kind if kind in FAILURE_KINDS else "crash", _text(message.get("detail")))
    return message


def _tupled(value: Any) -> Any:
    """JSON has no tuples: an action that was a tuple comes back a list, and is made a tuple again."""
    if isinstance(value, list):
        return tuple(_tupled(item) for item in value)
    return value


class RunnerProtocol(Protocol):
    """The referee's side of the runner's protocol."""

    name = "arena-python"
    says_ready = True
    clock: Clock | None = None
    """The referee's clock of this bot: each turn carries its state, so the bot's copy follows it."""

    def start(self, info: MatchInfo) -> bytes | None:
        """The start line, carrying the match info (and the bot's seeded rng, and a copy of its clock)."""
        self.clock = info.clock
        return line({"type": "start", "info": pack(info)})

    def ready(self, line_: bytes) -> None:
        """The runner answers ``{"type": "ready"}``, or reports the crash of the bot's start."""
        if _read(line_, "the start message").get("type") != "ready":
            raise BotFailure("illegal", "answered the start message without saying ready")

    def turn(self, obs: Any, turn: int, time_limit: float) -> bytes:
        """One turn, carrying the observation object and the clock's state (bank and moves made), as the referee
        has it when the move starts."""
        state = None if self.clock is None else list(self.clock.state())
        return line({"type": "turn", "turn": turn, "obs": pack(obs), "clock": state})

    def action(self, line_: bytes, obs: Any) -> Any:
        """The bot's action, or its crash."""
        message = _read(line_, "a turn")
        if "action" not in message:
            raise BotFailure("illegal", "answered a turn without an action")
        return _tupled(message["action"])

    def end(self, result: Result, seat: int) -> bytes | None:
        """The end line, carrying the result."""
        return line({"type": "end", "result": pack(result)})
