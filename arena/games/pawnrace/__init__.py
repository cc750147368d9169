"""The pawn race: two sides race pawns from their bases into the enemy's (Kalles and Kanellopoulos 2001).
The rules are in :mod:`~arena.games.pawnrace.rules`; the hook that registers the game is in
:mod:`arena.builtin.pawnrace.plugin`."""

from typing import TYPE_CHECKING

from arena.core.lazy_names import lazy_names

if TYPE_CHECKING:
    from arena.games.pawnrace.game import PawnRaceGame, PawnRaceObservation

__all__ = ["PawnRaceGame", "PawnRaceObservation"]

# Imported when first asked for: unpickling an observation imports its module alone, not the whole game.
__getattr__, __dir__ = lazy_names(__name__, {"PawnRaceGame": "game", "PawnRaceObservation": "game"}, globals())
