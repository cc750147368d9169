"""typer's test runner, invoking the click command the ``arena`` script runs: built once per shape of the app
(:mod:`arena.cli.click_command`) instead of on every call, which costs a test about 0.1 s an invocation."""

import typer.testing

from arena.cli.click_command import click_command

typer.testing._get_command = click_command  # what typer's runner builds the command with: the same command, reused
CliRunner = typer.testing.CliRunner

__all__ = ["CliRunner"]
