"""The hooks that add OpenSpiel's games to the arena, through the same hooks a third party's plugin uses.

With OpenSpiel installed (the ``openspiel`` extra), every game
:func:`~arena.games.openspiel.catalog.playable_games` lists is registered as ``openspiel:NAME``, with
``openspiel-random`` for all of them and ``openspiel-mcts`` for those of perfect information with one mover a
turn. What registering needs is read from a cache (:mod:`arena.games.openspiel.catalog`), so loading the
registry does not import pyspiel. Without OpenSpiel, a stand-in game ``openspiel:*`` is registered so that
asking for an OpenSpiel game says how to install it (:meth:`arena.plugins.registry.Registry.game`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.core.errors import ArenaError
from arena.games.openspiel.catalog import available, playable_games
from arena.plugins.hookspecs import hookimpl
from arena.plugins.registrars import BotRegistrar, GameRegistrar

if TYPE_CHECKING:
    from collections.abc import Iterable

    import typer

    from arena.games.openspiel.catalog import GameFacts


def _playable() -> Iterable[GameFacts] | None:
    """The games to register, or ``None`` when OpenSpiel is not installed (or its pyspiel fails to import)."""
    if not available():
        return None
    try:
        return playable_games().values()
    except ArenaError:
        return None


@hookimpl
def register_games(register: GameRegistrar) -> None:
    """Register every OpenSpiel game, or the stand-in that says how to install OpenSpiel."""
    games = _playable()
    if games is None:
        from arena.games.openspiel.missing import MissingOpenSpiel

        register(MissingOpenSpiel)
        return
    from arena.games.openspiel.game import class_named

    for facts in games:
        register(class_named(facts.short_name))


@hookimpl
def register_bots(register: BotRegistrar) -> None:
    """Register OpenSpiel's random bot for every OpenSpiel game and its MCTS bot for those it can search."""
    games = _playable()
    if games is None:
        return
    from arena.builtin.openspiel.bots import OpenSpielMcts, OpenSpielRandom
    from arena.games.openspiel.loading import PREFIX

    every = tuple(PREFIX + facts.short_name for facts in games)
    searched = tuple(PREFIX + facts.short_name for facts in games if facts.mcts)
    for base, names in ((OpenSpielRandom, every), (OpenSpielMcts, searched)):
        register(type(base.__name__, (base,), {"games": names, "__module__": base.__module__,
                                              "__doc__": base.__doc__}))


@hookimpl
def register_commands(app: typer.Typer) -> None:
    """Add ``arena openspiel sweep``."""
    from arena.builtin.openspiel.commands import add_commands

    add_commands(app)
