"""The pawn race: two sides race pawns from their bases into the enemy's (Kalles and Kanellopoulos 2001).
The rules are in :mod:`~arena.games.pawnrace.rules`; the hook that registers the game is in
:mod:`arena.builtin.pawnrace.plugin`."""

from arena.games.pawnrace.game import PawnRaceGame, PawnRaceObservation

__all__ = ["PawnRaceGame", "PawnRaceObservation"]
