"""Start the ``arena`` command line loading only what the command given needs.

A command line that names a built-in command (``arena tournament ...``, ``arena check bot ...``) imports only
the module that defines it, and no plugin: typer builds every loaded command's parameters before it runs
one, so loading the 50 others cost a command a good part of its start-up. Anything else (``arena``,
``arena --help``, ``arena --version``, a plugin's command, a typo that needs "No such command") gets the whole
command line, every module below and then the commands plugins add, as :mod:`arena.cli.main` assembles it.
The ``arena`` script (:mod:`arena.__main__`) makes the choice with :func:`command_module`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Sequence
from typing import NoReturn

import typer
from rich.markup import escape

from arena.cli.app import app
from arena.cli.click_command import click_command, forget
from arena.cli.numbers import check_number_options
from arena.cli.placeholders import fill_placeholders
from arena.cli.usage import missing_value

COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "arena.cli.play": ("play",),
    "arena.cli.tournament": ("tournament",),
    "arena.cli.ladder": ("ladder",),
    "arena.cli.results": ("runs", "show", "ratings"),
    "arena.cli.analysis": ("compare", "report"),
    "arena.cli.records": ("export", "replay"),
    "arena.cli.league": (
        "league new", "league add-team", "league add-teams", "league remove-team", "league rename-team",
        "league rotate-token", "league revoke-token", "league submit", "league activate", "league disable",
        "league pause",
        "league resume", "league recompute", "league add-map", "league teams", "league versions",
        "league standings", "league queue", "league workers", "league challenge", "league final",
        "league final-table", "league run"),
    "arena.cli.serve": ("serve", "submit"),
    "arena.cli.playability": ("playability",),
    "arena.cli.catalog": ("games", "maps", "bots", "plugins"),
    "arena.cli.check": ("check game", "check bot"),
}
"""Each built-in command module, in the order ``arena --help`` lists their commands within its panels (a group
after the other commands of its panel), with the commands it adds; a group's as ``group command`` (plugins may
add commands to a group, so naming a group alone loads them all)."""


def command_module(argv: Sequence[str]) -> str | None:
    """The module defining the built-in command that the arguments ``argv`` run; None when they need the
    whole command line (no command, a global option first, a plugin's command, an unknown name)."""
    named = {argv[0], " ".join(argv[:2])} if argv else set()
    for module, commands in COMMAND_MODULES.items():
        if named.intersection(commands):
            return module
    return None


def assemble(modules: Iterable[str], plugin_commands: bool = False) -> typer.Typer:
    """The ``arena`` app with the commands of ``modules`` (and, with ``plugin_commands``, those the loaded
    plugins add), every placeholder filled and every number option checked. Safe to call again with more."""
    for module in modules:
        importlib.import_module(module)
    if plugin_commands:
        add_plugin_commands(app)
    fill_placeholders(app)
    check_number_options(app)
    forget(app)
    return app


def add_plugin_commands(target: typer.Typer) -> None:
    """Let every plugin found (built-in games, entry points; not bot folders) add its commands to ``target``.

    A plugin that fails to is one warning line: it must not take the command line down.
    """
    from arena.cli.common import warn
    from arena.core.errors import ArenaError
    from arena.plugins.calling import call_hook
    from arena.plugins.registry import PluginConfig, load_registry

    try:
        registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    except ArenaError:
        return
    if registry.manager is None:
        return
    for failure in call_hook(registry.manager, "register_commands", app=target).failures:
        warn(f"register_commands failed: {failure}")


def run(command_line: typer.Typer, argv: Sequence[str]) -> NoReturn:
    """Run ``command_line`` on the arguments ``argv`` and exit with its status: a command-line mistake is one
    line on stderr and exit status 2 (an option without its value names what it takes), Ctrl-C at a prompt
    "aborted" and status 1."""
    from arena.cli.common import err

    try:
        code = click_command(command_line).main(args=list(argv), standalone_mode=False, prog_name="arena")
    except typer.TyperException as exc:  # a usage mistake, as the command-line parser reports it
        context = getattr(exc, "ctx", None)
        message, command = exc.format_message().rstrip("."), context.command_path if context is not None else None
        missing = missing_value(command_line, argv, exc)
        if missing is not None:
            message, command = missing
        hint = f" (see '{command} --help')" if command is not None else ""
        err.print(f"[bold red]error:[/] {escape(message)}{hint}", highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        err.print("aborted", highlight=False)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
