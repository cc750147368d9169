"""The hook that adds the pawn race to the arena as the game ``pawnrace``."""

from typing import Any

from arena.games.pawnrace.game import PawnRaceGame
from arena.plugins.hookspecs import hookimpl


@hookimpl
def register_games(register: Any) -> None:
    """Register the pawn race."""
    register(PawnRaceGame)
