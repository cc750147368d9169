"""The ``arena`` command line assembled: every command module, then the commands plugins add."""

from __future__ import annotations

from rich.markup import escape

from arena.cli import analysis, catalog, play, records, results  # noqa: F401 - each module adds its commands
from arena.cli.app import app
from arena.cli.common import err
from arena.core.errors import ArenaError
from arena.plugins.calling import call_hook
from arena.plugins.registry import PluginConfig, load_registry


def _load_plugin_commands() -> None:
    try:
        registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    except ArenaError:
        return
    if registry.manager is None:
        return
    for failure in call_hook(registry.manager, "register_commands", app=app).failures:
        # one broken plugin must not take the command line down
        err.print(f"[yellow]warning:[/] register_commands failed: {escape(str(failure))}",
                  highlight=False, soft_wrap=True)

_load_plugin_commands()


def main() -> None:
    """Entry point of the ``arena`` console script."""
    app()


__all__ = ["app", "main"]
