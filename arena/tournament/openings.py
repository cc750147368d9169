"""Openings as a map source: a game's opening book (``--openings FILE``) read into maps, ordered and counted.

A game that reads openings files names their kinds in ``openings_formats`` and reads them in
``read_openings`` (:class:`arena.core.game.Game`); no game is named here. Each opening is a map, so a
tournament plays every opening once in each seating of a pairing (for two players: a pair of games with the
colours reversed, one after the other, on the same seed) and ``arena compare`` plays its pairs on the openings
in turn. ``random`` order shuffles the openings with the run's seed, so the same seed gives the same order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from arena.core.errors import ArenaError
from arena.core.paths import shipped_openings_dir

if TYPE_CHECKING:
    from arena.core.game import Game
    from arena.core.maps import GameMap
    from arena.plugins.registry import Registry

ORDERS = ("sequential", "random")
_ORDER_STREAM = 0x6F70656E
"""Mixed into the seed for the random order, so it draws apart from the games' own seeds."""


@dataclass(frozen=True)
class OpeningsChoice:
    """An openings file and how to use it: the ``order`` its openings are played in, the ``plies`` of each line
    played in (PGN), and the ``count`` played (the first ones, in that order; ``None``: all)."""

    path: str
    order: str = "sequential"
    plies: int | None = None
    count: int | None = None

    def check(self) -> None:
        """Reject an unknown order or a number below 1, in one line."""
        if self.order not in ORDERS:
            raise ArenaError(f"--openings-order {self.order!r} is not one of: {', '.join(ORDERS)}")
        if self.plies is not None and self.plies < 1:
            raise ArenaError("--openings-plies must be at least 1")
        if self.count is not None and self.count < 1:
            raise ArenaError("--openings-count must be at least 1")


def openings_game(registry: Registry, game_name: str | None) -> type[Game]:
    """The game an openings file is for: ``game_name`` if given, else the one registered game that reads them."""
    if game_name is not None:
        game = registry.game(game_name)
        if not game.openings_formats:
            raise ArenaError(f"--openings: game {game.name!r} reads no openings files")
        return game
    readers = [game for game in registry.games.values() if game.openings_formats]
    if len(readers) != 1:
        names = ", ".join(game.name for game in readers) or "none"
        raise ArenaError(f"--openings needs --game or a map to say which game it is for (games that read "
                         f"openings: {names})")
    return readers[0]


def find_openings(spec: str) -> Path:
    """An openings file given as a path, or by name in ``./openings`` or the shipped books
    (``chess-starters.epd``, or ``chess-starters``)."""
    given = Path(spec)
    if given.is_file():
        return given
    for directory in (Path("openings"), shipped_openings_dir()):
        for candidate in (directory / spec, *(directory / f"{spec}.{kind}" for kind in ("epd", "pgn"))):
            if candidate.is_file():
                return candidate
    shipped = ", ".join(sorted(path.name for path in shipped_openings_dir().glob("*.*"))) or "none"
    raise ArenaError(f"{spec}: no such openings file (shipped: {shipped})")


def opening_maps(choice: OpeningsChoice, game: type[Game], seed: int) -> list[GameMap]:
    """The openings ``choice`` picks from its file, as maps of ``game``: in the file's order or shuffled by
    ``seed``, the first ``choice.count`` of them; each checked as a map of the game."""
    choice.check()
    path = find_openings(choice.path)
    kinds = game.openings_formats
    if path.suffix.lower().lstrip(".") not in kinds:
        raise ArenaError(f"{path}: {game.name} reads openings from {' or '.join('.' + kind for kind in kinds)} files")
    maps = game.read_openings(path, choice.plies)
    if choice.order == "random":
        import numpy as np

        order = np.random.default_rng([seed, _ORDER_STREAM]).permutation(len(maps))
        maps = [maps[int(index)] for index in order]
    if choice.count is not None:
        if choice.count > len(maps):
            raise ArenaError(f"--openings-count {choice.count}: {choice.path} holds only {len(maps)} openings")
        maps = maps[:choice.count]
    for game_map in maps:
        game.check_map(game_map)
    return maps
