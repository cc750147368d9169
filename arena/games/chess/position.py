"""Where a chess game starts: a map's position line, parsed and checked.

A chess map's body is one line in the words of UCI's ``position`` command: ``startpos`` or ``fen FEN`` (a bare
FEN is read as one too), optionally followed by ``moves`` and moves in UCI notation (``e2e4 e7e5``), played
before the bots' first move (an opening's book moves). A game without a map starts from the standard position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from arena.core.maps import GameMap

if TYPE_CHECKING:
    import chess

# python-chess is imported where a position is read, not with this module: registering the game (every command
# that loads the arena's games) then costs no import of it
STANDARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
OPENINGS_FORMATS = ("epd", "pgn")
"""The files of openings (start positions) a chess tournament reads (:mod:`~arena.games.chess.openings`)."""


@dataclass(frozen=True)
class StartPosition:
    """The FEN a game starts from and the book moves played from it before the bots move."""

    fen: str
    book: tuple[str, ...] = ()

    def board(self) -> chess.Board:
        """The board after the book moves, its move stack holding them (so repetitions count from the FEN)."""
        import chess

        board = chess.Board(self.fen)
        for move in self.book:
            board.push(chess.Move.from_uci(move))
        return board


def parse_position(text: str) -> StartPosition:
    """Read ``startpos [moves ...]`` or ``[fen] FEN [moves ...]``; raise ``ValueError`` naming what is wrong."""
    import chess

    words = text.split()
    if not words:
        raise ValueError("no position: expected 'startpos' or 'fen FEN', optionally followed by 'moves ...'")
    head, _, tail = " ".join(words).partition(" moves")
    if tail and not tail.startswith(" "):
        raise ValueError(f"{text.strip()!r} is not a position")
    head_words = head.split()
    if head_words == ["startpos"]:
        fen = STANDARD_FEN
    else:
        fen = " ".join(head_words[1:] if head_words[0] == "fen" else head_words)
        try:
            board = chess.Board(fen)
        except ValueError as exc:
            raise ValueError(f"bad FEN {fen!r}: {exc}") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            raise ValueError(f"FEN {fen!r} is not a legal position ({_status_text(status)})")
        fen = board.fen()
    board = chess.Board(fen)
    book = tuple(tail.split())
    if "moves" in head_words or (not book and tail):
        raise ValueError("'moves' must be followed by moves in UCI notation, e.g. 'moves e2e4 e7e5'")
    for move_text in book:
        try:
            move = chess.Move.from_uci(move_text)
        except ValueError:
            raise ValueError(f"{move_text!r} is not a move in UCI notation (e.g. e2e4, e7e8q)") from None
        if move not in board.legal_moves:
            raise ValueError(f"{move_text} is not a legal move in {board.fen()}")
        board.push(move)
    return StartPosition(fen, book)


def position_of(game_map: GameMap | None) -> StartPosition:
    """The start position a chess map gives (the standard one without a map), or a ``MapError`` at its line."""
    if game_map is None:
        return StartPosition(STANDARD_FEN)
    try:
        return parse_position(" ".join(game_map.rows))
    except ValueError as exc:
        raise game_map.error(str(exc)) from None


def _status_text(status: chess.Status) -> str:
    import chess

    names = [flag.name.lower().replace("_", " ") for flag in chess.Status if flag and flag in status and flag.name]
    return ", ".join(names) or "invalid"
