"""The game interface every ruleset implements, and the small value types around a match.

A game owns its rules and nothing else. The referee (:mod:`arena.play.referee`) drives it:

1. ``Game.check_map(game_map)`` validates a map once, before any match is scheduled.
2. ``Game(game_map, options, rng)`` sets up one game; all randomness comes from ``rng`` (a game whose class
   sets ``deferred_rng`` may get a :class:`DeferredGenerator` and calls :func:`generator` on it first).
3. Until ``game.result`` is not ``None``: ``game.to_act()`` names the seats that act now (every living
   seat in a simultaneous-move game, one seat in an alternating one); for each, the referee sends
   ``game.observe(seat)`` to the bot and checks its answer with ``game.is_legal(seat, action)``;
   then ``game.apply({seat: action, ...})`` advances the game by one turn.
4. ``game.result`` gives a rank per seat (1 is best, equal ranks tie) and a human-readable reason.

Reinforcement learning (:mod:`arena.rl`) finds what it needs on the game class by name, without the core
knowing of it: an array form of the observations and a shaping potential (see :mod:`arena.rl.array_form`).

Seats are numbered from 0. Games with asymmetric roles (a cat and a mouse) list them in ``roles``:
seat ``i`` plays ``roles[i]``. Symmetric games leave ``roles`` empty.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from arena.core.clock import Clock

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from arena.core.maps import GameMap
    from arena.core.view import BoardView


METADATA_KEYS = frozenset({"game", "title", "author", "description", "source"})
"""Map header keys that describe a map rather than set a game option."""


@dataclass(frozen=True)
class Result:
    """How a game ended: ``ranks[seat]`` (1 is best, equal ranks tie) and why."""

    ranks: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        """True when every seat shares first place."""
        return all(rank == 1 for rank in self.ranks)

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


@dataclass(frozen=True)
class Option:
    """One option a game accepts (from a map header, a tournament file or the command line)."""

    default: str
    choices: tuple[str, ...]
    help: str = ""


@dataclass
class MatchInfo:
    """What a bot learns when a match starts: where it sits and under which rules it plays."""

    game: str
    seat: int
    num_seats: int
    role: str | None
    options: Mapping[str, str]
    map_name: str | None
    seed: int
    time_limit: float
    """Seconds a move may take: the per-move limit, or under a time control without one, the first move's
    allowance. A bot under a time control plans its moves with :attr:`clock` instead."""
    rng: random.Random = field(repr=False, default_factory=random.Random)
    clock: Clock = field(repr=False, default_factory=Clock)
    """This bot's clock in the game: ``clock.time_left()`` is how long the current move may still take."""
    clocks: tuple[Clock, ...] = field(repr=False, default=())
    """Every seat's clock (``clocks[seat]``), for a protocol that tells a program both sides' time (UCI's
    ``wtime`` and ``btime``). Kept up to date in the referee's process, where program bots play; a Python bot
    in a process of its own follows only its own :attr:`clock`."""

    def __post_init__(self) -> None:
        if self.clock.time_limit is None and self.clock.bank is None:  # no clock given: the time limit's
            self.clock = Clock(self.clock.control, self.time_limit)


class DeferredGenerator:
    """A game's ``np.random.default_rng(seed)``, made the first time :meth:`get` is called.

    Making a Generator costs more than setting up a small game; a game that draws nothing (Tron on the map's
    starts, without powerups) never needs one. The Generator :meth:`get` returns is the one
    ``np.random.default_rng(seed)`` gives, untouched until then, so every draw is the same.
    """

    __slots__ = ("seed", "_made")

    def __init__(self, seed: int):
        self.seed = seed
        self._made: np.random.Generator | None = None

    @property
    def made(self) -> bool:
        """Whether the Generator exists yet."""
        return self._made is not None

    def get(self) -> np.random.Generator:
        """The game's Generator (made now if this is the first call)."""
        made = self._made
        if made is None:
            import numpy  # here, not at the top: a bot's process that never draws from it need not load numpy

            made = self._made = numpy.random.default_rng(self.seed)
        return made


def generator(rng: np.random.Generator | DeferredGenerator) -> np.random.Generator:
    """The Generator itself, for a game given either it or a :class:`DeferredGenerator`."""
    return rng.get() if isinstance(rng, DeferredGenerator) else rng


def player_name(seat: int) -> str:
    """How people read seat ``seat``: ``player 1`` for seat 0, as boards draw it (records keep the 0-based seat)."""
    return f"player {seat + 1}"


def players_text(seats: Sequence[int]) -> str:
    """``player 2``, or ``players 1, 2 and 4``, for 0-based ``seats``."""
    if len(seats) == 1:
        return player_name(seats[0])
    numbers = [str(seat + 1) for seat in seats]
    return "players " + ", ".join(numbers[:-1]) + f" and {numbers[-1]}"


def forfeit_ranks(num_seats: int, failed: Sequence[int]) -> tuple[int, ...]:
    """The ranks of a game ended because the ``failed`` seats failed: they share last place, the rest share first."""
    failed_seats = set(failed)
    last = num_seats - len(failed_seats) + 1
    return tuple(last if seat in failed_seats else 1 for seat in range(num_seats))


