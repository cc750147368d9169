"""What every command shares: consoles, the error decorator, option types, and table output."""

from __future__ import annotations

import functools
import math
import sqlite3
from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from arena.cli.progress import GamesProgress
from arena.core.errors import ArenaError
from arena.core.json_files import json_text
from arena.play.sandbox import SandboxLimits, require_sandbox
from arena.play.sandbox.probe import SandboxProbe
from arena.plugins.registry import PluginConfig, Registry, load_registry
from arena.report.failures import BotFailures, failure_lines, failures_from_summaries
from arena.report.row_export import csv_text, md_cell
from arena.report.tables import FORMATS, rich_table
from arena.storage.store import Store
from arena.storage.summary_queries import failure_summaries

out = Console()
err = Console(stderr=True)

BotsDir = Annotated[list[Path] | None, typer.Option(
    "--bots-dir", help="Another directory of bot modules (repeatable).", show_default=False)]
Format = Annotated[str, typer.Option("--format", "-f", help=f"Output format: {', '.join(FORMATS)}.")]
Options = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE", help="A game option as KEY=VALUE, e.g. moves=alternating (repeatable).",
    show_default=False)]
Size = Annotated[str | None, typer.Option(
    "--size", metavar="WxH", show_default=False,
    help="An open WIDTHxHEIGHT board, e.g. 15x15, for games played on any size: no map needed.")]
Db = Annotated[Path | None, typer.Option(
    "--db", help="The results database [default: $ARENA_DB, else ./arena.db].", show_default=False)]
ExecutorName = Annotated[str | None, typer.Option(
    "--executor", help="Where games run: local (worker processes here) or ray (a Ray cluster) [default: local].",
    show_default=False)]
Address = Annotated[str | None, typer.Option(
    "--address", help="The Ray cluster, e.g. auto or 10.0.0.5:6379 [default: $RAY_ADDRESS, else a local Ray].",
    show_default=False)]
SandboxFlag = Annotated[bool, typer.Option(
    "--sandbox", help="Run every bot, Python bots too, confined in bubblewrap (no network, its own files read-only, "
                      "hard limits): for other people's bots. Implies one process per bot.")]
BuildTimeout = Annotated[float | None, typer.Option(
    "--build-timeout", metavar="SECONDS", show_default=False,
    help="Seconds every program bot's build may take, over its manifest's build_timeout "
         "[default: the manifest's, else 120].")]
StartupTimeout = Annotated[float | None, typer.Option(
    "--startup-timeout", metavar="SECONDS", show_default=False,
    help="Seconds every program bot may take to start and say ready, over its manifest's startup_timeout "
         "(an exec: spec's own startup_timeout= still wins) [default: the manifest's, else 10].")]


USAGE_EXIT_CODE = 2
"""The exit status of a command given bad input: arguments, files, bots, maps or runs that don't exist."""


def user_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn an :class:`ArenaError` (or a database found corrupt while reading it) into one line on stderr
    and exit status 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except ArenaError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
            raise typer.Exit(USAGE_EXIT_CODE) from None
        except sqlite3.DatabaseError as exc:  # the part of a database checked before writing, met while reading
            problem = ("the database cannot be written here (a read-only file or directory?)"
                       if "readonly" in str(exc) else "the database is corrupt or unreadable")
            err.print(f"[bold red]error:[/] {problem} ({escape(str(exc))})", highlight=False, soft_wrap=True)
            raise typer.Exit(USAGE_EXIT_CODE) from None

    return wrapper


def command_group(app: typer.Typer, name: str, help_text: str, panel: str | None = None) -> typer.Typer:
    """The sub-command group ``name`` of ``app`` (such as ``train``), created if no plugin has added it yet,
    listed by ``arena --help`` under ``panel`` (:mod:`arena.cli.panels`; the first panel given wins).

    Plugins add their commands to shared groups through this, so ``arena train`` lists every plugin's.
    """
    for group in app.registered_groups:
        if group.name == name and group.typer_instance is not None:
            if group.rich_help_panel is None:
                group.rich_help_panel = panel
            return group.typer_instance
    group_app = typer.Typer(help=help_text, no_args_is_help=True, add_completion=False, rich_markup_mode=None)
    app.add_typer(group_app, name=name, rich_help_panel=panel)
    return group_app


