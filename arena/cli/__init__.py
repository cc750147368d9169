"""The ``arena`` command line: one module per command group, the typer ``app`` in :mod:`arena.cli.app`.

The top layer: it may import any other, and nothing below imports it (game plugins add their
commands through the ``register_commands`` hook).
"""
