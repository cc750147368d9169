"""The plugins of the games that ship with arena, and their commands (as llm's ``default_plugins``).

One subpackage a game: ``plugin`` is the hook module that registers the game (and its playability study), and
``commands`` the CLI it adds (``arena solve``, ``arena train`` and the like). They are registered through the
same hooks a third party's plugin uses (:data:`arena.plugins.registry.BUILTIN_PLUGINS` names them), so a
game's own package (:mod:`arena.games`) holds only its rules, observation and rendering.

These modules sit with the command line, at the top of the layers: they may import :mod:`arena.cli`, the
games' rules (:mod:`arena.games`), engines (:mod:`arena.engines`) and learners (:mod:`arena.learning`), and
everything below; nothing in arena imports them but the plugin registry, by name. A game's modules here
import no other game's.
"""