def parse_options(values: list[str] | None) -> dict[str, str]:
    """``["moves=alternating", ...]`` as a dict; a value without ``=`` is an error."""
    options: dict[str, str] = {}
    for value in values or []:
        key, sep, setting = value.partition("=")
        if not sep or not key.strip():
            raise ArenaError(f"--option {value!r} is not KEY=VALUE")
        options[key.strip()] = setting.strip()
    return options


def plugin_config(bots_dir: list[Path] | None, build_timeout: float | None = None,
                  startup_timeout: float | None = None, sandbox: SandboxLimits | None = None) -> PluginConfig:
    """Where to find plugins and bots, given the ``--bots-dir`` values, with the program bots' budgets
    ``--build-timeout`` and ``--startup-timeout`` (each a positive number of seconds, if given). With
    ``sandbox`` (``--sandbox``'s limits) bot modules are checked inside the sandbox and never imported here."""
    for flag, value in (("--build-timeout", build_timeout), ("--startup-timeout", startup_timeout)):
        if value is not None and not (value > 0 and math.isfinite(value)):
            raise ArenaError(f"{flag} must be a positive number of seconds, not {value:g}")
    if sandbox is not None:
        require_sandbox()
    return PluginConfig(bot_dirs=tuple(str(d) for d in bots_dir or ()), build_timeout=build_timeout,
                        startup_timeout=startup_timeout, confined=None if sandbox is None else SandboxProbe(sandbox))


def confined_config(config: PluginConfig, sandbox: SandboxLimits | None) -> PluginConfig:
    """``config``, its bot modules checked inside the sandbox when ``sandbox`` is given (a tournament file's
    ``sandbox`` key, a resumed sandboxed run's limits) and they are not already."""
    if sandbox is None or config.confined is not None:
        return config
    require_sandbox()
    return replace(config, confined=SandboxProbe(sandbox))


def print_failures(failures: list[BotFailures], fmt: str = "table") -> None:
    """Print the Failures section: after the tables on stdout, or on stderr when stdout is md, csv or json."""
    lines = failure_lines(failures)
    if lines:
        (out if fmt == "table" else err).print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)


def run_failures(store: Store, run_id: int) -> list[BotFailures]:
    """Each bot's failures in stored run ``run_id``."""
    return failures_from_summaries(failure_summaries(store, run_id))


def warn(message: str) -> None:
    """Print one warning line on stderr."""
    err.print(f"[yellow]warning:[/] {escape(message)}", highlight=False, soft_wrap=True)


def load_registry_reporting(config: PluginConfig) -> Registry:
    """Load the registry and print one warning line on stderr for each problem met."""
    registry = load_registry(config)
    for problem in registry.problems:
        warn(problem)
    return registry


def short_path(source: str) -> str:
    """``source`` relative to the current directory where it lies below it."""
    try:
        return str(Path(source).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return source


def check_output_format(fmt: str) -> None:
    """Reject an output format that is not one of ``FORMATS``."""
    if fmt not in FORMATS:
        raise ArenaError(f"--format {fmt!r} is not one of: {', '.join(FORMATS)}")


def emit_table(headers: list[str], rows: list[list[str]], fmt: str, title: str, *, names: Collection[str] = (),
               prose: Collection[str] = ()) -> None:
    """Print a table as rich (``table``), ``md``, ``csv`` or ``json``.

    On a console the columns headed ``names`` stay on one line (a name is cut with an ellipsis, never split);
    the others wrap at spaces first: in those headed ``prose`` (text holding names) a word too long is cut
    with an ellipsis, in the rest it is broken across lines.
    """
    if fmt == "table":
        out.print(rich_table(title, headers, rows, names=[i for i, h in enumerate(headers) if h in names],
                             prose=[i for i, h in enumerate(headers) if h in prose]))
    elif fmt == "json":
        typer.echo(json_text([dict(zip(headers, row, strict=True)) for row in rows]))
    elif fmt == "csv":
        typer.echo(csv_text(headers, rows), nl=False)  # safe to open in a spreadsheet
    else:
        from tabulate import tabulate  # only Markdown needs it: a command that prints no Markdown never loads it

        typer.echo(tabulate([[md_cell(cell) for cell in row] for row in rows], headers, tablefmt="github"))


def games_progress() -> GamesProgress:
    """Progress of games on stderr: a live bar on a terminal, else a plain line every tenth (or 30 s)."""
    return GamesProgress(err)
