"""The whole ``arena`` command line: every built-in command module, then the commands plugins add.

``from arena.cli.main import app`` gives it, as ``arena --help`` shows it; the ``arena`` script assembles only
the command it runs when it can (:mod:`arena.cli.launch`).
"""

from __future__ import annotations

import sys
from typing import NoReturn

from arena.cli.launch import COMMAND_MODULES, assemble, run

app = assemble(COMMAND_MODULES, plugin_commands=True)


def main() -> NoReturn:
    """Run the whole command line on this program's arguments: command-line mistakes are one line and exit
    status 2."""
    run(app, sys.argv[1:])


__all__ = ["app", "main"]
