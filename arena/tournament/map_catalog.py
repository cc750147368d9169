"""The maps a user can name: every map in ``./maps`` and the shipped maps, with the game each is for."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena.core.errors import ArenaError
from arena.core.maps import map_search_dirs, resolve_map
from arena.core.paths import shipped_maps_dir
from arena.plugins.registry import Registry
from arena.tournament.selection import map_game


@dataclass(frozen=True)
class MapSummary:
    """One map as ``arena maps`` lists it."""

    name: str
    game: str
    width: int
    height: int
    players: int
    title: str
    path: str
    shipped: bool


def map_summaries(registry: Registry, game: str | None = None) -> tuple[list[MapSummary], list[str]]:
    """Every map a name resolves to (``./maps`` first), by game and name, and one line per map that is
    broken or for a game no plugin registered. With ``game``, only that game's maps."""
    if game is not None:
        registry.game(game)
    found: dict[str, MapSummary] = {}
    problems = []
    names = sorted({path.stem for directory in map_search_dirs() for path in directory.glob("*.txt")})
    for name in names:
        try:
            game_map = resolve_map(name)
            game_name = map_game(game_map, registry)
            game_cls = registry.game(game_name)
            game_cls.check_map(game_map)
            players = game_cls.num_players(game_map)
        except ArenaError as exc:
            problems.append(f"{name}: {exc}")
            continue
        found[name] = MapSummary(name, game_name, game_map.width, game_map.height, players,
                                 game_map.header.get("title", ""), game_map.path or name,
                                 _is_shipped(game_map.path))
    summaries = sorted(found.values(), key=lambda m: (m.game, m.name))
    return [m for m in summaries if game is None or m.game == game], problems


def _is_shipped(path: str | None) -> bool:
    return path is not None and Path(path).resolve().parent == shipped_maps_dir().resolve()
