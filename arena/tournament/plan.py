"""Planning a tournament: a definition checked against the registry, with its games and fingerprint."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.play.sandbox.build import ensure_built_in_sandbox
from arena.play.sandbox.confine import require_sandbox
from arena.plugins.programs.preflight import prepare_programs
from arena.plugins.registry import Registry
from arena.tournament.definition import TournamentDefinition, fingerprint
from arena.tournament.schedules import Schedule, max_swiss_rounds, round_robin
from arena.tournament.selection import definition_maps, select_bots


@dataclass(frozen=True)
class TournamentPlan:
    """A checked tournament definition: the game, maps and bots it names, and its fingerprint."""

    definition: TournamentDefinition
    game: type[Game]
    maps: tuple[GameMap, ...]
    bots: tuple[BotSpec, ...]
    gauntlet: BotSpec | None
    fingerprint: str
    versions: dict[str, str]
    can_play: dict[str, set[str | None]]
    skipped: tuple[str, ...] = ()
    """One line for each program bot left out because its build failed."""
    _schedule: list[Schedule] = field(default_factory=list, init=False, repr=False, compare=False)

    def title(self) -> str:
        """The run's name: the tournament file's, or the maps and bots it plays (``center_block: a, b``)."""
        if self.definition.name:
            return self.definition.name
        listed = [m.name for m in self.maps[:len(self.maps) - len(self.definition.opening_maps)]]
        if self.definition.openings is not None:
            listed.append(f"{len(self.definition.opening_maps)} openings of {Path(self.definition.openings).name}")
        maps = _listing(listed, 3)
        bots = _listing([b.label for b in self.bots], 4) if self.definition.bots else f"every {self.game.name} bot"
        return f"{maps}: {bots}"

    def total_games(self) -> int:
        """How many games the whole tournament plays."""
        if self.definition.format != "swiss":
            return len(self.first_stage())
        pairs = len(self.bots) // 2
        return (self.definition.rounds or 0) * pairs * len(self.maps) * 2 * -(-self.definition.games // 2)

    def first_stage(self) -> Schedule:
        """The round robin or gauntlet schedule: its games are worked out as they are asked for."""
        if not self._schedule:
            d = self.definition
            self._schedule.append(round_robin(self.game, self.maps, self.bots, d.games, d.seed, d.move_limit(),
                                              self.can_play, self.gauntlet, d.options, d.timing()))
        return self._schedule[0]


def plan_tournament(definition: TournamentDefinition, registry: Registry) -> TournamentPlan:
    """Check a definition against the registry: maps, game, bots, format; compute its fingerprint."""
    definition.check()
    if definition.sandbox is not None:
        require_sandbox()  # before anything is stored: never a silently unconfined run
    definition, game, maps = definition_maps(definition, registry)
    bots = select_bots(game, definition.bots, registry)
    map_setups = [(game.num_players(m), game.resolve_options({**m.header, **definition.options})) for m in maps]
    build = partial(ensure_built_in_sandbox, limits=definition.sandbox) if definition.sandbox else None
    bots, skipped = prepare_programs(bots, game.name, map_setups, registry, build)
    gauntlet = None
    if definition.format == "gauntlet":
        gauntlet = registry.spec(definition.gauntlet or "")
        if not registry.bot(gauntlet.name).cls.plays(game.name):
            raise ArenaError(f"bot {gauntlet.name!r} does not play {game.name}")
        if gauntlet.label not in {spec.label for spec in bots}:
            bots = [gauntlet, *bots]
    if definition.format == "swiss":
        if any(game.num_players(m) != 2 for m in maps):
            raise ArenaError("swiss pairs two bots at a time: use 2-player maps")
        if (definition.rounds or 0) > max_swiss_rounds(len(bots)):
            raise ArenaError(f"{len(bots)} bots can play at most {max_swiss_rounds(len(bots))} swiss rounds "
                             "(more could leave a round with no new pairing)")
    registry.executor(definition.executor)  # an unknown executor is refused before anything is stored
    versions = {spec.label: registry.version_of(spec) for spec in bots}
    parts = {
        "game": game.name, "format": definition.format, "games": definition.games,
        "time_limit": definition.move_limit(), "seed": definition.seed, "rounds": definition.rounds,
        "gauntlet": gauntlet.label if gauntlet else None, "options": definition.options,
        "maps": [[m.name, hashlib.sha256(m.text.encode()).hexdigest()] for m in maps],
        "bots": [[spec.label, versions[spec.label]] for spec in bots],
    }
    if definition.sandbox is not None:  # a sandboxed run, and its limits, is another run than an unconfined one
        parts["sandbox"] = definition.sandbox.as_json()
    if not definition.timing().is_plain:  # only then: runs planned before time controls keep their fingerprints
        parts["time_control"] = definition.timing().as_json()
    can_play = {spec.name: set(registry.bot(spec.name).cls.roles or game.roles or (None,)) for spec in bots}
    return TournamentPlan(definition, game, tuple(maps), tuple(bots), gauntlet, fingerprint(parts), versions, can_play,
                          tuple(skipped))


def _listing(names: list[str], shown: int) -> str:
    """The first ``shown`` names, and how many more."""
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")
