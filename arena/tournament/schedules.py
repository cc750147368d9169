"""Tournament schedules. A schedule is a sequence of :class:`MatchSetup`, each with its own seed, so the
results depend only on the schedule and never on which worker plays which game when. A schedule works out
each game from its index when asked, so its size costs no memory."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

from arena.core.bot import BotSpec
from arena.core.clock import PLAIN, TimeControl
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


@dataclass(frozen=True)
class _Block:
    """Games that share a map, a group of bots and a seed path: one game per seating, every repetition."""

    game_map: GameMap
    options: Mapping[str, str]
    seatings: tuple[tuple[BotSpec, ...], ...]
    path: tuple[int, ...]
    """The game's place, before its repetition, in the seed's derivation (:func:`game_seed`)."""


class Schedule(Sequence[MatchSetup]):
    """A stage's games, worked out from their index when asked: it costs memory for its blocks (a group of
    bots on a map), never for its games, so a billion-game schedule is as cheap as a ten-game one.

    Game ``i`` is in repetition ``i // per_repetition``; a repetition plays every block in order, and a block
    every seating in order. The games of a block in one repetition share a seed.
    """

    def __init__(self, game: str, blocks: Sequence[_Block], repetitions: int, seed: int, time_limit: float | None,
                 start_index: int = 0, time_control: TimeControl = PLAIN):
        self.game = game
        self.blocks = tuple(blocks)
        self.repetitions = repetitions
        self.seed = seed
        self.time_limit = time_limit
        self.time_control = time_control
        self.start_index = start_index
        self._offsets = list(itertools.accumulate((len(block.seatings) for block in self.blocks), initial=0))
        self.per_repetition = self._offsets[-1]

    def __len__(self) -> int:
        return self.repetitions * self.per_repetition

    @overload
    def __getitem__(self, position: int) -> MatchSetup: ...

    @overload
    def __getitem__(self, position: slice) -> list[MatchSetup]: ...

    def __getitem__(self, position: int | slice) -> MatchSetup | list[MatchSetup]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError(f"game {position} of a {len(self)}-game schedule")
        repetition, within = divmod(position, self.per_repetition)
        number = bisect.bisect_right(self._offsets, within) - 1
        block = self.blocks[number]
        return self._setup(block, block.seatings[within - self._offsets[number]],
                           game_seed(self.seed, *block.path, repetition), position)

    def __iter__(self) -> Iterator[MatchSetup]:
        return self.from_position(0)

    def from_position(self, start: int) -> Iterator[MatchSetup]:
        """The games from position ``start`` on, in order (each block's seed worked out once a repetition)."""
        if self.per_repetition == 0:
            return
        first_repetition, within = divmod(max(start, 0), self.per_repetition)
        for repetition in range(first_repetition, self.repetitions):
            for number, block in enumerate(self.blocks):
                offset = self._offsets[number]
                if offset + len(block.seatings) <= within:
                    continue
                seed_here = game_seed(self.seed, *block.path, repetition)
                base = repetition * self.per_repetition + offset
                for place, seating in enumerate(block.seatings):
                    if base + place >= start:
                        yield self._setup(block, seating, seed_here, base + place)
            within = 0

    def index_range(self) -> range:
        """The tournament-wide indices of its games."""
        return range(self.start_index, self.start_index + len(self))

    def _setup(self, block: _Block, seating: tuple[BotSpec, ...], seed: int, position: int) -> MatchSetup:
        return MatchSetup(self.game, seating, block.game_map, block.options, seed, self.time_limit,
                          self.start_index + position, self.time_control)


def round_robin(
    game: type[Game],
    maps: Sequence[GameMap],
    bots: Sequence[BotSpec],
    games_per_pairing: int,
    seed: int,
    time_limit: float | None,
    can_play: Mapping[str, set[str | None]] | None = None,
    gauntlet: BotSpec | None = None,
    options: Mapping[str, str] | None = None,
    time_control: TimeControl = PLAIN,
) -> Schedule:
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
        merged = {**game_map.header, **(options or {})}
        for group_index, group in enumerate(itertools.combinations(bots, seats)):
            if gauntlet is not None and gauntlet not in group:
                continue
            seatings = seat_assignments(game, group, can_play)
            if seatings:
                blocks.append(_Block(game_map, merged, tuple(seatings), (map_index, group_index)))
    if not blocks:
        raise ArenaError("no pairing of these bots can play this game")
    repetitions = max(-(-games_per_pairing // len(block.seatings)) for block in blocks)
    return Schedule(game.name, blocks, repetitions, seed, time_limit, time_control=time_control)


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
    time_limit: float | None,
    start_index: int,
    options: Mapping[str, str] | None = None,
    time_control: TimeControl = PLAIN,
) -> Schedule:
    """The games of one swiss round: every pair on every map, in both seats equally often."""
    blocks = []
    for map_index, game_map in enumerate(maps):
        merged = {**game_map.header, **(options or {})}
        for pair_index, (a, b) in enumerate(pairs):
            blocks.append(_Block(game_map, merged, ((a, b), (b, a)), (round_number, map_index, pair_index)))
    return Schedule(game.name, blocks, -(-games_per_pairing // 2), seed, time_limit, start_index, time_control)
