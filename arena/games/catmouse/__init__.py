"""Cat and mouse: a pursuit game on a grid. Its exact solver and policies are in
:mod:`arena.engines.catmouse`; the hooks that register it and its commands are in
:mod:`arena.builtin.catmouse.plugin`."""

from typing import TYPE_CHECKING

from arena.core.lazy_names import lazy_names

if TYPE_CHECKING:
    from arena.games.catmouse.game import CatMouseGame, CatMouseObservation

__all__ = ["CatMouseGame", "CatMouseObservation"]

# Imported when first asked for: unpickling an observation imports its module alone, not the whole game.
__getattr__, __dir__ = lazy_names(__name__, {"CatMouseGame": "game", "CatMouseObservation": "game"}, globals())
