"""Help pages that name what an option takes (``--games N``, ``--db PATH``), never a Python type.

Options and arguments may set their own ``metavar``; every one that does not gets a placeholder from
its type when the command line is assembled, plugin commands included. Typer would print an
argument's Python type beside its help, so arguments are described in the command's help instead. Filling
a command line again (after more commands were added to it) leaves the commands already filled as they are.
"""

from __future__ import annotations

import inspect
import textwrap
import types
import typing
import weakref
from pathlib import Path
from typing import Any

import typer
from typer.models import ArgumentInfo, CommandInfo, OptionInfo

HELP_WIDTH = 78
PLACEHOLDERS: dict[Any, str] = {int: "N", float: "NUMBER", str: "TEXT", Path: "PATH"}

_filled: weakref.WeakSet[CommandInfo] = weakref.WeakSet()
"""The commands whose help already describes their arguments."""
_described: weakref.WeakSet[ArgumentInfo] = weakref.WeakSet()
"""The arguments hidden from typer's own list because a command's help describes them (an argument type
shared by several commands is one object)."""


def fill_placeholders(app: typer.Typer) -> None:
    """Give every option and argument of ``app`` and its groups a placeholder where it has none."""
    for command in app.registered_commands:
        if command.callback is None or command in _filled:
            continue
        _filled.add(command)
        arguments = _fill(command.callback)
        if arguments:
            text = command.help or inspect.getdoc(command.callback) or ""
            lines = "\n".join(_argument_lines(name, help_text) for name, help_text in arguments)
            command.help = f"{text}\n\n\b\nArguments:\n{lines}"
    for group in app.registered_groups:
        if group.typer_instance is not None:
            fill_placeholders(group.typer_instance)


def _argument_lines(name: str, help_text: str) -> str:
    """``NAME  help``, wrapped to the width of the help page with the help's lines aligned."""
    return "\n".join(textwrap.wrap(help_text, width=HELP_WIDTH, initial_indent=f"  {name}  ",
                                    subsequent_indent=" " * (len(name) + 4)))


def _fill(callback: Any) -> list[tuple[str, str]]:
    function = inspect.unwrap(callback)
    hints = typing.get_type_hints(function, include_extras=True)
    # Annotations written as strings (``from __future__ import annotations``) are evaluated anew by
    # each reader, so the filled-in objects are put back for typer to read.
    function.__annotations__ = hints
    arguments = []
    for name, hint in hints.items():
        if name == "return" or typing.get_origin(hint) is not typing.Annotated:
            continue
        value_type, *extras = typing.get_args(hint)
        for info in extras:
            if isinstance(info, OptionInfo | ArgumentInfo) and info.metavar is None:
                info.metavar = placeholder(value_type, name, isinstance(info, ArgumentInfo))
            if isinstance(info, ArgumentInfo) and info.help and (not info.hidden or info in _described):
                arguments.append((info.metavar or name.upper(), info.help))
                info.hidden = True
                _described.add(info)
    return arguments


def placeholder(value_type: Any, name: str, argument: bool) -> str:
    """The placeholder of a value of ``value_type``: ``""`` for a flag, the name in capitals for an argument."""
    base = _without_none(value_type)
    repeated = typing.get_origin(base) is list
    if repeated:
        base = typing.get_args(base)[0]
    if base is bool:
        return ""
    if argument:
        return name.upper()
    return PLACEHOLDERS.get(base, "VALUE")


def _without_none(value_type: Any) -> Any:
    args = [arg for arg in typing.get_args(value_type) if arg is not type(None)]
    if typing.get_origin(value_type) in (typing.Union, types.UnionType) and len(args) == 1:
        return args[0]
    return value_type
