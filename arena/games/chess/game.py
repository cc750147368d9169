"""Chess as an arena game, its rules from python-chess: seat 0 (player 1) plays white, seat 1 black.

The map is the start position (:mod:`~arena.games.chess.position`): ``startpos`` or a FEN, optionally with
book moves; the shipped map ``chess_start`` is the standard one. Actions are moves in UCI notation, optionally
with the mover's evaluation (:mod:`~arena.games.chess.adjudication`). The game ends by the rules (checkmate;
draws by stalemate, insufficient material, the fifty-move rule, threefold repetition, each as soon as it
arises, as cutechess-cli adjudicates them) or by adjudication: a maximum number of moves, and draw and
resign adjudication from the bots' evaluations.

A game's record gets a ``chess`` entry (:meth:`ChessGame.record_extras`): the start FEN, the number of book
moves, every move in UCI and SAN, the final FEN and each played move's evaluation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import METADATA_KEYS, Game, Option, Result
from arena.core.maps import GameMap, parse_map
from arena.core.view import BoardView
from arena.games.chess.adjudication import Adjudication, Score, split_action
from arena.games.chess.observation import COLORS, ChessObservation
from arena.games.chess.position import OPENINGS_FORMATS, position_of

NUMBER_LIMIT = 1_000_000
_ANY = "; any whole number from 0"

_RULE_ENDS = (("is_stalemate", "stalemate"), ("is_insufficient_material", "insufficient material"))
"""The draws the rules declare as soon as they arise, by the python-chess board's test of each."""


