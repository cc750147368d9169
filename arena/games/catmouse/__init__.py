"""Cat and mouse, registered as the game ``catmouse``, with its ``arena train`` and ``arena solve`` commands."""

from typing import Any

from arena.games.catmouse.game import CatMouseGame, CatMouseObservation
from arena.plugins.hookspecs import hookimpl

__all__ = ["CatMouseGame", "CatMouseObservation"]


@hookimpl
def register_games(register: Any) -> None:
    """Register the cat-and-mouse ruleset."""
    register(CatMouseGame)


@hookimpl
def register_commands(app: Any) -> None:
    """Add ``arena train catmouse-full``, ``arena train catmouse-window`` and ``arena solve catmouse-parity``."""
    from arena.games.catmouse.commands import add_commands

    add_commands(app)