class Game(ABC):
    """A ruleset. Subclasses set the class attributes and implement the abstract methods."""

    name: ClassVar[str]
    description: ClassVar[str] = ""
    roles: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[Mapping[str, Option]] = {}
    default_maps: ClassVar[tuple[str, ...]] = ()
    """Maps (shipped names or paths) a command uses when given none: ``arena play`` the first, the ladder all."""
    untagged_maps: ClassVar[bool] = False
    """Whether a map with no ``; game = ...`` header is this game's (the first registered game that says so)."""
    deferred_rng: ClassVar[bool] = False
    """Whether the referee may hand the game a :class:`DeferredGenerator` as its ``rng``, which the game turns
    into its Generator with :func:`generator` before it draws; a game that draws in some set-ups only saves
    making one in the others."""
    size_option: ClassVar[str | None] = None
    """The option ``--size WIDTHxHEIGHT`` sets, for games played on a board of any size (``None``: no such option)."""
    openings_formats: ClassVar[tuple[str, ...]] = ()
    """The kinds of openings file (``--openings``) the game reads with :meth:`read_openings`, as the files'
    suffixes (``("epd", "pgn")``); empty for a game that reads none."""

    @classmethod
    @abstractmethod
    def check_map(cls, game_map: GameMap) -> None:
        """Raise :class:`arena.core.errors.MapError` (naming file, line and column) if the map is unusable."""

    @classmethod
    def parameters_map(cls, options: Mapping[str, str]) -> GameMap | None:
        """For a game played without map files: the map a tournament given none plays, made from the game's
        options (a header of them over a line naming the setting); ``None`` (the default) for a game whose
        tournaments need map files."""
        return None

    @classmethod
    def num_players(cls, game_map: GameMap | None) -> int:
        """How many seats a game on this map has (maps with more starts give more seats)."""
        return cls.min_players

    @classmethod
    def resolve_options(cls, given: Mapping[str, str]) -> dict[str, str]:
        """Fill in defaults and reject unknown options or values with a clear error."""
        from arena.core.errors import ArenaError

        resolved = {key: option.default for key, option in cls.options.items()}
        for key, value in given.items():
            if key in METADATA_KEYS:
                continue
            if key not in cls.options:
                known = ", ".join(sorted(cls.options)) or "none"
                raise ArenaError(f"game {cls.name!r} has no option {key!r} (known options: {known})")
            if value not in cls.options[key].choices:
                choices = ", ".join(cls.options[key].choices)
                raise ArenaError(f"option {key} = {value!r} is not one of: {choices}")
            resolved[key] = value
        return resolved

    @classmethod
    def read_openings(cls, path: Path, plies: int | None) -> list[GameMap]:
        """The start positions an openings file holds, each as a map of this game, in the file's order (at most
        ``plies`` moves of each line played in); an :class:`arena.core.errors.ArenaError` naming the file and
        line for anything unreadable. Games that list :attr:`openings_formats` override it."""
        from arena.core.errors import ArenaError

        raise ArenaError(f"{path}: game {cls.name!r} reads no openings files")

    @abstractmethod
    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        """Set up a fresh game. ``options`` is already resolved; all randomness comes from ``rng``."""

    num_seats: int

    @abstractmethod
    def to_act(self) -> Sequence[int]:
        """The seats that choose an action this turn."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Any]:
        """Every action the seat may take now (legal, though perhaps fatal)."""

    def is_legal(self, seat: int, action: Any) -> bool:
        """Whether ``action`` is one of ``legal_actions(seat)``; it never raises on malformed input."""
        try:
            return action in self.legal_actions(seat)
        except TypeError:
            return False

    @abstractmethod
    def apply(self, actions: Mapping[int, Any]) -> None:
        """Advance one turn with the (validated) actions of the seats in ``to_act()``."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def observe(self, seat: int) -> Any:
        """What the bot in ``seat`` sees now; it must not let the bot change the game."""

    @abstractmethod
    def render(self, color: bool = False) -> str:
        """The position as text; with ``color``, rich markup."""

    def view(self) -> BoardView:
        """The position as the HTML replay viewer draws it (see :mod:`arena.core.view`).

        The default draws :meth:`render`'s text, one cell per character; a game overrides it to draw its
        board with colours, pieces and crash marks.
        """
        from arena.core.view import text_view

        return text_view(self.render(color=False))

    def record_extras(self) -> dict[str, Any]:
        """Fields the game adds to its record when it ends (e.g. chess's ``chess``: FEN and SAN); the default
        adds none. Keys the record already has are left as they are."""
        return {}

    def moves_together(self) -> bool:
        """Whether every living seat moves at once (so a parallel environment fits); the default is ``False``."""
        return False

    def settled_rank(self, seat: int) -> int | None:
        """The seat's final rank as soon as it is known: at the end by default; a game where seats drop out
        earlier (Tron with 3 or 4 players) knows it when the seat is out."""
        result = self.result
        return None if result is None else result.ranks[seat]

    def forfeit(self, seats: Sequence[int], reason: str) -> Result:
        """End the game because ``seats`` failed (crash, timeout, illegal move): see :func:`forfeit_ranks`."""
        return Result(forfeit_ranks(self.num_seats, seats), reason)

    def role_of(self, seat: int) -> str | None:
        """The role the seat plays, or ``None`` in a symmetric game."""
        return self.roles[seat] if self.roles else None
