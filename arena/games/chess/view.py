"""How the replay viewer draws a chess position (:class:`arena.core.view.BoardView`): an 8x8 board of light and
dark squares named a-h and 8-1 (white at the bottom), each piece as its Unicode glyph in its side's ink, the
squares of the last move marked, and each move in SAN with the mover's evaluation from white's side
(``+0.35``, ``#3``), as a chess GUI lists them."""

from __future__ import annotations

from collections.abc import Sequence

import chess

from arena.core.game import Result
from arena.core.view import BoardView, CellStyle, Piece
from arena.games.chess.adjudication import Score
from arena.games.chess.observation import COLORS

GLYPHS = {chess.KING: "♚", chess.QUEEN: "♛", chess.ROOK: "♜", chess.BISHOP: "♝", chess.KNIGHT: "♞", chess.PAWN: "♟"}
"""The solid glyph of each piece type: both sides draw it, white's in white ink and black's in black."""
STYLES = {".": CellStyle("#f0d9b5"), ":": CellStyle("#b58863"),
          "l": CellStyle("#cdd26a", name="last move"), "d": CellStyle("#aaa23a", name="last move")}
"""Light and dark squares, and the same with the last move's from and to squares marked."""
LABELS = ("abcdefgh", "87654321")


def evaluation_text(score: Score, mover: chess.Color) -> str:
    """An evaluation from white's side: ``+0.35`` (pawns), ``#3`` (white mates in 3), ``#-2`` (black does)."""
    value = score.value if mover == chess.WHITE else -score.value
    return f"#{value}" if score.kind == "mate" else f"{value / 100:+.2f}"


def board_view(board: chess.Board, san: Sequence[str], scores: Sequence[Score | None], book: int,
               result: Result | None) -> BoardView:
    """The position ``board`` after the moves ``san`` (the first ``book`` of them book moves) as the viewer
    draws it, the last move with its evaluation (``scores`` holds one per move a bot played)."""
    last = board.move_stack[-1] if board.move_stack else None
    marked = {last.from_square, last.to_square} if last is not None and len(san) > book else set()
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            square = chess.square(file, rank)
            light = (file + rank) % 2 == 1
            row += ("l" if light else "d") if square in marked else ("." if light else ":")
        rows.append(row)
    pieces = [Piece(chess.square_file(square), 7 - chess.square_rank(square), 0 if piece.color else 1,
                    GLYPHS[piece.piece_type]) for square, piece in sorted(board.piece_map().items())]
    move_text = ""
    if len(san) > book:
        mover = not board.turn
        number = board.fullmove_number - (1 if mover == chess.BLACK else 0)
        move_text = f"{number}{'.' if mover == chess.WHITE else '...'} {san[-1]}"
        score = scores[-1] if scores else None
        if score is not None:
            move_text += f" {evaluation_text(score, mover)}"
    if result is not None:
        status = result.reason
    else:
        status = f"{COLORS[0 if board.turn else 1]} to move" + (", in check" if board.is_check() else "")
        if book and len(san) == book:
            status += f"; book moves: {' '.join(san[:book])}"
    notes = {} if result is not None else {0 if board.turn else 1: "to move"}
    return BoardView(rows, STYLES, pieces, (), status, notes, move_text, LABELS)
