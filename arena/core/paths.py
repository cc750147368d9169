"""Where the shipped bots, maps and openings live (in a source checkout and in an installed wheel), and the cache."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_VARIABLE = "ARENA_CACHE"

_PACKAGE = Path(__file__).resolve().parent.parent


def _shipped(kind: str) -> Path:
    checkout = _PACKAGE.parent / kind
    if checkout.is_dir():
        return checkout
    return _PACKAGE / "_shipped" / kind


def shipped_bots_dir() -> Path:
    """The directory of the bots that come with arena."""
    return _shipped("bots")


def shipped_maps_dir() -> Path:
    """The directory of the maps that come with arena."""
    return _shipped("maps")


def shipped_openings_dir() -> Path:
    """The directory of the opening books that come with arena."""
    return _shipped("openings")


def arena_cache_dir() -> Path:
    """The arena's cache: ``$ARENA_CACHE``, else ``$XDG_CACHE_HOME/arena``, else ``~/.cache/arena``."""
    base = os.environ.get(CACHE_VARIABLE)
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "arena"
