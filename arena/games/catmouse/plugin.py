"""The hooks that add cat and mouse to the arena: the game ``catmouse`` and its ``arena train`` and
``arena solve`` commands."""

from typing import Any

from arena.games.catmouse.game import CatMouseGame
from arena.plugins.hookspecs import hookimpl


@hookimpl
def register_games(register: Any) -> None:
    """Register the cat-and-mouse ruleset."""
    register(CatMouseGame)


@hookimpl
def register_commands(app: Any) -> None:
    """Add ``arena train catmouse-full``, ``arena train catmouse-window``, ``arena solve catmouse`` and
    ``arena solve catmouse-parity``."""
    from arena.games.catmouse.commands import add_commands

    add_commands(app)
