"""Tron light cycles, registered as the games ``tron`` (AI Challenge and Brown rule sets) and ``snafu``."""

from typing import Any

from arena.games.tron.game import TronGame
from arena.games.tron.observation import PowerupObservation, TronObservation
from arena.games.tron.snafu import SnafuGame, SnafuObservation, open_map
from arena.hookspecs import hookimpl

__all__ = ["PowerupObservation", "SnafuGame", "SnafuObservation", "TronGame", "TronObservation", "open_map"]


@hookimpl
def register_games(register: Any) -> None:
    """Register Tron and its Snafu variant."""
    register(TronGame)
    register(SnafuGame)
