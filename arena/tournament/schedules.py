"""Tournament schedules. A schedule is a list of :class:`MatchSetup`, each with its own seed, so the
results depend only on the schedule and never on which worker plays which game when."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.play.referee import MatchSetup


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
    gauntlet: BotSpec | None = None,
    options: Mapping[str, str] | None = None,
) -> list[MatchSetup]:
    """Every group of bots (pairs on 2-player maps) on every map, each seating equally often.

    With ``gauntlet``, only the groups that include that bot: one bot against the field.
    ``games_per_pairing`` is rounded up to a multiple of the number of seatings. The two games of a
    seat-swapped pair share a seed. Games are ordered repetition by repetition, so stopping early
    leaves a balanced sample. ``options`` override the maps' header options.
    """
    if games_per_pairing < 1:
        raise ArenaError("--games must be at least 1")
    _check_unique(bots)
    blocks = []
    for map_index, game_map in enumerate(maps):
        seats = game.num_players(game_map)
        if len(bots) < seats:
            raise ArenaError(f"{game_map.label} has {seats} seats but only {len(bots)} bots are playing")
        for group_index, group in enumerate(itertools.combinations(bots, seats)):
            if gauntlet is not None and gauntlet not in group:
                continue
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
                schedule.append(MatchSetup(game.name, seating, game_map, {**game_map.header, **(options or {})},
                                           seed_here, time_limit, len(schedule)))
    return schedule


def _check_unique(bots: Sequence[BotSpec]) -> None:
    if len({spec.label for spec in bots}) != len(bots):
        raise ArenaError("a bot is listed twice; give each bot (with its parameters) once")


def max_swiss_rounds(bots: int) -> int:
    """The most rounds that can always be paired without a repeat, whatever the results.

    After ``r`` rounds every bot still has at least ``n - 1 - r`` opponents it hasn't met among the ``n``
    bots (``n`` even; with an odd field one sits out). While that is at least ``n / 2``, Dirac's theorem
    gives the graph of unplayed pairings a Hamiltonian cycle, hence a perfect matching: so ``n // 2``
    rounds always pair, and from 5 bots on, more rounds can dead-end after some results. Tiny fields
    can do more: 3 bots (one sits out each round) meet all three pairings, and for 4 bots any two
    rounds leave exactly the third.
    """
    return {2: 1, 3: 3, 4: 3}.get(bots, bots // 2)


def swiss_pairings(order: Sequence[str], played: set[frozenset[str]], had_bye: set[str]
                   ) -> tuple[list[tuple[str, str]], str | None]:
    """Pair bots listed best first: each with the best-placed bot it hasn't met; ``None`` if impossible.

    With an odd number of bots, the lowest-placed bot that hasn't had a bye sits this round out.
    Backtracks when the greedy choice leaves someone without a new opponent.
    """
    bye = None
    field_ = list(order)
    if len(field_) % 2:
        bye = next((bot for bot in reversed(field_) if bot not in had_bye), field_[-1])
        field_.remove(bye)

    def pair(remaining: list[str]) -> list[tuple[str, str]] | None:
        if not remaining:
            return []
        first, rest = remaining[0], remaining[1:]
        for index, other in enumerate(rest):
            if frozenset((first, other)) in played:
                continue
            tail = pair(rest[:index] + rest[index + 1:])
            if tail is not None:
                return [(first, other), *tail]
        return None

    pairs = pair(field_)
    if pairs is None:
        raise ArenaError("no pairing without a repeated pairing is left; use fewer --rounds")
    return pairs, bye


def swiss_round(
    game: type[Game],
    maps: Sequence[GameMap],
    pairs: Sequence[tuple[BotSpec, BotSpec]],
    round_number: int,
    games_per_pairing: int,
    seed: int,
    time_limit: float,
    start_index: int,
    options: Mapping[str, str] | None = None,
) -> list[MatchSetup]:
    """The games of one swiss round: every pair on every map, in both seats equally often."""
    repetitions = -(-games_per_pairing // 2)
    schedule: list[MatchSetup] = []
    for repetition in range(repetitions):
        for map_index, game_map in enumerate(maps):
            for pair_index, (a, b) in enumerate(pairs):
                seed_here = game_seed(seed, round_number, map_index, pair_index, repetition)
                for seating in ((a, b), (b, a)):
                    schedule.append(MatchSetup(game.name, seating, game_map, {**game_map.header, **(options or {})},
                                               seed_here, time_limit, start_index + len(schedule)))
    return schedule
