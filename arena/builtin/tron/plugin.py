"""The hooks that add Tron to the arena: the games ``tron`` (AI Challenge and Brown rule sets) and
``snafu``, and the Tron commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.tron.game import TronGame
from arena.games.tron.snafu import SnafuGame
from arena.plugins.hookspecs import hookimpl
from arena.plugins.registrars import GameRegistrar

if TYPE_CHECKING:
    import typer


@hookimpl
def register_games(register: GameRegistrar) -> None:
    """Register Tron and its Snafu variant."""
    register(TronGame)
    register(SnafuGame)


@hookimpl
def register_commands(app: typer.Typer) -> None:
    """Add the Tron commands (``arena import-aic``, ``arena train tron-eval`` and ``snafu-cla``, ``arena
    experiment snafu-scaling``)."""
    from arena.builtin.tron.commands import add_commands

    add_commands(app)
