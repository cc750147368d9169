"""The hooks that add the pawn race to the arena: the game ``pawnrace`` and its ``arena solve`` commands."""

from typing import Any

from arena.games.pawnrace.game import PawnRaceGame
from arena.plugins.hookspecs import hookimpl


@hookimpl
def register_games(register: Any) -> None:
    """Register the pawn race."""
    register(PawnRaceGame)


@hookimpl
def register_commands(app: Any) -> None:
    """Add ``arena solve pawnrace`` and ``arena solve pawnrace-claims``."""
    from arena.games.pawnrace.commands import add_commands

    add_commands(app)
