"""Tron light cycles: the rules, the AI Challenge and Brown rule sets, Snafu, and the search the strong
bots share. The hooks that register the games and their commands are in :mod:`arena.games.tron.plugin`."""

from arena.games.tron.game import TronGame
from arena.games.tron.observation import PowerupObservation, TronObservation
from arena.games.tron.snafu import SnafuGame, SnafuObservation, open_map

__all__ = ["PowerupObservation", "SnafuGame", "SnafuObservation", "TronGame", "TronObservation", "open_map"]
