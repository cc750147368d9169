"""The ``arena`` command line as one click command, for the generated CLI reference.

``arena.cli.main`` assembles the typer app: every built-in command module, then the commands that plugins add
through ``register_commands`` (the built-in games add theirs: ``train``, ``solve``, ``experiment``).
"""

import typer

from arena.cli.main import app

command = typer.main.get_command(app)
