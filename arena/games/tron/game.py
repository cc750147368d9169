"""Tron light cycles: the ``tron`` game.

Players: 2 to 4, one per start ``1``..``4`` on the map (seat 0 starts on ``1``).
Actions: ``"N"``, ``"E"``, ``"S"``, ``"W"``: move one cell up, right, down or left. Every direction is
legal; a fatal one crashes the player. Anything else is illegal and loses the game.

The cell a player leaves becomes its trail, a wall (an ``x`` barrier) for everyone. Crashed players
leave the board and their trails stay. The last player standing wins; players who crash in the same
turn share a place, so if every remaining player crashes at once, they draw.

Options (map header ``; moves = alternating``, a tournament file's ``options`` table, the command line):

* ``moves = simultaneous`` (default, Google AI Challenge 2010): every living player moves at once.
  A player crashes moving into a wall, a trail (its own included, so reversing is fatal), off the
  board, into a cell another player also enters this turn (both crash), or into another player's head
  (so swapping cells crashes both).
* ``moves = alternating`` (Brown CSCI 1410): players move one at a time in seat order; moving into a
  wall, a trail or a head crashes the mover.
* ``starts = map`` (default) or ``mirrored``: random point-mirrored starts (:mod:`.starts`).
* ``powerups = off`` (default) or ``on``: traps, bombs, armor and speed (:mod:`.powerups`). With
  ``off``, powerup characters on the map are plain empty cells.
* ``rules = aichallenge | brown``: a preset. ``brown`` means ``moves = alternating``, ``starts =
  mirrored``, ``powerups = on``; ``aichallenge`` the three defaults. An option set on its own wins over
  the preset. Resolved options always name ``moves``, and name ``starts`` and ``powerups`` only when
  they differ from the default, so AI Challenge records read as they always did.

Speed: a player whose speed boost is due moves 5 times in a row. With alternating moves its run
replaces its next turn; with simultaneous moves it moves alone for 5 turns after the next turn
everyone moves together (boosts due at once run one after the other, in seat order; a boost picked up
during a run waits for the next turn everyone moves together).

Observation: :class:`TronObservation` (or :class:`PowerupObservation` with powerups on), a read-only
snapshot with helpers (``legal_moves``, ``safe_moves``, ``walls_around``, ``is_free``) and the raw
padded grid (``cells``, ``stride``) for fast bots.

Array form (for :mod:`arena.rl`): planes of walls, trails, heads and powerups, optionally centred on
the seat's head (:mod:`arena.games.tron.arrays`); actions ``N``, ``E``, ``S``, ``W`` as 0-3, all legal.

Versions: 1 - simultaneous and alternating moves, 2-4 players. 2 - mirrored starts, powerups, the
``rules`` preset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from arena.core.game import METADATA_KEYS, DeferredGenerator, Game, Option, Result, generator
from arena.core.maps import GameMap
from arena.core.view import BoardView
from arena.games.tron.arrays import all_legal, out_rank, reachable_share, tron_array
from arena.games.tron.observation import PowerupObservation, TronObservation, TurnSnapshot, turn_snapshot
from arena.games.tron.powerups import SPEED_MOVES, PowerupBoard
from arena.games.tron.render import board_view, render_board
from arena.games.tron.rules import DIRECTIONS, WALL, TronBoard
from arena.games.tron.starts import map_starts, mirrored_starts

__all__ = ["PRESETS", "PowerupObservation", "TronGame", "TronObservation"]

PRESETS: dict[str, dict[str, str]] = {
    "aichallenge": {"moves": "simultaneous", "starts": "map", "powerups": "off"},
    "brown": {"moves": "alternating", "starts": "mirrored", "powerups": "on"},
}
"""What each ``rules`` preset sets."""
_LEGAL = frozenset(DIRECTIONS)
_new = object.__new__


class TronGame(Game):
    """Tron light cycles for 2-4 players: AI Challenge 2010 (default) and Brown CSCI 1410 rule sets."""

    name = "tron"
    description = "Light cycles: leave a trail, outlast the others (AI Challenge 2010 and Brown CSCI 1410 rules)."
    min_players = 2
    max_players = 4
    default_maps = ("empty_room", "center_block", "diagonal_blocks")
    untagged_maps = True
    result: Result | None = None
    """The ranks and reason once the game is over: a plain attribute, read after every turn."""
    deferred_rng = True  # only mirrored starts and powerups draw
    options = {
        "moves": Option("simultaneous", ("simultaneous", "alternating"),
                        "simultaneous: all move at once (AI Challenge); alternating: in seat order (Brown)"),
        "starts": Option("map", ("map", "mirrored"),
                         "map: on the map's 1-4; mirrored: random point-mirrored cells (Brown)"),
        "powerups": Option("off", ("off", "on"),
                           "on: trap *, bomb !, armor @, speed ^ and random ? cells work (Brown)"),
        "rules": Option("aichallenge", ("aichallenge", "brown"),
                        "a preset: brown = alternating moves, mirrored starts, powerups on"),
    }

    @classmethod
    def resolve_options(cls, given: Mapping[str, str]) -> dict[str, str]:
        """Check the options, expand a ``rules`` preset, and keep ``moves`` plus the non-default others."""
        super().resolve_options(given)
        chosen = {key: value for key, value in given.items() if key not in METADATA_KEYS}
        preset = PRESETS[chosen.pop("rules", "aichallenge")]
        resolved = {"moves": chosen.get("moves", preset["moves"])}
        for key in ("starts", "powerups"):
            value = chosen.get(key, preset[key])
            if value != cls.options[key].default:
                resolved[key] = value
        return resolved

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """Check cell characters and that starts ``1``..``k`` each appear once (k between 2 and 4)."""
        map_starts(game_map)

    @classmethod
    def num_players(cls, game_map: GameMap | None) -> int:
        """One seat per start on the map."""
        if game_map is None:
            return 2
        return len(map_starts(game_map))

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str],
                 rng: np.random.Generator | DeferredGenerator):
        if game_map is None:
            raise ValueError("tron needs a map")
        self.map = game_map
        self.moves = options.get("moves", "simultaneous")
        self.starts = options.get("starts", "map")
        self.powerups = options.get("powerups", "off") == "on"
        starts = map_starts(game_map)
        if self.starts == "mirrored":
            starts = mirrored_starts(game_map, len(starts), generator(rng))
        self.board: TronBoard = PowerupBoard(game_map.rows, starts, generator(rng)) if self.powerups \
            else TronBoard(game_map.rows, starts)
        self.num_seats = len(self.board.heads)
        self._simultaneous = self.moves == "simultaneous"
        self._joint = self._simultaneous  # every living seat moves now (no speed run under way)
        self._next = 0  # the seat that moves alone: alternating moves, or a speed run
        self._left = 1  # moves left in its run (more than 1 on a speed run)
        self._due: list[int] = []  # simultaneous: seats whose speed runs come after the current one
        self.result = None
        self._all = tuple(range(self.num_seats))
        self.crashed_at: dict[int, int] = {}
        """Where each crashed seat crashed: the flat index of the cell it moved into."""
        self._snapshot: TurnSnapshot | None = None  # this turn's cells and heads, once observed

    def to_act(self) -> Sequence[int]:
        """Every living seat (simultaneous), or the one seat moving now (alternating, or on a speed run)."""
        if self._joint:
            board = self.board
            if board.living == self.num_seats:
                return self._all
            alive = board.alive
            return [s for s in self._all if alive[s]]
        return (self._next,)

    def legal_actions(self, seat: int) -> Sequence[str]:
        """All four directions (a fatal move is legal; it just crashes)."""
        return DIRECTIONS

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether ``action`` is one of ``"N"``, ``"E"``, ``"S"``, ``"W"``."""
        return type(action) is str and action in _LEGAL

    def apply(self, actions: Mapping[int, str]) -> None:
        """Move the seats in ``to_act()``; decide the result once at most one player is left."""
        board = self.board
        snapshot = self._snapshot  # the heads before the move, if this turn was observed (no copy needed then)
        before = snapshot[1] if snapshot is not None else tuple(board.heads)
        self._snapshot = None  # observations already handed out keep theirs
        if self._joint:
            board.move_simultaneous(actions)
            if self.powerups and board.living > 1:
                self._start_runs()
        else:
            seat = self._next
            board.move_alternating(seat, actions[seat])
            if board.living > 1:
                if self.powerups:
                    self._pass_turn(seat)
                else:
                    nxt = (seat + 1) % self.num_seats
                    while not board.alive[nxt]:
                        nxt = (nxt + 1) % self.num_seats
                    self._next = nxt
        if board.last_crashes:
            for seat, _ in board.last_crashes:
                self.crashed_at[seat] = before[seat] + board.deltas[actions[seat]]
        if board.living <= 1:
            self.result = Result(board.ranks(), board.reason())

    def _pass_turn(self, seat: int) -> None:
        """With powerups, after a move by the seat moving alone: go on with its run, or end it."""
        board = self.board
        assert isinstance(board, PowerupBoard)
        self._left -= 1
        if self._left > 0 and board.alive[seat]:
            return
        if self._simultaneous:
            self._next_run()
            return
        nxt = (seat + 1) % self.num_seats
        while not board.alive[nxt]:
            nxt = (nxt + 1) % self.num_seats
        self._next = nxt
        self._left = SPEED_MOVES if board.speed[nxt] else 1
        board.speed[nxt] = False

    def _start_runs(self) -> None:
        """Simultaneous moves: after a turn everyone moved, start the speed runs that are due."""
        board = self.board
        assert isinstance(board, PowerupBoard)
        due = [seat for seat in self._all if board.alive[seat] and board.speed[seat]]
        if due:
            for seat in due:
                board.speed[seat] = False
            self._due = due
            self._next_run()

    def _next_run(self) -> None:
        """Simultaneous moves: start the next due speed run, or go back to moving together."""
        while self._due:
            seat = self._due.pop(0)
            if self.board.alive[seat]:
                self._joint, self._next, self._left = False, seat, SPEED_MOVES
                return
        self._joint, self._left = True, 1

    def observe(self, seat: int) -> TronObservation:
        """A snapshot of the board for ``seat``."""
        if self.powerups:
            board = self.board
            assert isinstance(board, PowerupBoard)
            run = self._left if seat == self._next and not self._joint else 1
            return PowerupObservation(board, seat, self.moves, run)
        snapshot = self._snapshot
        if snapshot is None:  # the turn's first observation: the cells and heads, copied once for every seat
            snapshot = self._snapshot = turn_snapshot(self.board, self.moves)
        # The observation of the snapshot, built here rather than in a call of its own: this runs every move.
        obs = _new(TronObservation)
        obs.cells, obs.heads, obs.stride, obs.width, obs.height, obs.moves, obs.turn = snapshot
        obs.seat = seat
        obs.delta = self.board.deltas
        return obs

    @classmethod
    def array_observation(cls, obs: TronObservation, centered: bool = False) -> np.ndarray:
        """Planes of walls, trails, heads (and powerups when on), centred on the head with ``centered``."""
        return tron_array(obs, centered)

    @classmethod
    def array_actions(cls, obs: TronObservation) -> Sequence[str]:
        """``N``, ``E``, ``S``, ``W``."""
        return DIRECTIONS

    @classmethod
    def array_mask(cls, obs: TronObservation) -> np.ndarray:
        """All four moves are legal (a fatal one crashes)."""
        return all_legal(len(DIRECTIONS))

    def moves_together(self) -> bool:
        """True under ``moves = simultaneous`` (speed runs aside)."""
        return self._simultaneous

    def settled_rank(self, seat: int) -> int | None:
        """Known as soon as the seat crashes: the seats still in, and those out later, rank above it."""
        if self.result is not None:
            return self.result.ranks[seat]
        return out_rank(self.board.out_turn, seat)

    def shaping(self, seat: int) -> float:
        """The share of the board's open cells the seat's head can still reach."""
        board = self.board
        open_cells = board.width * board.height - bytes(board.cells).count(WALL)
        return reachable_share(board.cells, board.stride, board.heads[seat], open_cells)

    def render(self, color: bool = False) -> str:
        """The board as text: ``#`` walls, ``1``-``4`` heads, ``a``-``d`` trails, ``x`` barriers, powerups."""
        items = self.board.items if isinstance(self.board, PowerupBoard) else None
        return render_board(self.board, color, items)

    def view(self) -> BoardView:
        """The board for the replay viewer: trails, heads, barriers, powerups, crashes; armor and speed held,
        and who moves next when not everyone moves at once."""
        board = self.board
        notes: dict[int, str] = {}
        items = None
        if isinstance(board, PowerupBoard):
            items = board.items
            for seat in self._all:
                held = [name for name, has in (("armor", board.armor[seat]), ("speed due", board.speed[seat])) if has]
                if held and board.alive[seat]:
                    notes[seat] = ", ".join(held)
        status = ""
        if self.result is None and not self._joint:
            mover = f"player {self._next + 1}"
            on_run = self._left > 1 or self._simultaneous  # moving alone under simultaneous moves is a speed run
            status = f"{mover} on a speed run: {self._left} left" if on_run else f"{mover} to move"
        return board_view(board, self.crashed_at, items, notes, status)
