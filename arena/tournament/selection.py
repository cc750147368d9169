"""Choosing what a command plays: the game a map is for, maps and bots checked against it, and defaults.

No game is named here: a game's defaults come from its class (``default_maps``, ``untagged_maps``,
``size_option``; see :class:`arena.core.game.Game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.core.game import METADATA_KEYS, Game
from arena.core.maps import GameMap, parse_map, resolve_map
from arena.plugins.registry import Registry
from arena.tournament.definition import TournamentDefinition, definition_from_targets
from arena.tournament.openings import opening_maps, openings_game


def untagged_game(registry: Registry) -> type[Game]:
    """The game whose maps need no ``; game = ...`` header: the first registered game that claims them."""
    for game in registry.games.values():
        if game.untagged_maps:
            return game
    raise ArenaError("no registered game takes maps without a '; game = ...' header: add one to the map")


def map_game(game_map: GameMap, registry: Registry) -> str:
    """The name of the game a map is for: its ``; game = ...`` header, else the game that claims untagged maps."""
    tagged = game_map.header.get("game")
    return tagged if tagged is not None else untagged_game(registry).name


def sized_game(registry: Registry) -> type[Game]:
    """The one registered game that plays on a board of any size (``--size``), or an error."""
    sized = [game for game in registry.games.values() if game.size_option]
    if len(sized) != 1:
        names = ", ".join(game.name for game in sized) or "none"
        raise ArenaError(f"--size needs a map when not exactly one game takes a board size (games that do: {names})")
    return sized[0]


def default_maps(registry: Registry, *, size: str | None = None, options: dict[str, str] | None = None) -> list[str]:
    """The maps a command plays when given none: with ``size``, the sized game's, else the untagged game's.

    ``size`` (``WIDTHxHEIGHT``) is written into ``options`` as the sized game's size option.
    """
    if size is not None:
        game = sized_game(registry)
        apply_size(game, size, options if options is not None else {})
    else:
        game = untagged_game(registry)
    if not game.default_maps:
        raise ArenaError(f"game {game.name!r} names no default map: give one")
    return list(game.default_maps)


def apply_size(game: type[Game], size: str, options: dict[str, str]) -> None:
    """Set ``options[game.size_option] = size``, or fail if ``game`` takes no size."""
    if not game.size_option:
        raise ArenaError(f"--size: game {game.name!r} is played on its map's board and takes no size")
    options[game.size_option] = size


def load_maps(specs: Sequence[str], registry: Registry, game_name: str | None = None,
              options: Mapping[str, str] | None = None) -> tuple[type[Game], list[GameMap]]:
    """Load maps (paths or names), check they are all for one game, and validate each for it.

    Given no maps, a named game played without map files (:meth:`Game.parameters_map`) plays on the map its
    ``options`` make.
    """
    if not specs:
        made = registry.game(game_name).parameters_map(options or {}) if game_name is not None else None
        if made is None:
            raise ArenaError("give at least one map" + (f": game {game_name!r} is played on maps"
                                                        if game_name is not None else ""))
        return registry.game(made.header["game"]), [made]
    maps = [resolve_map(spec) for spec in specs]
    games = {map_game(m, registry) for m in maps}
    if len(games) > 1:
        raise ArenaError(f"all maps of a tournament must be for one game; these are for: {', '.join(sorted(games))}")
    found = games.pop()
    if game_name is not None and game_name != found:
        raise ArenaError(f"the maps are for {found}, not {game_name}")
    game = registry.game(found)
    for game_map in maps:
        game.check_map(game_map)
        try:
            game.resolve_options(game_map.header)
        except ArenaError as exc:
            key = next(k for k in game_map.header if k not in METADATA_KEYS
                       and (k not in game.options or game_map.header[k] not in game.options[k].choices))
            raise game_map.header_error(key, str(exc)) from None
    game.resolve_options(options or {})
    return game, maps


def definition_maps(definition: TournamentDefinition, registry: Registry
                    ) -> tuple[TournamentDefinition, type[Game], list[GameMap]]:
    """The game and maps a definition plays: its map files, then its openings (read from the openings file the
    first time, and kept in the definition returned, so a stored run replays the same ones)."""
    choice = definition.openings_choice()
    if choice is None:
        game, maps = load_maps(definition.maps, registry, definition.game, definition.options)
        return definition, game, maps
    if definition.maps:
        game, maps = load_maps(definition.maps, registry, definition.game, definition.options)
        openings_game(registry, game.name)
    else:
        game, maps = openings_game(registry, definition.game), []
        game.resolve_options(definition.options)
    if not definition.opening_maps:
        made = opening_maps(choice, game, definition.seed)
        definition = replace(definition, opening_maps=tuple((m.name, m.text) for m in made))
    openings = [parse_map(text, name=name) for name, text in definition.opening_maps]
    for game_map in openings:
        game.check_map(game_map)
    return definition, game, [*maps, *openings]


def select_bots(game: type[Game], texts: Sequence[str], registry: Registry) -> list[BotSpec]:
    """The bots given as spec strings (checked), or every bot that plays ``game`` if none are given."""
    if not texts:
        specs = [BotSpec(entry.name) for entry in registry.bots_for(game.name) if entry.cls.in_default_field]
        if len(specs) < 2:
            raise ArenaError(f"fewer than two bots play {game.name}; add some to ./bots")
        return specs
    specs = [registry.spec(text) for text in texts]
    for spec in specs:
        if not registry.bot(spec.name).cls.plays(game.name):
            raise ArenaError(f"bot {spec.name!r} does not play {game.name}")
    return specs


def command_line_definition(targets: Sequence[str], registry: Registry, overrides: Mapping[str, Any], *,
                            size: str | None = None, options: Mapping[str, str] | None = None
                            ) -> TournamentDefinition:
    """The tournament a command line asks for: a tournament file or maps (the game's default maps when
    none are given but ``size`` is; none with an openings file), flag ``overrides``, a board ``size`` and extra
    game ``options``."""
    extra = dict(options or {})
    if not targets and size is None and overrides.get("openings") is not None:
        definition = definition_from_targets((), overrides)  # the openings are the maps
        return definition.with_overrides(options={**definition.options, **extra}) if extra else definition
    if not targets and size is None and overrides.get("game") is not None:
        return TournamentDefinition(maps=()).with_overrides(**overrides, options=extra or None)
    if not targets and size is None:
        raise ArenaError("give a tournament file or at least one map (or --resume RUN)")
    sized_later = size is not None and bool(targets)
    if not targets:
        targets = default_maps(registry, size=size, options=extra)
    definition = definition_from_targets(targets, overrides)
    if sized_later:
        apply_size(load_maps(definition.maps, registry, definition.game)[0], size or "", extra)
    if extra:
        definition = definition.with_overrides(options={**definition.options, **extra})
    return definition
