"""The ``arena`` command line assembled: every command module, then the commands plugins add."""

from __future__ import annotations

import sys

import typer
from rich.markup import escape

from arena.cli.app import app
from arena.cli.common import err
from arena.cli.numbers import check_number_options
from arena.cli.placeholders import fill_placeholders
from arena.cli.usage import missing_value
from arena.core.errors import ArenaError
from arena.plugins.calling import call_hook
from arena.plugins.registry import PluginConfig, load_registry

# Each command module adds its commands; --help lists them in this order.
from arena.cli import analysis, catalog, check, play, playability, records  # noqa: F401  # isort: skip
from arena.cli import tournament, results, ladder, league, serve  # noqa: F401  # isort: skip


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
fill_placeholders(app)
check_number_options(app)


def main() -> None:
    """Entry point of the ``arena`` console script: command-line mistakes are one line and exit status 2."""
    try:
        code = app(standalone_mode=False, prog_name="arena")
    except typer.TyperException as exc:  # a usage mistake, as the command-line parser reports it
        context = getattr(exc, "ctx", None)
        message, command = exc.format_message().rstrip("."), context.command_path if context is not None else None
        missing = missing_value(app, sys.argv[1:], exc)
        if missing is not None:
            message, command = missing
        hint = f" (see '{command} --help')" if command is not None else ""
        err.print(f"[bold red]error:[/] {escape(message)}{hint}", highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        err.print("aborted", highlight=False)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
