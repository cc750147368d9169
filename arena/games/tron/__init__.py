"""Tron light cycles, registered as the games ``tron`` (AI Challenge and Brown rule sets) and ``snafu``,
with the ``arena train tron-eval`` command."""

from typing import Any

from arena.games.tron.game import TronGame
from arena.games.tron.observation import PowerupObservation, TronObservation
from arena.games.tron.snafu import SnafuGame, SnafuObservation, open_map
from arena.plugins.hookspecs import hookimpl

__all__ = ["PowerupObservation", "SnafuGame", "SnafuObservation", "TronGame", "TronObservation", "open_map"]


@hookimpl
def register_games(register: Any) -> None:
    """Register Tron and its Snafu variant."""
    register(TronGame)
    register(SnafuGame)


@hookimpl
def register_commands(app: Any) -> None:
    """Add ``arena train tron-eval``."""
    from arena.games.tron.commands import add_commands

    add_commands(app)
