"""The version of the installed package, read from its metadata: ``pyproject.toml`` is the one place it is set.

It is read the first time it is asked for (``VERSION``, :func:`installed_version`): finding the package's
metadata takes a few milliseconds that a command which never shows the version need not spend.
"""

from __future__ import annotations

from functools import cache

DISTRIBUTION = "bot-arena"
"""The name the package is installed under."""


@cache
def installed_version() -> str:
    """The installed distribution's version, or ``0+unknown`` for a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    """``VERSION``: the installed version (see :func:`installed_version`), read when first used."""
    if name == "VERSION":
        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
