"""Chess, its rules from python-chess (the ``chess`` extra): the game in :mod:`~arena.games.chess.game`, start
positions in :mod:`~arena.games.chess.position`, adjudication in :mod:`~arena.games.chess.adjudication`; the hook
that registers it is in :mod:`arena.builtin.chess.plugin`."""

from typing import TYPE_CHECKING

from arena.core.lazy_names import lazy_names

if TYPE_CHECKING:
    from arena.games.chess.game import ChessGame
    from arena.games.chess.observation import ChessObservation

__all__ = ["ChessGame", "ChessObservation"]

# Imported when first asked for: unpickling an observation imports its module alone, not python-chess.
__getattr__, __dir__ = lazy_names(__name__, {"ChessGame": "game", "ChessObservation": "observation"}, globals())
