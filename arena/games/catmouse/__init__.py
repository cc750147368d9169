"""Cat and mouse: a pursuit game on a grid, its exact solver and its policies. The hooks that register
it and its commands are in :mod:`arena.games.catmouse.plugin`."""

from arena.games.catmouse.game import CatMouseGame, CatMouseObservation

__all__ = ["CatMouseGame", "CatMouseObservation"]
