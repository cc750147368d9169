"""Tron light cycles, registered as the game ``tron``."""

from arena.games.tron.game import TronGame, TronObservation
from arena.hookspecs import hookimpl

__all__ = ["TronGame", "TronObservation"]


@hookimpl
def register_games(register):
    """Register the Tron ruleset."""
    register(TronGame)
