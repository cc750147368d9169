"""Cat and mouse: a pursuit game on a grid. Its exact solver and policies are in
:mod:`arena.engines.catmouse`; the hooks that register it and its commands are in
:mod:`arena.builtin.catmouse.plugin`."""

from arena.games.catmouse.game import CatMouseGame, CatMouseObservation

__all__ = ["CatMouseGame", "CatMouseObservation"]
