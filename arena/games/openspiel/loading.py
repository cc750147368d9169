"""Loading OpenSpiel games: pyspiel imported only when a game is loaded, parameters checked in one line.

A game's parameters are arena options (``-o rows=6``, a tournament's ``options``, a map header): each must be
one of the game's parameters (:mod:`.catalog` lists them with their defaults) and is read as
the type of its default (``true``/``false`` for a flag). Only the parameters given are passed on; the rest
keep OpenSpiel's defaults.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from arena.core.errors import ArenaError

PREFIX = "openspiel:"
"""What an OpenSpiel game's arena name starts with: ``openspiel:`` and OpenSpiel's short name."""
INSTALL_HINT = "OpenSpiel is not installed: pip install 'bot-arena[openspiel]' to play OpenSpiel's games"


def pyspiel_module() -> Any:
    """The ``pyspiel`` module, or a one-line error saying how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise ArenaError(INSTALL_HINT) from None
    return pyspiel


def _coerce(name: str, key: str, value: str, default: Any) -> Any:
    """``value`` (text) read as the type of the parameter's ``default``."""
    if isinstance(default, bool):
        if value.lower() in ("true", "1", "yes", "on"):
            return True
        if value.lower() in ("false", "0", "no", "off"):
            return False
        raise ArenaError(f"game {name!r}: parameter {key} = {value!r} is not true or false")
    for kind, word in ((int, "a whole number"), (float, "a number")):
        if isinstance(default, kind):
            try:
                return kind(value)
            except ValueError:
                raise ArenaError(f"game {name!r}: parameter {key} = {value!r} is not {word}") from None
    if isinstance(default, str):
        return value
    raise ArenaError(f"game {name!r}: parameter {key} takes a game, which arena does not pass")


def parameters(short_name: str, given: Mapping[str, str], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters ``given`` (arena options as text) name, typed, or a one-line error."""
    typed: dict[str, Any] = {}
    for key, value in given.items():
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise ArenaError(f"game {PREFIX}{short_name} has no parameter {key!r} (known: {known})")
        typed[key] = _coerce(PREFIX + short_name, key, str(value), defaults[key])
    return typed


def option_text(value: Any) -> str:
    """A parameter's value as an arena option (text): ``true``/``false`` for a flag."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def game_string(short_name: str, params: Mapping[str, Any]) -> str:
    """OpenSpiel's own game string: ``breakthrough(columns=6,rows=6)``, or the bare name without parameters."""
    if not params:
        return short_name
    inner = ",".join(f"{key}={option_text(value)}" for key, value in sorted(params.items()))
    return f"{short_name}({inner})"


@functools.lru_cache(maxsize=64)
def _load(short_name: str, frozen: tuple[tuple[str, Any], ...]) -> Any:
    pyspiel = pyspiel_module()
    try:
        return pyspiel.load_game(short_name, dict(frozen))
    except (pyspiel.SpielError, RuntimeError, ValueError, TypeError) as exc:
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise ArenaError(f"OpenSpiel cannot load {game_string(short_name, dict(frozen))}: {detail}") from None


def load_game(short_name: str, params: Mapping[str, Any]) -> Any:
    """The ``pyspiel.Game`` with these (typed) parameters, loaded once per process, or a one-line error."""
    return _load(short_name, tuple(sorted(params.items())))