class ChessGame(Game):
    """Chess, by the FIDE rules python-chess implements, with cutechess-style adjudication."""

    name = "chess"
    description = "Chess (python-chess rules, UCI moves): engines over the uci protocol, adjudication as cutechess"
    options = {
        "max_moves": Option("0", ("0", "40"), "full moves after which the game is adjudicated a draw; 0: no limit"
                            + _ANY),
        "draw_movenumber": Option("40", ("40",), "draw adjudication starts at this full move" + _ANY),
        "draw_movecount": Option("0", ("0",), "draw when both sides' evaluations stay within draw_score for "
                                 "this many consecutive moves each; 0: off" + _ANY),
        "draw_score": Option("10", ("10",), "draw adjudication's bound, in centipawns" + _ANY),
        "resign_movecount": Option("0", ("0",), "a side whose evaluation is resign_score or worse for this many "
                                   "consecutive moves of its own loses; 0: off" + _ANY),
        "resign_score": Option("600", ("600",), "resign adjudication's bound, in centipawns" + _ANY),
    }
    default_maps = ("chess_start",)
    openings_formats = OPENINGS_FORMATS

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """The map's line must be a legal start position (``startpos`` or a FEN, and legal book moves)."""
        position_of(game_map)

    @classmethod
    def parameters_map(cls, options: Mapping[str, str]) -> GameMap:
        """The map a tournament given none (``--game chess``) plays: the standard starting position."""
        return parse_map("; game = chess\n; title = The standard starting position\nstartpos\n", name="startpos")

    @classmethod
    def read_openings(cls, path: Path, plies: int | None) -> list[GameMap]:
        """The openings of an EPD or PGN file (:mod:`~arena.games.chess.openings`), each a start position."""
        from arena.games.chess.openings import read_openings

        return read_openings(path, plies)

    @classmethod
    def resolve_options(cls, given: Mapping[str, str]) -> dict[str, str]:
        """Every option is a whole number from 0 (its listed choices are examples); refuse anything else."""
        resolved = {key: option.default for key, option in cls.options.items()}
        for key, value in given.items():
            if key in METADATA_KEYS:
                continue
            if key not in cls.options:
                known = ", ".join(sorted(cls.options))
                raise ArenaError(f"game 'chess' has no option {key!r} (known options: {known})")
            text = str(value).strip()
            if not (text.isascii() and text.isdigit() and int(text) <= NUMBER_LIMIT):
                raise ArenaError(f"option {key} = {value!r} is not a whole number from 0 to {NUMBER_LIMIT}")
            resolved[key] = str(int(text))
        return resolved

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        start = position_of(game_map)
        self.start_fen = start.fen
        self.book = len(start.book)
        self.board = start.board()
        self.num_seats = 2
        self.max_plies = 2 * int(options["max_moves"])
        self.adjudication = Adjudication.from_options(options)
        self.san: list[str] = []
        """Every move from the start FEN (book moves first) in standard algebraic notation."""
        self.scores: list[Score | None] = []
        """The evaluation the mover gave with each move played by a bot."""
        self._result: Result | None = None
        self._judge(None)

    def _refresh(self) -> None:
        self._legal = {} if self._result else {move.uci(): move for move in self.board.legal_moves}

    def to_act(self) -> Sequence[int]:
        """The side to move (white is seat 0), nobody once the game is over."""
        return () if self._result else (0 if self.board.turn else 1,)  # python-chess: white's turn is True

    def legal_actions(self, seat: int) -> Sequence[str]:
        """The legal moves in UCI notation, sorted, for the side to move."""
        return sorted(self._legal) if seat in self.to_act() else []

    def is_legal(self, seat: int, action: object) -> bool:
        """A legal move, alone or followed by the mover's evaluation (``e2e4 cp 35``, ``e2e4 mate 3``)."""
        parts = split_action(action)
        return parts is not None and parts[0] in self._legal and seat in self.to_act()

    def apply(self, actions: Mapping[int, str]) -> None:
        """Play the side to move's move, then see whether the rules or adjudication end the game."""
        seat = self.to_act()[0]
        parts = split_action(actions[seat])
        assert parts is not None
        move = self._legal[parts[0]]
        self.san.append(self.board.san(move))
        self.board.push(move)
        self.scores.append(parts[1])
        self._judge(self.adjudication.after_move(seat, len(self.board.move_stack), parts[1]))

    def _judge(self, adjudicated: str | None) -> None:
        board = self.board
        if not self.san and self.book:  # the book moves' SAN, once
            replay = type(board)(self.start_fen)
            for move in board.move_stack:
                self.san.append(replay.san(move))
                replay.push(move)
        result = None
        if board.is_checkmate():
            winner = 1 - self.to_act()[0]
            result = self._win(winner, "checkmate")
        else:
            for test, reason in _RULE_ENDS:
                if getattr(board, test)():
                    result = Result((1, 1), reason)
                    break
            else:
                if board.halfmove_clock >= 100:
                    result = Result((1, 1), "fifty-move rule")
                elif board.is_repetition(3):
                    result = Result((1, 1), "threefold repetition")
                elif adjudicated == "resign":
                    loser = 1 - self.to_act()[0]  # the side that just moved
                    score = self.adjudication.resign_score
                    result = self._win(1 - loser, f"adjudicated: {COLORS[loser]}'s evaluation was -{score} cp or "
                                                  f"worse for {self.adjudication.resign_movecount} moves")
                elif adjudicated == "draw":
                    result = Result((1, 1), f"adjudicated draw: evaluations within {self.adjudication.draw_score} "
                                            f"cp for {self.adjudication.draw_movecount} moves")
                elif self.max_plies and len(self.scores) >= self.max_plies:
                    result = Result((1, 1), f"adjudicated draw: {self.max_plies // 2} moves played")
        self._result = result
        self._refresh()

    @staticmethod
    def _win(winner: int, how: str) -> Result:
        ranks = (1, 2) if winner == 0 else (2, 1)
        return Result(ranks, f"{how}: {COLORS[winner]} (player {winner + 1}) wins")

    @property
    def result(self) -> Result | None:
        """Who won (or the draw), and why."""
        return self._result

    def observe(self, seat: int) -> ChessObservation:
        """The position, its history and (on the seat's turn) its legal moves."""
        legal = tuple(sorted(self._legal)) if seat in self.to_act() else ()
        return ChessObservation(seat, COLORS[seat], self.board.fen(), self.start_fen,
                                tuple(move.uci() for move in self.board.move_stack), legal)

    def record_extras(self) -> dict[str, Any]:
        """The record's ``chess`` entry: ``start_fen``, ``book`` (how many of the moves are book moves),
        ``uci`` and ``san`` (every move from the start FEN), ``fen`` (the final position) and ``scores`` (for
        each move a bot played: ``{"cp": n}``, ``{"mate": n}`` from the mover's side, or ``null``)."""
        return {"chess": {"start_fen": self.start_fen, "book": self.book,
                          "uci": [move.uci() for move in self.board.move_stack], "san": list(self.san),
                          "fen": self.board.fen(), "scores": [s.as_json() if s else None for s in self.scores]}}

    def view(self) -> BoardView:
        """The board for the replay viewer (:mod:`arena.games.chess.view`): squares named a-h and 8-1, each piece
        as its glyph, the last move's squares marked, and the move in SAN with its evaluation."""
        from arena.games.chess.view import board_view

        return board_view(self.board, self.san, self.scores, self.book, self._result)

    def render(self, color: bool = False) -> str:
        """The board, white at the bottom, then the FEN and whose move it is."""
        lines = [str(self.board) if not color else self.board.unicode(empty_square="·"), self.board.fen()]
        last = f"; last move {self.san[-1]}" if self.san else ""
        state = self._result.reason if self._result else f"{COLORS[self.to_act()[0]]} to move"
        lines.append(f"move {self.board.fullmove_number}{last}; {state}")
        return "\n".join(lines)
