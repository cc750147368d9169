"""Chess game records as PGN, as cutechess-cli writes its games: what ``arena export RUN --pgn FILE`` writes.

One PGN game per record, written with python-chess so any PGN reader (and python-chess itself) reads it
back: the Seven Tag Roster (``Event`` the run's name, ``Site``, ``Date`` the day the game finished,
``Round`` the game's number from 1, ``White`` and ``Black`` the bots with their versions, ``Result``), then
``SetUp``/``FEN`` when the game did not start from the standard position, ``PlyCount``, ``TimeControl``
(``BANK+INCREMENT`` in seconds, under a time bank), ``Termination``
and ``ArenaGame`` (``RUN:GAME``, as ``arena replay`` takes it). Book moves come first, each with the comment
``book``; every move a bot played carries its evaluation as ``[%eval]`` (from white's side, in pawns, or
``#N`` for a mate) and, under a time bank, the time left on its clock as ``[%clk]``. The last move's comment
is the result's reason in words.

The moves are replayed from the record's map and turns under python-chess's rules, so a record whose moves
are not legal is refused rather than written as a PGN no reader accepts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import chess
import chess.engine
import chess.pgn

from arena.core.errors import ArenaError
from arena.core.maps import parse_map
from arena.games.chess.adjudication import Score, split_action
from arena.games.chess.position import STANDARD_FEN, StartPosition, position_of

TERMINATIONS = {"timeout": "time forfeit", "illegal": "illegal move", "crash": "abandoned", "memory": "abandoned"}
"""The PGN ``Termination`` of a game a bot lost by failing, by the failure's kind (as cutechess-cli names them)."""


@dataclass(frozen=True)
class PgnSource:
    """One stored game to write as PGN: its record and where it comes from."""

    record: Mapping[str, Any]
    event: str = "?"
    """The run's name."""
    round: str = "?"
    date: str | None = None
    """When the game finished, ISO 8601 (``2026-12-04T02:05:05+00:00``); ``None``: unknown."""
    game_id: str | None = None
    """``RUN:GAME``, as ``arena replay`` takes it."""
    site: str = "?"


def pgn_result(ranks: Sequence[int] | None) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` from the ranks of white and black, ``*`` for a game without a result."""
    if ranks is None or len(ranks) != 2 or not all(isinstance(rank, int) for rank in ranks):
        return "*"
    if ranks[0] == ranks[1]:
        return "1/2-1/2"
    return "1-0" if ranks[0] < ranks[1] else "0-1"


def termination(record: Mapping[str, Any], result: str) -> str:
    """The PGN ``Termination``: how a bot failed (``time forfeit``, ``illegal move``, ``abandoned`` for a crash),
    ``adjudication``, ``normal`` for an end by the rules, ``unterminated`` for a game without a result."""
    if result == "*":
        return "unterminated"
    for failure in record.get("failures") or []:
        kind = failure.get("kind") if isinstance(failure, Mapping) else None
        if kind in TERMINATIONS:
            return TERMINATIONS[kind]
    reason = str((record.get("result") or {}).get("reason", ""))
    return "adjudication" if reason.startswith("adjudicated") else "normal"


def _player(players: Sequence[Any], seat: int) -> str:
    for index, player in enumerate(players):
        if isinstance(player, Mapping) and int(player.get("seat", index)) == seat:
            version = str(player.get("version") or "")
            return f"{player.get('bot', '?')} {version}".strip()
    return "?"


def _start(record: Mapping[str, Any]) -> StartPosition:
    game_map = record.get("map")
    if game_map is None:
        return position_of(None)
    return position_of(parse_map(str(game_map["text"]), name=str(game_map.get("name", "map"))))


def _pov(score: Score, mover: chess.Color) -> chess.engine.PovScore:
    relative: chess.engine.Score = (chess.engine.Cp(score.value) if score.kind == "cp"
                                    else chess.engine.Mate(score.value))
    return chess.engine.PovScore(relative, mover)


def _pgn_date(date: str | None) -> str:
    if not date or len(date) < 10 or not date[:4].isdigit():
        return "????.??.??"
    return date[:10].replace("-", ".")


def pgn_game(source: PgnSource) -> chess.pgn.Game:
    """The PGN game of one chess record; :class:`ArenaError` if the record is not a chess game that replays."""
    record = source.record
    if record.get("game") != "chess":
        raise ArenaError(f"game {source.game_id or '?'} is a {record.get('game')!r} game, not chess")
    where = f"game {source.game_id}" if source.game_id else "the record"
    start = _start(record)
    game = chess.pgn.Game()
    headers = game.headers
    headers["Event"], headers["Site"], headers["Date"] = source.event, source.site, _pgn_date(source.date)
    headers["Round"] = source.round
    players = record.get("players") or []
    headers["White"], headers["Black"] = _player(players, 0), _player(players, 1)
    result = pgn_result((record.get("result") or {}).get("ranks"))
    headers["Result"] = result
    if start.fen != STANDARD_FEN:
        game.setup(chess.Board(start.fen))  # sets the SetUp and FEN tags
    node: chess.pgn.GameNode = game
    for book_move in start.book:
        node = node.add_variation(chess.Move.from_uci(book_move), comment="book")
    clocks = record.get("clocks") or []
    for index, turn in enumerate(record.get("turns") or []):
        board = node.board()
        ((seat, action),) = turn.items() if isinstance(turn, Mapping) and len(turn) == 1 else ((None, None),)
        parts = split_action(action)
        move = chess.Move.from_uci(parts[0]) if parts and _is_uci(parts[0]) else None
        if parts is None or move is None or move not in board.legal_moves:
            raise ArenaError(f"{where}: turn {index + 1} ({turn!r}) is not a legal move in {board.fen()}")
        node = node.add_variation(move)
        if parts[1] is not None:
            node.set_eval(_pov(parts[1], board.turn))
        left = clocks[index].get(seat) if index < len(clocks) and isinstance(clocks[index], Mapping) else None
        if isinstance(left, int | float):
            node.set_clock(float(left))
    headers["PlyCount"] = str(node.ply() - game.ply())
    control = record.get("time_control") or {}
    if isinstance(control.get("bank"), int | float):
        headers["TimeControl"] = f"{control['bank']:g}+{control.get('increment') or 0:g}"
    headers["Termination"] = termination(record, result)
    if source.game_id:
        headers["ArenaGame"] = source.game_id
    reason = str((record.get("result") or {}).get("reason", ""))
    if reason:
        node.comment = f"{node.comment} {reason}".strip() if node is not game else reason
    return game


def _is_uci(text: str) -> bool:
    try:
        chess.Move.from_uci(text)
    except ValueError:
        return False
    return True


def write_pgn(sources: Iterable[PgnSource], stream: TextIO) -> int:
    """Write each source's PGN game to ``stream``, a blank line after each; how many were written."""
    count = 0
    for source in sources:
        exporter = chess.pgn.FileExporter(stream)
        pgn_game(source).accept(exporter)
        count += 1
    return count
