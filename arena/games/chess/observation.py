"""What a chess bot sees: the position as FEN, how the game got there (start FEN and UCI moves), its legal moves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess

COLORS = ("white", "black")
"""The side each seat plays: seat 0 (player 1) white, seat 1 black."""


@dataclass(frozen=True)
class ChessObservation:
    """The position from one seat's side.

    ``fen`` is the position now; ``start_fen`` the one the game started from and ``moves`` every move since,
    in UCI notation (book moves first), so an engine can be given the whole history (repetitions count);
    ``legal`` the legal moves of the side to move, sorted, when it is this seat's turn (else empty).
    """

    seat: int
    color: str
    fen: str
    start_fen: str
    moves: tuple[str, ...]
    legal: tuple[str, ...]

    def legal_moves(self) -> tuple[str, ...]:
        """Every legal move in UCI notation (``e2e4``, ``e7e8q``, castling as the king's move ``e1g1``)."""
        return self.legal

    def board(self) -> chess.Board:
        """The position as a python-chess board with its move stack (for bots that search)."""
        import chess

        board = chess.Board(self.start_fen)
        for move in self.moves:
            board.push_uci(move)
        return board

    def uci_position(self) -> str:
        """The arguments of UCI's ``position`` command: ``startpos moves ...`` or ``fen FEN moves ...``."""
        from arena.games.chess.position import STANDARD_FEN

        start = "startpos" if self.start_fen == STANDARD_FEN else f"fen {self.start_fen}"
        return f"{start} moves {' '.join(self.moves)}" if self.moves else start

    def to_json(self) -> dict[str, object]:
        """The observation as JSON (the ``arena-json`` protocol): ``color``, ``fen``, ``start_fen``, ``moves``."""
        return {"color": self.color, "fen": self.fen, "start_fen": self.start_fen, "moves": list(self.moves)}
