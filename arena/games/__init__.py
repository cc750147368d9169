"""The games that ship with arena, each registered through the ``register_games`` hook."""
