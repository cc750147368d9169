"""OpenSpiel's games (``open_spiel``, the ``openspiel`` extra) as arena games: ``openspiel:connect_four`` and
every other game ``pyspiel.registered_games()`` can load.

:mod:`.loading` imports pyspiel lazily and turns arena options into OpenSpiel game parameters,
:mod:`.game` wraps a pyspiel state as a :class:`~arena.core.game.Game` (chance nodes drawn from the game's
seed, returns as ranks), :mod:`.observation` is what a bot sees (text, tensor, legal action ids).
"""
