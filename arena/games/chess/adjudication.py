"""Chess moves with the engine's evaluation, and adjudication from those evaluations, as cutechess-cli does it.

A bot's action is a move in UCI notation, optionally followed by the evaluation it reported for the move
from its own side: ``e2e4``, ``e2e4 cp 35`` (centipawns) or ``e2e4 mate -3`` (mated in 3). The ``uci``
protocol fills it in from the engine's last ``info ... score``; a Python bot may add one too. Keeping the
evaluation in the action keeps it in the game record, so a replay adjudicates exactly as the game did.

Draw adjudication (``draw_movenumber``, ``draw_movecount``, ``draw_score``): once the game has
``draw_movenumber`` full moves and both sides' evaluations have stayed within ``draw_score`` centipawns of 0
for the last ``draw_movecount`` moves each, the game is a draw. Resign adjudication (``resign_movecount``,
``resign_score``): a side whose evaluation has been ``-resign_score`` centipawns or worse for
``resign_movecount`` consecutive moves of its own loses. A move without an evaluation starts the draw count
and its side's resign count again. A count of 0 turns the rule off. These are cutechess-cli's ``-draw
movenumber=N movecount=N score=N`` and ``-resign movecount=N score=N``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

MATE = 100_000
"""The centipawn value of a mate score: mate in n counts as ``MATE - n`` (mated in n as ``-(MATE - n)``)."""
_KINDS = ("cp", "mate")


@dataclass(frozen=True)
class Score:
    """An evaluation from the mover's side: ``kind`` ``cp`` (centipawns) or ``mate`` (moves to mate, negative
    when being mated)."""

    kind: str
    value: int

    @property
    def centipawns(self) -> int:
        """The evaluation as centipawns, a mate counting as :data:`MATE` less its distance."""
        if self.kind == "cp":
            return self.value
        return MATE - abs(self.value) if self.value > 0 else -(MATE - abs(self.value))

    def as_json(self) -> dict[str, int]:
        """``{"cp": 35}`` or ``{"mate": -3}``."""
        return {self.kind: self.value}


def split_action(action: object) -> tuple[str, Score | None] | None:
    """The move and the evaluation in an action, or ``None`` if it is not ``MOVE [cp|mate N]``."""
    if not isinstance(action, str):
        return None
    words = action.split(" ")
    if len(words) == 1:
        return words[0], None
    if len(words) != 3 or words[1] not in _KINDS:
        return None
    number = words[2]
    digits = number[1:] if number[:1] == "-" else number
    if not digits.isascii() or not digits.isdigit() or len(digits) > 7:
        return None
    return words[0], Score(words[1], int(number))


@dataclass
class Adjudication:
    """The score-based rules of one game and the counts they keep."""

    draw_movenumber: int = 0
    draw_movecount: int = 0
    draw_score: int = 0
    resign_movecount: int = 0
    resign_score: int = 0
    draw_count: int = 0
    """Consecutive plies (of either side) with an evaluation within ``draw_score``."""
    resign_counts: list[int] = field(default_factory=lambda: [0, 0])
    """Per side (0 white, 1 black): its consecutive moves evaluated at ``-resign_score`` or worse."""

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> Adjudication:
        """The rules the game's resolved options set."""
        return cls(int(options["draw_movenumber"]), int(options["draw_movecount"]), int(options["draw_score"]),
                   int(options["resign_movecount"]), int(options["resign_score"]))

    def after_move(self, side: int, plies: int, score: Score | None) -> str | None:
        """Count a move of ``side`` that made the game ``plies`` plies long (book moves included); ``"draw"``
        or ``"resign"`` when a rule ends the game, else ``None``. As cutechess-cli counts: a move without an
        evaluation (a Python bot's, say) starts the draw count and its side's resign count again."""
        if score is None:
            self.draw_count = 0
            self.resign_counts[side] = 0
            return None
        centipawns = score.centipawns
        if self.draw_movecount:
            self.draw_count = self.draw_count + 1 if abs(centipawns) <= self.draw_score else 0
            if plies // 2 >= self.draw_movenumber and self.draw_count >= 2 * self.draw_movecount:
                return "draw"
        if self.resign_movecount:
            self.resign_counts[side] = self.resign_counts[side] + 1 if centipawns <= -self.resign_score else 0
            if self.resign_counts[side] >= self.resign_movecount:
                return "resign"
        return None
