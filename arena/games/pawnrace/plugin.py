"""The hooks that add the pawn race to the arena: the game ``pawnrace``, its playability study and its
``arena solve`` and ``arena train`` commands."""

from typing import Any

from arena.games.pawnrace.game import PawnRaceGame
from arena.plugins.hookspecs import hookimpl


@hookimpl
def register_games(register: Any) -> None:
    """Register the pawn race."""
    register(PawnRaceGame)


@hookimpl
def register_studies(register: Any) -> None:
    """Register the pawn race's TD(lambda) learners for ``arena playability pawnrace``."""
    from arena.learning.pawnrace.study import PawnRaceStudy

    register(PawnRaceStudy())


@hookimpl
def register_commands(app: Any) -> None:
    """Add ``arena solve pawnrace`` and ``arena solve pawnrace-claims``."""
    from arena.games.pawnrace.commands import add_commands

    add_commands(app)
