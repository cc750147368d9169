"""The hooks that add OpenSpiel's games to the arena, through the same hooks a third party's plugin uses.

With OpenSpiel installed (the ``openspiel`` extra), every game :func:`~arena.games.openspiel.loading.playable_types`
lists is registered as ``openspiel:NAME``, with ``openspiel-random`` for all of them and ``openspiel-mcts`` for
those of perfect information with one mover a turn. Without it, a stand-in game ``openspiel:*`` is registered
so that asking for an OpenSpiel game says how to install it (:meth:`arena.plugins.registry.Registry.game`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.openspiel.loading import available, playable_types
from arena.plugins.hookspecs import hookimpl
from arena.plugins.registrars import BotRegistrar, GameRegistrar

if TYPE_CHECKING:
    import typer


@hookimpl
def register_games(register: GameRegistrar) -> None:
    """Register every OpenSpiel game, or the stand-in that says how to install OpenSpiel."""
    if not available():
        from arena.games.openspiel.missing import MissingOpenSpiel

        register(MissingOpenSpiel)
        return
    from arena.games.openspiel.game import game_class

    for kind in playable_types():
        register(game_class(kind))


@hookimpl
def register_bots(register: BotRegistrar) -> None:
    """Register OpenSpiel's random bot for every OpenSpiel game and its MCTS bot for those it can search."""
    if not available():
        return
    from arena.builtin.openspiel.bots import OpenSpielMcts, OpenSpielRandom, mcts_plays
    from arena.games.openspiel.loading import PREFIX

    kinds = playable_types()
    every = tuple(PREFIX + kind.short_name for kind in kinds)
    searched = tuple(PREFIX + kind.short_name for kind in kinds if mcts_plays(kind))
    for base, games in ((OpenSpielRandom, every), (OpenSpielMcts, searched)):
        register(type(base.__name__, (base,), {"games": games, "__module__": base.__module__,
                                              "__doc__": base.__doc__}))


@hookimpl
def register_commands(app: typer.Typer) -> None:
    """Add ``arena openspiel sweep``."""
    from arena.builtin.openspiel.commands import add_commands

    add_commands(app)
