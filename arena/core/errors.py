"""The one error family the library raises for anything a user can get wrong."""

from __future__ import annotations


class ArenaError(Exception):
    """A problem with user input (a map, a bot spec, an option): one clear sentence, no traceback."""


class MapError(ArenaError):
    """A map file that cannot be used; the message names file, line and column."""


class BotSpecError(ArenaError):
    """A bot spec string that names an unknown bot or parameter, or cannot be parsed."""


class UnknownGameError(ArenaError):
    """A game name that no plugin registered."""
