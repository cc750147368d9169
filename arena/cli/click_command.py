"""The click command typer builds from the ``arena`` app, built once per shape of the app.

typer builds the click command anew on every call of the app: for each of the command line's 50 commands it
reads the parameters of the function behind it, evaluating every type hint, which costs about 0.1 s. A
process that runs the command line more than once (a test suite, a program driving ``arena`` in-process), or
that needs the command again to explain a usage mistake, reuses the one built for the app as it is now; a
command added to the app since builds it again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from typer._click.core import Command  # the click typer carries and builds its commands with

_built: dict[int, tuple[tuple[Any, ...], Command]] = {}


def _shape(app: typer.Typer) -> tuple[Any, ...]:
    """What the built command depends on: the app's callback, commands and groups, and theirs, by identity."""
    return (id(app.registered_callback), tuple(id(command) for command in app.registered_commands),
            tuple((id(group), _shape(group.typer_instance) if group.typer_instance is not None else ())
                  for group in app.registered_groups))


def click_command(app: typer.Typer) -> Command:
    """The click command of ``app`` as it is now (built by typer the first time, then reused)."""
    shape = _shape(app)
    found = _built.get(id(app))
    if found is not None and found[0] == shape:
        return found[1]
    command = typer.main.get_command(app)
    _built[id(app)] = (shape, command)
    return command


def forget(app: typer.Typer) -> None:
    """Build ``app``'s command again next time (its commands' parameters were changed in place)."""
    _built.pop(id(app), None)
