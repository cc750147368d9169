"""Every number option of every command, plugin commands included, checked where the command line is parsed.

A float option refuses NaN and infinity (``--time-limit nan`` would turn every time limit off), and an
option named ``seed`` takes only seeds the random generators accept; either mistake is the parser's
one-line usage error. The ``min`` and ``max`` an option declares still hold. Options that set their own
``parser`` or ``click_type`` keep it.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import typer
from typer.models import ArgumentInfo, OptionInfo

from arena.core.numbers import finite_number, seed_number


def check_number_options(app: typer.Typer) -> None:
    """Give every float option and argument of ``app`` and its groups a parser that refuses NaN and
    infinity, and every ``seed`` option one that refuses seeds out of range."""
    for name, value_type, info in parameters(app):
        if info.parser is not None or getattr(info, "click_type", None) is not None:
            continue
        parser = number_parser(name, value_type, info.min, info.max)
        if parser is not None:
            # the parser checks the range now; left set, typer would print it as "x>=0" in the help
            info.parser, info.min, info.max = parser, None, None


def number_parser(name: str, value_type: Any, minimum: float | None = None,
                  maximum: float | None = None) -> Callable[[str], Any] | None:
    """The parser a parameter called ``name`` of ``value_type`` needs, within ``minimum`` and ``maximum``
    if given; None if it needs none."""
    base = _item_type(value_type)
    if base is float:
        return _usage_error(finite_number, minimum, maximum)
    if base is int and (name == "seed" or name.endswith("_seed")):
        return _usage_error(seed_number, minimum, maximum)
    return None


def _usage_error(convert: Callable[[str], Any], minimum: float | None,
                 maximum: float | None) -> Callable[[str], Any]:
    """``convert`` checking the range, whose ``ValueError`` is a usage error with just its own message."""
    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        if minimum is not None and value < minimum:
            raise typer.BadParameter(f"must be at least {minimum:g}, not {text}")
        if maximum is not None and value > maximum:
            raise typer.BadParameter(f"must be at most {maximum:g}, not {text}")
        return value

    return parse


def parameters(app: typer.Typer) -> Iterator[tuple[str, Any, OptionInfo | ArgumentInfo]]:
    """Every option and argument of every command of ``app`` and its groups: name, type and typer info."""
    for command in app.registered_commands:
        if command.callback is None:
            continue
        function = inspect.unwrap(command.callback)
        for name, hint in typing.get_type_hints(function, include_extras=True).items():
            if typing.get_origin(hint) is not typing.Annotated:
                continue
            value_type, *extras = typing.get_args(hint)
            for info in extras:
                if isinstance(info, OptionInfo | ArgumentInfo):
                    yield name, value_type, info
    for group in app.registered_groups:
        if group.typer_instance is not None:
            yield from parameters(group.typer_instance)


def _item_type(value_type: Any) -> Any:
    """``float`` for ``float``, ``float | None`` and ``list[float] | None``."""
    if typing.get_origin(value_type) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(value_type) if arg is not type(None)]
        if len(args) != 1:
            return value_type
        value_type = args[0]
    if typing.get_origin(value_type) in (list, tuple):
        items = typing.get_args(value_type)
        return items[0] if items else value_type
    return value_type
