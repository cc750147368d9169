"""Opening books: EPD and PGN files read into start positions, as cutechess-cli and fastchess read them.

An EPD file holds one position a line (four FEN fields and optional opcodes such as ``id "Ruy Lopez";``; a
full six-field FEN is read too); blank lines and lines starting with ``#`` are skipped. A PGN file holds
games whose main lines are the openings: each starts from the standard position (or its ``FEN`` tag) and its
moves, cut after ``plies`` half-moves when given, are the book moves. Each opening becomes a chess map
(``startpos moves ...`` or ``fen FEN [moves ...]``) named after the file and the line it starts on
(``starters:12``), titled with its EPD ``id`` or its PGN ``Opening``/``Variation`` tags.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TextIO, cast

import chess
import chess.pgn

from arena.core.errors import ArenaError
from arena.core.maps import GameMap, parse_map
from arena.games.chess.position import OPENINGS_FORMATS as FORMATS
from arena.games.chess.position import STANDARD_FEN

MAX_BYTES = 64 * 1024 * 1024
"""The largest openings file read (a large PGN book is a few megabytes)."""


def read_openings(path: Path, plies: int | None = None) -> list[GameMap]:
    """The openings in an EPD or PGN file (by its suffix), in the file's order; errors name the file and line."""
    kind = path.suffix.lower().lstrip(".")
    if kind not in FORMATS:
        raise ArenaError(f"{path}: an openings file is .epd or .pgn, not {path.suffix or 'a file without a suffix'}")
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ArenaError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB; cut it to the openings to play")
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"{path}: cannot read openings file ({getattr(exc, 'strerror', None) or exc})") from None
    openings = _epd(text, path) if kind == "epd" else _pgn(text, path, plies)
    if not openings:
        raise ArenaError(f"{path}:1: holds no openings")
    return openings


def _epd(text: str, path: Path) -> list[GameMap]:
    openings = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as epd_error:
            if len(line.split()) != 6:
                raise ArenaError(f"{path}:{number}: not an EPD position: {epd_error}") from None
            try:
                board, ops = chess.Board(line), {}
            except ValueError as exc:
                raise ArenaError(f"{path}:{number}: not a FEN position: {exc}") from None
        _check_board(board, path, number)
        title = ops.get("id") or ops.get("c0") or ""
        openings.append(_opening(path, number, board.fen(), [], str(title)))
    return openings


class _QuietBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, keeping each error in the game's ``errors`` without logging it."""

    def handle_error(self, error: Exception) -> None:
        """Keep the error for the caller, which reports it in one line."""
        self.game.errors.append(error)


class _LineCounter:
    """A text handle (``readline`` is all PGN reading needs) that counts lines read, and notes the first
    non-blank one since :meth:`next_game`."""

    def __init__(self, text: str):
        self._lines = io.StringIO(text)
        self._line = 0
        self._start: int | None = None

    def readline(self) -> str:
        """The next line, counted."""
        line = self._lines.readline()
        if line:
            self._line += 1
            if self._start is None and line.strip():
                self._start = self._line
        return line

    def next_game(self) -> None:
        """Start looking for the line the next game starts on."""
        self._start = None

    def game_line(self) -> int:
        """The line the game just read starts on (its first non-blank line)."""
        return self._start if self._start is not None else self._line


def _pgn(text: str, path: Path, plies: int | None) -> list[GameMap]:
    handle = _LineCounter(text)
    openings = []
    while True:
        handle.next_game()
        game = chess.pgn.read_game(cast(TextIO, handle), Visitor=_QuietBuilder)
        if game is None:
            break
        number = handle.game_line()
        if game.errors:
            raise ArenaError(f"{path}:{number}: not a readable PGN game: {game.errors[0]}")
        if "FEN" not in game.headers and game.next() is None:
            raise ArenaError(f"{path}:{number}: not an opening: a PGN game with neither moves nor a FEN tag")
        board = game.board()
        _check_board(board, path, number)
        start = board.fen()
        moves: list[str] = []
        for move in game.mainline_moves():
            if plies is not None and len(moves) >= plies:
                break
            moves.append(move.uci())
        title = ", ".join(tag for tag in (game.headers.get("Opening", ""), game.headers.get("Variation", "")) if tag)
        openings.append(_opening(path, number, start, moves, title))
    return openings


def _check_board(board: chess.Board, path: Path, number: int) -> None:
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = ", ".join(flag.name.lower().replace("_", " ") for flag in chess.Status
                             if flag and flag in status and flag.name)
        raise ArenaError(f"{path}:{number}: not a legal position ({problems or 'invalid'})")


def _opening(path: Path, number: int, fen: str, moves: list[str], title: str) -> GameMap:
    position = "startpos" if fen == STANDARD_FEN else f"fen {fen}"
    if moves:
        position += " moves " + " ".join(moves)
    title = " ".join(title.split())  # one line, whatever the file held
    header = "; game = chess\n" + (f"; title = {title}\n" if title else "")
    return parse_map(f"{header}{position}\n", name=f"{path.stem}:{number}")
