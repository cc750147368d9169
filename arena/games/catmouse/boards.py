"""Opening a cat-and-mouse map by name or path: its board and its options, checked."""

from __future__ import annotations

from arena.core.errors import ArenaError
from arena.core.maps import GameMap, resolve_map
from arena.games.catmouse.board import Layout
from arena.games.catmouse.game import CatMouseGame
from arena.games.catmouse.layouts import layout_from_map


def load_board(spec: str) -> tuple[GameMap, Layout, dict[str, str]]:
    """A catmouse map, its board and its resolved options; an error names a map of another game."""
    game_map = resolve_map(spec)
    game = game_map.header.get("game", "tron")
    if game != CatMouseGame.name:
        raise ArenaError(f"{game_map.label} is a {game} map, not a catmouse map")
    layout = layout_from_map(game_map)
    try:
        options = CatMouseGame.resolve_options(game_map.header)
    except ArenaError as exc:
        raise ArenaError(f"{game_map.label}: {exc}") from None
    return game_map, layout, options
