"""Usage mistakes in words a user can act on: an option given without its value names what it takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer

from arena.cli.click_command import click_command


def missing_value(app: typer.Typer, argv: Sequence[str], exc: Exception) -> tuple[str, str] | None:
    """For an option given without its value (``arena report --html``), the error naming the option, its
    placeholder and its help, with the command it belongs to; None for any other mistake."""
    option = getattr(exc, "option_name", None)
    if not option or "requires" not in str(getattr(exc, "message", exc)):
        return None
    command: Any = click_command(app)
    path = ["arena"]
    for token in argv:
        sub = getattr(command, "commands", {}).get(token)
        if sub is not None:
            command, path = sub, [*path, token]
    for param in getattr(command, "params", []):
        if option in (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())):
            takes = f" ({param.metavar})" if getattr(param, "metavar", None) else ""
            purpose = (param.help or "").split(" [default")[0].strip().rstrip(".")
            purpose = purpose[:1].lower() + purpose[1:]
            return f"{option} needs a value{takes}" + (f": {purpose}" if purpose else ""), " ".join(path)
    return f"{option} needs a value", " ".join(path)
