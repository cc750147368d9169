"""Tournament schedules. A schedule is a list of :class:`MatchSetup`, each with its own seed, so the
results depend only on the schedule and never on which worker plays which game when."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from arena.bot import BotSpec
from arena.errors import ArenaError
from arena.game import Game
from arena.maps import GameMap
from arena.match import MatchSetup


def game_seed(seed: int, *path: int) -> int:
    """A 32-bit seed for one scheduled game, derived from the tournament seed and the game's place."""
    return int(np.random.SeedSequence([seed, *path]).generate_state(1)[0])


def seat_assignments(game: type[Game], group: Sequence[BotSpec], can_play: Mapping[str, set[str | None]] | None
                     ) -> list[tuple[BotSpec, ...]]:
    """The seatings of a group of bots: every rotation (so each bot sits in each seat equally often),
    keeping only those where each bot can play its seat's role."""
    rotations = [tuple(group[(start + i) % len(group)] for i in range(len(group))) for start in range(len(group))]
    if not game.roles or can_play is None:
        return rotations
    return [
        seating for seating in rotations
        if all(game.roles[seat] in can_play[spec.name] for seat, spec in enumerate(seating))
    ]


def round_robin(
    game: type[Game],
    maps: Sequence[GameMap],
    bots: Sequence[BotSpec],
    games_per_pairing: int,
    seed: int,
    time_limit: float,
    can_play: Mapping[str, set[str | None]] | None = None,
) -> list[MatchSetup]:
    """Every group of bots (pairs on 2-player maps) on every map, each seating equally often.

    ``games_per_pairing`` is rounded up to a multiple of the number of seatings. The two games of a
    seat-swapped pair share a seed. Games are ordered repetition by repetition, so stopping early
    leaves a balanced sample.
    """
    if games_per_pairing < 1:
        raise ArenaError("--games must be at least 1")
    if len({spec.label for spec in bots}) != len(bots):
        raise ArenaError("a bot is listed twice; give each bot (with its parameters) once")
    blocks = []
    for map_index, game_map in enumerate(maps):
        seats = game.num_players(game_map)
        if len(bots) < seats:
            raise ArenaError(f"{game_map.label} has {seats} seats but only {len(bots)} bots are playing")
        for group_index, group in enumerate(itertools.combinations(bots, seats)):
            seatings = seat_assignments(game, group, can_play)
            if seatings:
                blocks.append((map_index, group_index, game_map, seatings))
    if not blocks:
        raise ArenaError("no pairing of these bots can play this game")
    repetitions = max(-(-games_per_pairing // len(seatings)) for *_, seatings in blocks)
    schedule: list[MatchSetup] = []
    for repetition in range(repetitions):
        for map_index, group_index, game_map, seatings in blocks:
            seed_here = game_seed(seed, map_index, group_index, repetition)
            for seating in seatings:
                schedule.append(MatchSetup(game.name, seating, game_map, dict(game_map.header), seed_here,
                                           time_limit, len(schedule)))
    return schedule
