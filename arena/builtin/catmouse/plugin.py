"""The hooks that add cat and mouse to the arena: the game ``catmouse`` and its ``arena train`` and
``arena solve`` commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.catmouse.game import CatMouseGame
from arena.plugins.hookspecs import hookimpl
from arena.plugins.registrars import GameRegistrar

if TYPE_CHECKING:
    import typer


@hookimpl
def register_games(register: GameRegistrar) -> None:
    """Register the cat-and-mouse ruleset."""
    register(CatMouseGame)


@hookimpl
def register_commands(app: typer.Typer) -> None:
    """Add ``arena train catmouse-full``, ``arena train catmouse-window``, ``arena solve catmouse`` and
    ``arena solve catmouse-parity``."""
    from arena.builtin.catmouse.commands import add_commands

    add_commands(app)
