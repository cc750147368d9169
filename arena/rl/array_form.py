"""What a game provides to be a learning environment, found by the methods it has (the core knows nothing of it).

A game class is an :class:`ArrayForm` when it defines the three class methods below: it turns any of its
observations into a numpy array of fixed shape, numbers its actions for a ``Discrete`` action space, and
marks the legal ones. They are class methods of the *observation*, so a bot (which sees only observations)
can use them as well as an environment. A game is a :class:`ShapedGame` when its instances define
``shaping(seat)``, a potential the environments' ``shaping`` weight turns into extra reward; without it
there is no shaping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast, runtime_checkable

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game


@runtime_checkable
class ArrayForm(Protocol):
    """A game class's array form of its observations (each method a class method of the game)."""

    def array_observation(self, obs: Any, **form: Any) -> np.ndarray:
        """The observation ``obs`` as a ``float32`` array with values in ``[0, 1]``, the same shape all game long.

        ``form`` holds the game's documented array options (Tron: ``centered``)."""
        ...

    def array_actions(self, obs: Any) -> Sequence[Any]:
        """The action each index of a ``Discrete`` action space names for the seat that sees ``obs``: the same
        length all game long (every action the seat could ever take on this board)."""
        ...

    def array_mask(self, obs: Any) -> np.ndarray:
        """An ``int8`` array, 1 for each index of :meth:`array_actions` that is legal now, 0 for the others."""
        ...


@runtime_checkable
class ShapedGame(Protocol):
    """A game whose positions have a potential for reward shaping."""

    def shaping(self, seat: int) -> float:
        """How good the position looks for ``seat``, in ``[0, 1]``. Environments built with ``shaping`` add the
        change of this potential to each reward (potential-based shaping, which keeps the best policy the
        same)."""
        ...


def array_form(game_cls: type[Game]) -> ArrayForm:
    """The game class as an :class:`ArrayForm`; a game without one is an :class:`ArenaError`."""
    if not isinstance(game_cls, ArrayForm):
        raise ArenaError(f"game {game_cls.name!r} has no array form of its observations: "
                         "it cannot be a learning environment")
    return cast(ArrayForm, game_cls)


def observe_array(game: Game, seat: int, **form: Any) -> tuple[np.ndarray, np.ndarray]:
    """The array form of ``game.observe(seat)`` and its action mask."""
    obs = game.observe(seat)
    arrays = array_form(type(game))
    return arrays.array_observation(obs, **form), arrays.array_mask(obs)


def shaping_potential(game: Game, seat: int) -> float:
    """The game's shaping potential for ``seat``, 0 for a game without one."""
    return game.shaping(seat) if isinstance(game, ShapedGame) else 0.0
