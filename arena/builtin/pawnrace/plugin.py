"""The hooks that add the pawn race to the arena: the game ``pawnrace``, its playability study and its
``arena solve`` and ``arena train`` commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.pawnrace.game import PawnRaceGame
from arena.plugins.hookspecs import hookimpl
from arena.plugins.registrars import GameRegistrar, StudyRegistrar

if TYPE_CHECKING:
    import typer


@hookimpl
def register_games(register: GameRegistrar) -> None:
    """Register the pawn race."""
    register(PawnRaceGame)


@hookimpl
def register_studies(register: StudyRegistrar) -> None:
    """Register the pawn race's TD(lambda) learners for ``arena playability pawnrace``."""
    from arena.learning.pawnrace.study import PawnRaceStudy

    register(PawnRaceStudy())


@hookimpl
def register_commands(app: typer.Typer) -> None:
    """Add ``arena solve pawnrace`` and ``arena solve pawnrace-claims``."""
    from arena.builtin.pawnrace.commands import add_commands

    add_commands(app)
