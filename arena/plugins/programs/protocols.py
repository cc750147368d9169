"""The line protocols a bot program speaks: ``arena-json`` (every game) and ``aic2010`` (AI Challenge 2010 Tron).

A protocol turns the arena's side of a game into lines for the program (the start, each turn, the end)
and the program's answer line into an action; an answer it cannot read raises
:class:`arena.core.failure.BotFailure` of kind ``illegal``. A protocol whose program answers in several lines
(UCI's ``info`` lines before ``bestmove``) returns :data:`PENDING` until the line that settles the answer.
The ``uci`` protocol (chess engines) is in :mod:`arena.plugins.programs.uci`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from arena.core.errors import ArenaError
from arena.core.failure import BotFailure
from arena.core.game import MatchInfo, Result
from arena.plugins.programs.protocol_base import PENDING, Protocol, shown
from arena.plugins.programs.uci import Uci

__all__ = ["PENDING", "PROTOCOLS", "Aic2010", "ArenaJson", "Protocol", "Uci", "protocol_named", "shown"]

JSON_PROTOCOL = "arena-json/1"


class ArenaJson(Protocol):
    """``arena-json/1``: one JSON object per line each way, for every game whose observation has ``to_json``."""

    name = "arena-json"
    says_ready = True

    def start(self, info: MatchInfo) -> bytes | None:
        """``{"type": "start", "game", "seat", "role", "players", "options", "map", "time_limit", "protocol"}``,
        and ``"time_control"`` (``bank``, ``increment``, ``first_move``, ``clock``) when the game has one."""
        message = {"type": "start", "game": info.game, "seat": info.seat, "role": info.role,
                   "players": info.num_seats, "options": dict(info.options), "map": info.map_name,
                   "time_limit": info.time_limit if info.clock.bank is None else info.clock.time_limit,
                   "protocol": JSON_PROTOCOL}
        if not info.clock.control.is_plain:
            message["time_control"] = info.clock.control.as_json()
        return _line(message)

    def ready(self, line: bytes) -> bytes | None:
        """The answer must be ``{"type": "ready"}``."""
        message = _json(line, "its answer to the start message")
        if not isinstance(message, dict) or message.get("type") != "ready":
            raise BotFailure("illegal", f"answered the start message with {shown(line)}, not {{\"type\": \"ready\"}}")
        return None

    def turn(self, obs: Any, turn: int, time_limit: float) -> bytes:
        """``{"type": "turn", "turn", "observation", "legal", "time_left"}``: ``time_left`` is the seconds this
        move may take before the bot loses on time (the time limit, plus whatever is left on its clock)."""
        to_json = getattr(obs, "to_json", None)
        if to_json is None:
            raise ArenaError(f"{type(obs).__name__} has no to_json(): this game cannot be played over arena-json")
        return _line({"type": "turn", "turn": turn, "observation": to_json(), "legal": list(obs.legal_moves()),
                      "time_left": time_limit})

    def action(self, line: bytes, obs: Any) -> Any:
        """The answer must be ``{"action": ...}``."""
        message = _json(line, "its answer")
        if not isinstance(message, dict) or "action" not in message:
            raise BotFailure("illegal", f"answered {shown(line)}, which has no \"action\"")
        return message["action"]

    def end(self, result: Result, seat: int) -> bytes | None:
        """``{"type": "end", "ranks", "reason"}``."""
        return _line({"type": "end", "ranks": list(result.ranks), "reason": result.reason})


_AIC_CELLS = str.maketrans(".xabcdABCD", " #########")


class Aic2010(Protocol):
    """The Google AI Challenge 2010 Tron protocol: the map each turn, a digit back (1 north .. 4 west)."""

    name = "aic2010"
    MOVES: ClassVar[dict[bytes, str]] = {b"1": "N", b"2": "E", b"3": "S", b"4": "W"}

    @classmethod
    def check_game(cls, game: str, options: Mapping[str, str], seats: int) -> None:
        """Only two-player Tron with simultaneous moves and no powerups, as the challenge played it."""
        if game != "tron":
            raise ArenaError(f"the aic2010 protocol plays only tron, not {game}")
        if seats != 2:
            raise ArenaError(f"the aic2010 protocol plays two-player tron, not {seats} players")
        for option, wanted in (("moves", "simultaneous"), ("powerups", "off")):
            if options.get(option, wanted) != wanted:
                raise ArenaError(f"the aic2010 protocol plays tron with {option} = {wanted}, "
                                 f"not {options[option]}")

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.framed: bool | None = None
        """Whether this game's board goes out inside a ring of walls (decided on the first turn)."""

    def turn(self, obs: Any, turn: int, time_limit: float) -> bytes:
        """``W H`` and H rows: ``#`` walls and trails, space empty, ``1`` this bot and ``2`` its opponent.

        The challenge's maps were all walled in, and its starter packages read ``W H`` with a scanf format
        ending in a newline, which also skips the leading spaces of the first row. So a map whose edge is
        not all wall goes out inside a ring of ``#``, two cells wider and higher: the same game, since
        moving off the board crashes as moving into a wall does.
        """
        original = obs.rows()
        if self.framed is None:
            self.framed = not _walled_in(original)
        rows = [row.translate(_AIC_CELLS) for row in original]
        for seat, head in enumerate(obs.heads):
            if head >= 0:
                x, y = obs.xy(head)
                mark = "1" if seat == obs.seat else "2"
                rows[y] = rows[y][:x] + mark + rows[y][x + 1:]
        width, height = obs.width, obs.height
        if self.framed:
            width, height = width + 2, height + 2
            rows = ["#" * width, *(f"#{row}#" for row in rows), "#" * width]
        return (f"{width} {height}\n" + "\n".join(rows) + "\n").encode()

    def action(self, line: bytes, obs: Any) -> Any:
        """The answer must be one digit, ``1`` to ``4``."""
        move = self.MOVES.get(line.strip())
        if move is None:
            raise BotFailure("illegal", f"answered {shown(line)}, not a move 1-4")
        return move


def _walled_in(rows: list[str]) -> bool:
    """Whether every cell on the edge of the board is a wall or a barrier."""
    edge = rows[0] + rows[-1] + "".join(row[0] + row[-1] for row in rows)
    return all(cell in "#x" for cell in edge)


PROTOCOLS: dict[str, type[Protocol]] = {ArenaJson.name: ArenaJson, Aic2010.name: Aic2010, Uci.name: Uci}


def protocol_named(name: str) -> type[Protocol]:
    """The protocol called ``name``, or a one-line error naming the known ones."""
    if name not in PROTOCOLS:
        raise ArenaError(f"unknown protocol {name!r}; known: {', '.join(PROTOCOLS)}")
    return PROTOCOLS[name]


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def _json(line: bytes, what: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise BotFailure("illegal", f"answered {shown(line)}, which is not JSON") from None
