"""The hooks that add Tron to the arena: the games ``tron`` (AI Challenge and Brown rule sets) and
``snafu``, and the Tron commands."""

from typing import Any

from arena.games.tron.game import TronGame
from arena.games.tron.snafu import SnafuGame
from arena.plugins.hookspecs import hookimpl


@hookimpl
def register_games(register: Any) -> None:
    """Register Tron and its Snafu variant."""
    register(TronGame)
    register(SnafuGame)


@hookimpl
def register_commands(app: Any) -> None:
    """Add the Tron commands (``arena import-aic``, ``arena train tron-eval`` and ``snafu-cla``, ``arena
    experiment snafu-scaling``)."""
    from arena.games.tron.commands import add_commands

    add_commands(app)
