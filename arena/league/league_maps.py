"""The league's maps: copied into its ``maps/`` folder under names of their own, all seating as many players."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.league.context import LeagueContext, registry
from arena.league.settings import MAPS_FOLDER, write_settings
from arena.tournament.selection import load_maps


def check_players(game: type[Game], maps: Sequence[GameMap]) -> None:
    """An :class:`ArenaError` unless every map of ``maps`` seats the same number of players."""
    counts = {game.num_players(m) for m in maps}
    if len(counts) > 1:
        raise ArenaError(f"a league's maps must all seat the same number of players; these seat "
                         f"{', '.join(str(c) for c in sorted(counts))}")


def map_file_names(maps: Sequence[GameMap], taken: Sequence[str] = ()) -> list[str]:
    """A file name for each map in the league's ``maps/`` folder: its own, numbered where it is taken."""
    names: list[str] = []
    for game_map in maps:
        base = Path(game_map.path).name if game_map.path else f"{game_map.name}.txt"
        stem, suffix = Path(base).stem, Path(base).suffix or ".txt"
        name, n = base, 2
        while name in names or name in taken:
            name, n = f"{stem}-{n}{suffix}", n + 1
        names.append(name)
    return names


def map_text(game_map: GameMap) -> str:
    """The text to copy for ``game_map``: its file's, or the text it was made from."""
    if game_map.path and os.path.isfile(game_map.path):
        return Path(game_map.path).read_text()
    return game_map.text


def add_map(ctx: LeagueContext, spec: str) -> str:
    """Add a map (a name or a file, copied into the league) to the rotation; returns its file name."""
    _, loaded = load_maps([spec], registry(), ctx.game.name)
    check_players(ctx.game, [*ctx.maps, *loaded])
    name = map_file_names(loaded, taken=ctx.settings.maps)[0]
    (ctx.folder / MAPS_FOLDER / name).write_text(map_text(loaded[0]))
    ctx.settings = ctx.settings.with_maps((*ctx.settings.maps, name))
    write_settings(ctx.folder, ctx.settings)
    ctx.maps.append(loaded[0])
    return name
