"""MkDocs hook: lets the CLI reference page import the ``arena`` command as a click command."""

import sys
from pathlib import Path


def on_config(config):
    """Put this folder on the import path, so mkdocs-click finds ``arena_cli_command``."""
    folder = str(Path(__file__).resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return config
