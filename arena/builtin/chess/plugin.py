"""The hook that adds chess to the arena, when python-chess (the ``chess`` extra) is installed.

Without it the game is not registered, so every other game still loads; ``pip install 'bot-arena[chess]'``
adds it. Engines play it over the ``uci`` protocol (:mod:`arena.plugins.programs.uci`).
"""

from __future__ import annotations

import importlib.util

from arena.plugins.hookspecs import hookimpl
from arena.plugins.registrars import GameRegistrar


@hookimpl
def register_games(register: GameRegistrar) -> None:
    """Register chess if python-chess can be imported."""
    if importlib.util.find_spec("chess") is None:
        return
    from arena.games.chess.game import ChessGame

    register(ChessGame)
