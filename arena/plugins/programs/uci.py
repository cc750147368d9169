"""``uci``: the Universal Chess Interface, so any chess engine plays as it is (``protocol=uci``).

The start: ``uci``, then the engine's ``id``/``option`` lines up to ``uciok``; a ``setoption name NAME value
VALUE`` line for each option of the bot (``option.Hash=16`` in an ``exec`` spec), ``ucinewgame`` and
``isready``, and the engine's ``readyok``. Each move: ``position startpos|fen FEN moves ...`` (the whole game
from its start position, so the engine sees repetitions) and ``go``:

- under a time control (``--time-control 10+0.1``): ``go wtime W btime B winc I binc I``, from both sides'
  clocks in milliseconds, as the referee keeps them;
- with a per-move limit alone (``--time-limit``): ``go movetime M``, the limit less a small margin
  (:data:`MOVETIME_MARGIN`), so the answer arrives within it.

The engine's ``info`` lines are read until ``bestmove``; the last ``score cp N`` or ``score mate N`` goes with
the move (``e2e4 cp 35``), which is what score-based adjudication reads. A ``bestmove`` that is not a legal
move (or ``0000``, ``(none)``, nothing) loses the game as an illegal answer; any other line is ignored, as the
UCI specification says, though a program that never answers is reported with the last such line. At the end
the engine gets ``quit``, and is killed if it has not exited within a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from arena.core.errors import ArenaError
from arena.core.failure import BotFailure
from arena.core.game import MatchInfo, Result
from arena.plugins.programs.protocol_base import PENDING, Protocol, shown

MOVETIME_MARGIN = 0.1
"""The share of a per-move limit held back from ``go movetime`` (at most :data:`MOVETIME_MARGIN_CAP` seconds)."""
MOVETIME_MARGIN_CAP = 0.05


def check_option(name: str, value: str) -> None:
    """Refuse an engine option that cannot be sent on one ``setoption`` line (``ValueError``)."""
    if not name.strip() or name != name.strip() or " value " in f" {name} " or name.startswith("name "):
        raise ValueError(f"option.{name}: an engine option needs a name, without spaces at its ends or the "
                         "word 'value'")
    for text in (name, value):
        if any(char in text for char in "\r\n\x00"):
            raise ValueError(f"option.{name}: a name or value cannot hold a line break")


class Uci(Protocol):
    """The UCI protocol of chess engines, for a game whose observations give ``uci_position()``."""

    name = "uci"
    says_ready = True
    speaks_unasked = True
    takes_options = True
    SIDES: ClassVar[tuple[str, str]] = ("w", "b")

    @classmethod
    def check_game(cls, game: str, options: Mapping[str, str], seats: int) -> None:
        """Two players only (white and black)."""
        if seats != 2:
            raise ArenaError(f"the uci protocol plays two-player games, not {seats} players")

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.info: MatchInfo | None = None
        self.stage = "uci"
        self.score = ""
        """The last ``score`` of this move's ``info`` lines, as ``cp N`` or ``mate N``."""
        self.ignored = b""
        """The last line of this move that was neither ``info`` nor ``bestmove``."""

    def start(self, info: MatchInfo) -> bytes | None:
        """``uci``."""
        self.info = info
        return b"uci\n"

    def ready(self, line: bytes) -> bytes | None:
        """Wait for ``uciok``, then set the options and wait for ``readyok``."""
        word = line.split(maxsplit=1)[0] if line.strip() else b""
        if self.stage == "uci" and word == b"uciok":
            self.stage = "isready"
            options = "".join(f"setoption name {name} value {value}\n" for name, value in self.options.items())
            return (options + "ucinewgame\nisready\n").encode()
        if self.stage == "isready" and word == b"readyok":
            self.stage = "playing"
            return None
        return b""  # id, option, a banner: nothing to answer

    def turn(self, obs: Any, turn: int, time_limit: float) -> bytes:
        """``position ...`` and ``go ...``."""
        position = getattr(obs, "uci_position", None)
        if position is None:
            raise ArenaError(f"{type(obs).__name__} has no uci_position(): this game cannot be played over uci")
        self.score, self.ignored = "", b""
        return f"position {position()}\ngo {self.go(time_limit)}\n".encode()

    def go(self, time_limit: float) -> str:
        """The arguments of ``go``: ``movetime`` under a per-move limit alone, else both clocks."""
        info = self.info
        assert info is not None
        clock = info.clock
        if clock.fixed:
            margin = min(time_limit * MOVETIME_MARGIN, MOVETIME_MARGIN_CAP)
            return f"movetime {max(1, round((time_limit - margin) * 1000))}"
        clocks = info.clocks if len(info.clocks) == 2 else (clock, clock)
        left = [clock.time_left() if seat == info.seat else clocks[seat].next_allowance() for seat in (0, 1)]
        increment = round(clock.increment * 1000)
        return (f"wtime {max(1, round(left[0] * 1000))} btime {max(1, round(left[1] * 1000))} "
                f"winc {increment} binc {increment}")

    def action(self, line: bytes, obs: Any) -> Any:
        """Read ``info`` lines for the score until ``bestmove MOVE``, which must be legal."""
        words = line.decode("utf-8", "replace").split()
        if not words:
            return PENDING
        if words[0] == "info":
            if "score" in words:
                at = words.index("score")
                if at + 2 < len(words) and words[at + 1] in ("cp", "mate") and _integer(words[at + 2]):
                    self.score = f"{words[at + 1]} {int(words[at + 2])}"
            return PENDING
        if words[0] != "bestmove":
            self.ignored = line
            return PENDING
        move = words[1] if len(words) > 1 else ""
        if move not in obs.legal_moves():
            raise BotFailure("illegal", f"answered {shown(line)}: {move or 'no move'} is not a legal move in "
                                        f"{getattr(obs, 'fen', 'this position')}")
        return f"{move} {self.score}" if self.score else move

    def silence_note(self) -> str:
        """The last line the engine wrote that was not ``info`` or ``bestmove``, if any."""
        return f"; its last other line was {shown(self.ignored)}" if self.ignored else ""

    def end(self, result: Result, seat: int) -> bytes | None:
        """``quit``."""
        return b"quit\n"


def _integer(text: str) -> bool:
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isascii() and digits.isdigit() and len(digits) <= 7
