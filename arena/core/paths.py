"""Where the shipped bots and maps live, in a source checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

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
