"""Tron light cycles: the rules, the AI Challenge and Brown rule sets, and Snafu. The search the strong bots
share is in :mod:`arena.engines.tron`; the hooks that register the games and their commands are in
:mod:`arena.builtin.tron.plugin`."""

from typing import TYPE_CHECKING

from arena.core.lazy_names import lazy_names

if TYPE_CHECKING:
    from arena.games.tron.game import TronGame
    from arena.games.tron.observation import PowerupObservation, TronObservation
    from arena.games.tron.snafu import SnafuGame, SnafuObservation, open_map

__all__ = ["PowerupObservation", "SnafuGame", "SnafuObservation", "TronGame", "TronObservation", "open_map"]

# Imported when first asked for: unpickling an observation imports its module alone, not the whole game.
__getattr__, __dir__ = lazy_names(__name__, {
    "TronGame": "game", "PowerupObservation": "observation", "TronObservation": "observation",
    "SnafuGame": "snafu", "SnafuObservation": "snafu", "open_map": "snafu"}, globals())
