"""Setting up one game from what a user names: the bots, and perhaps a map, a board size and options.

Without a map the game is the one every bot plays (the game whose maps need no header when several
are), on that game's first default map. In a game with roles each bot is seated in a role it plays.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from arena.core.bot import BotSpec
from arena.core.clock import PLAIN, TimeControl
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.play.referee import DEFAULT_TIME_LIMIT, MatchSetup
from arena.plugins.registry import Registry
from arena.tournament.selection import apply_size, load_maps, sized_game


def common_game(specs: Sequence[BotSpec], registry: Registry) -> type[Game]:
    """The game every bot plays: the one whose maps need no header if several qualify, else the first."""
    shared = [game for name, game in registry.games.items()
              if all(registry.bot(spec.name).cls.plays(name) for spec in specs)]
    if not shared:
        plays = "; ".join(f"{spec.name} plays {', '.join(registry.bot(spec.name).games)}" for spec in specs)
        raise ArenaError(f"no game is played by all these bots ({plays})")
    return next((game for game in shared if game.untagged_maps), shared[0])


def seat_by_role(game: type[Game], specs: Sequence[BotSpec], registry: Registry) -> tuple[BotSpec, ...]:
    """The bots in seat order: as given, or, in a game with roles, the first order where each plays its role."""
    for spec in specs:
        if not registry.bot(spec.name).cls.plays(game.name):
            raise ArenaError(f"bot {spec.name!r} does not play {game.name}")
    if not game.roles:
        return tuple(specs)
    for order in itertools.permutations(specs):
        if all(registry.bot(spec.name).cls.plays(game.name, role)
               for spec, role in zip(order, game.roles, strict=False)):
            return tuple(order)
    roles = "; ".join(f"{spec.label} plays {', '.join(registry.bot(spec.name).cls.roles)}" for spec in specs)
    raise ArenaError(f"these bots cannot be seated as {', '.join(game.roles)} ({roles})")


def single_game(bots: Sequence[str], registry: Registry, *, map_spec: str | None = None, size: str | None = None,
                options: Mapping[str, str] | None = None, seed: int = 0,
                time_limit: float | None = DEFAULT_TIME_LIMIT,
                time_control: TimeControl = PLAIN, game_name: str | None = None
                ) -> tuple[type[Game], GameMap, MatchSetup]:
    """The game, map and :class:`MatchSetup` of one game between ``bots`` (spec strings); ``game_name`` names
    the game (else the one every bot plays), which without a map plays on its map of ``options`` if it is
    played without maps (:meth:`Game.parameters_map`)."""
    extra = dict(options or {})
    specs = [registry.spec(text) for text in bots]
    if map_spec is None and game_name is not None and registry.game(game_name).parameters_map(extra) is not None:
        game, (game_map,) = load_maps([], registry, game_name, extra)
    elif map_spec is None:
        if game_name is not None:
            game = registry.game(game_name)
        else:
            game = sized_game(registry) if size is not None else common_game(specs, registry)
        if size is not None:
            apply_size(game, size, extra)
        if not game.default_maps:
            raise ArenaError(f"game {game.name!r} names no default map: give one with --map, or the game with "
                             "--game")
        game, (game_map,) = load_maps([game.default_maps[0]], registry, options=extra)
    else:
        if size is not None:
            apply_size(load_maps([map_spec], registry)[0], size, extra)
        game, (game_map,) = load_maps([map_spec], registry, game_name, options=extra)
    seats = game.num_players(game_map)
    if len(specs) != seats:
        raise ArenaError(f"{game_map.label} has {seats} seats: give {seats} bots, not {len(specs)}")
    seated = seat_by_role(game, specs, registry)
    return game, game_map, MatchSetup(game.name, seated, game_map, {**game_map.header, **extra}, seed, time_limit,
                                      time_control=time_control)
