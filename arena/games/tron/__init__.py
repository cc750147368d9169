"""Tron light cycles: the rules, the AI Challenge and Brown rule sets, and Snafu. The search the strong bots
share is in :mod:`arena.engines.tron`; the hooks that register the games and their commands are in
:mod:`arena.builtin.tron.plugin`."""

from arena.games.tron.game import TronGame
from arena.games.tron.observation import PowerupObservation, TronObservation
from arena.games.tron.snafu import SnafuGame, SnafuObservation, open_map

__all__ = ["PowerupObservation", "SnafuGame", "SnafuObservation", "TronGame", "TronObservation", "open_map"]
