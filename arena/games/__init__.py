"""The games that ship with arena: each game's rules, its :class:`~arena.core.game.Game`, observation, rendering,
importers and defaults, and nothing more.

A game's package imports :mod:`arena.core` and its own modules only: never :mod:`arena.cli` nor
:mod:`arena.learning`. Its solvers, searches and policies are in :mod:`arena.engines`, and the plugin that
registers it (through the ``register_games`` hook) and its commands in :mod:`arena.builtin`.
"""
