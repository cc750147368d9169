"""Names of teams and bots: short, safe in a URL and a file name (``alice/hugger``)."""

from __future__ import annotations

import re

from arena.core.errors import ArenaError

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")


def check_name(name: str, what: str) -> str:
    """``name`` if it is a valid team or bot name (``what`` says which), else an :class:`ArenaError`."""
    if not NAME.match(name):
        raise ArenaError(f"{what} name {name!r}: use 1 to 32 letters, digits, - or _, "
                         "starting with a letter or digit")
    return name
