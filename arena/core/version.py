"""The version of the installed package, read from its metadata: ``pyproject.toml`` is the one place it is set."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "bot-arena"
"""The name the package is installed under."""


def installed_version() -> str:
    """The installed distribution's version, or ``0+unknown`` for a source tree that was never installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


VERSION = installed_version()
