"""Running a tournament: resolve maps and bots, plan the games, play them, store each as it finishes.

A tournament is planned in stages: one stage for a round robin or a gauntlet, one per round for swiss
(each round's pairings depend on the results before it). Every stage is a list of games with fixed seeds,
so whichever process plays a game, and whether or not the run was interrupted and resumed, the results
are the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.core.game import METADATA_KEYS, Game
from arena.core.maps import GameMap, resolve_map
from arena.play.executors import WorkerPool, default_workers, run_in_process
from arena.play.limits import Limits
from arena.play.referee import MatchOutcome, MatchSetup
from arena.plugins.registry import PluginConfig, Registry
from arena.stats.standings import PlayedGame, Standings, played_game, standings_from_games
from arena.storage.store import Store
from arena.tournament.definition import TournamentDefinition, fingerprint
from arena.tournament.schedules import max_swiss_rounds, round_robin, swiss_pairings, swiss_round

DEFAULT_GAME = "tron"


def map_game(game_map: GameMap) -> str:
    """The game a map is for: its ``; game = ...`` header, else Tron."""
    return game_map.header.get("game", DEFAULT_GAME)


def load_maps(specs: Sequence[str], registry: Registry, game_name: str | None = None,
              options: dict[str, str] | None = None) -> tuple[type[Game], list[GameMap]]:
    """Load maps (paths or names), check they are all for one game, and validate each for it."""
    if not specs:
        raise ArenaError("give at least one map")
    maps = [resolve_map(spec) for spec in specs]
    games = {map_game(m) for m in maps}
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


def select_bots(game: type[Game], texts: Sequence[str], registry: Registry) -> list[BotSpec]:
    """The bots given as spec strings (checked), or every bot that plays ``game`` if none are given."""
    if not texts:
        specs = [BotSpec(entry.name) for entry in registry.bots_for(game.name)]
        if len(specs) < 2:
            raise ArenaError(f"fewer than two bots play {game.name}; add some to ./bots")
        return specs
    specs = [registry.spec(text) for text in texts]
    for spec in specs:
        if not registry.bot(spec.name).cls.plays(game.name):
            raise ArenaError(f"bot {spec.name!r} does not play {game.name}")
    return specs


@dataclass(frozen=True)
class Tournament:
    """A checked tournament definition: the game, maps and bots it names, and its fingerprint."""

    definition: TournamentDefinition
    game: type[Game]
    maps: tuple[GameMap, ...]
    bots: tuple[BotSpec, ...]
    gauntlet: BotSpec | None
    fingerprint: str
    versions: dict[str, str]
    can_play: dict[str, set[str | None]]

    def total_games(self) -> int:
        """How many games the whole tournament plays."""
        if self.definition.format != "swiss":
            return len(self.first_stage())
        pairs = len(self.bots) // 2
        return (self.definition.rounds or 0) * pairs * len(self.maps) * 2 * -(-self.definition.games // 2)

    def first_stage(self) -> list[MatchSetup]:
        """The round robin or gauntlet schedule."""
        d = self.definition
        return round_robin(self.game, self.maps, self.bots, d.games, d.seed, d.time_limit, self.can_play,
                           self.gauntlet, d.options)


def prepare(definition: TournamentDefinition, registry: Registry) -> Tournament:
    """Check a definition against the registry: maps, game, bots, format; compute its fingerprint."""
    definition.check()
    game, maps = load_maps(definition.maps, registry, definition.game, definition.options)
    bots = select_bots(game, definition.bots, registry)
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
    versions = {spec.label: registry.bot(spec.name).version for spec in bots}
    parts = {
        "game": game.name, "format": definition.format, "games": definition.games,
        "time_limit": definition.time_limit, "seed": definition.seed, "rounds": definition.rounds,
        "gauntlet": gauntlet.label if gauntlet else None, "options": definition.options,
        "maps": [[m.name, hashlib.sha256(m.text.encode()).hexdigest()] for m in maps],
        "bots": [[spec.label, versions[spec.label]] for spec in bots],
    }
    can_play = {spec.name: set(registry.bot(spec.name).cls.roles or game.roles or (None,)) for spec in bots}
    return Tournament(definition, game, tuple(maps), tuple(bots), gauntlet, fingerprint(parts), versions, can_play)


@dataclass
class TournamentRun:
    """A tournament's games so far: the schedule planned up to now and every game played."""

    tournament: Tournament
    setups: dict[int, MatchSetup] = field(default_factory=dict)
    played: dict[int, PlayedGame] = field(default_factory=dict)
    run_id: int | None = None
    interrupted: bool = False

    @property
    def game(self) -> type[Game]:
        """The game played."""
        return self.tournament.game

    def standings(self) -> Standings:
        """Standings over the finished games, rated in schedule order."""
        ordered = [self.played[i] for i in sorted(self.played)]
        return standings_from_games(self.game.name, ordered, self.tournament.total_games())

    def record(self, outcome: MatchOutcome) -> PlayedGame:
        """Note a finished game."""
        game = played_game(self.game, self.setups[outcome.index], outcome)
        self.played[outcome.index] = game
        return game


def stages(run: TournamentRun) -> Iterator[list[MatchSetup]]:
    """The tournament's games stage by stage; a swiss round is planned once the rounds before it are played."""
    tournament = run.tournament
    definition = tournament.definition
    if definition.format != "swiss":
        yield tournament.first_stage()
        return
    by_label = {spec.label: spec for spec in tournament.bots}
    order = list(by_label)
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    scores = dict.fromkeys(order, 0.0)
    next_index = 0
    for round_number in range(definition.rounds or 0):
        ranking = sorted(order, key=lambda label: (-scores[label], order.index(label)))
        pairs, bye = swiss_pairings(ranking, met, had_bye)
        stage = swiss_round(tournament.game, tournament.maps, [(by_label[a], by_label[b]) for a, b in pairs],
                            round_number, definition.games, definition.seed, definition.time_limit, next_index,
                            definition.options)
        yield stage
        if any(setup.index not in run.played for setup in stage):
            return  # interrupted: later rounds depend on this one
        next_index += len(stage)
        met.update(frozenset(pair) for pair in pairs)
        if bye is not None:
            had_bye.add(bye)
            scores[bye] += definition.games * len(tournament.maps)  # a bye counts as winning every game
        for setup in stage:
            game = run.played[setup.index]
            for seat, (label, _) in enumerate(game.players):
                others = [r for s, r in enumerate(game.ranks) if s != seat]
                scores[label] += sum(1.0 if game.ranks[seat] < r else 0.5 if game.ranks[seat] == r else 0.0
                                     for r in others) / len(others)


def play_tournament(
    run: TournamentRun,
    registry: Registry,
    config: PluginConfig,
    *,
    workers: int | None = None,
    limits: Limits | None = None,
    store: Store | None = None,
    on_outcome: Callable[[MatchOutcome], None] | None = None,
    in_process: bool = False,
) -> TournamentRun:
    """Play every game of ``run`` not yet played, storing each one as it finishes.

    ``in_process`` plays in this process (no hard kill of stuck bots); otherwise on ``workers``
    supervised processes. Ctrl-C stops the workers at once and returns with ``run.interrupted`` set.
    """
    workers = workers or default_workers()
    pool: WorkerPool | None = None
    bot_ids: dict[str, int] = {}
    try:
        for stage in stages(run):
            for setup in stage:
                run.setups[setup.index] = setup
            pending = [setup for setup in stage if setup.index not in run.played]
            if not pending:
                continue
            if not in_process and pool is None:
                pool = WorkerPool(min(workers, len(pending)), config, limits, registry)
            outcomes = run_in_process(pending, registry) if pool is None else pool.run(pending)
            for outcome in outcomes:
                if store is not None and run.run_id is not None:
                    store_game(store, run.run_id, run.game, run.setups[outcome.index], outcome, registry, bot_ids)
                run.record(outcome)
                if on_outcome is not None:
                    on_outcome(outcome)
    except KeyboardInterrupt:
        run.interrupted = True
        if pool is not None:
            pool.close(terminate=True)
            pool = None
    finally:
        if pool is not None:
            pool.close()
    return run


def store_game(store: Store, run_id: int, game: type[Game], setup: MatchSetup, outcome: MatchOutcome,
               registry: Registry, bot_ids: dict[str, int]) -> None:
    """Store one finished game of run ``run_id`` (``bot_ids`` caches the bots' database ids by label)."""
    seats = []
    for seat, spec in enumerate(setup.bots):
        if spec.label not in bot_ids:
            entry = registry.bot(spec.name)
            bot_ids[spec.label] = store.bot_id(spec.label, spec.name, outcome.versions[seat], entry.source)
        seats.append({"label": spec.label, "bot_id": bot_ids[spec.label],
                      "role": game.roles[seat] if game.roles else None})
    store.add_game(run_id, outcome.index, seats, outcome.ranks, outcome.reason, outcome.failures,
                   outcome.think_time, outcome.duration, outcome.turns, outcome.record(setup))


@dataclass(frozen=True)
class OpenedRun:
    """The stored run a tournament command continues or starts, and what was known of it before."""

    run: TournamentRun
    state: str  # "new", "resumed" or "complete" (already played in full: nothing to do)
    played_before: int


def _stored_run(store: Store, run_id: int, tournament: Tournament, state: str) -> OpenedRun:
    from arena.storage.history import played_from_rows

    run = TournamentRun(tournament, run_id=run_id)
    rows = list(store.games(run_id=run_id))
    run.played.update(zip((row.idx for row in rows), played_from_rows(rows), strict=True))
    return OpenedRun(run, state, len(rows))


def resume_run(store: Store, run_id: int, registry: Registry) -> OpenedRun:
    """Continue stored run ``run_id``: its bots and maps must still be the ones it started with."""
    row = store.run(run_id)
    data = dict(row.definition)
    data["maps"], data["bots"] = tuple(data["maps"]), tuple(data["bots"])
    tournament = prepare(TournamentDefinition(**data), registry)
    if tournament.fingerprint != row.fingerprint:
        raise ArenaError(f"run {run_id} can't be continued identically: a bot or map changed since it started")
    return _stored_run(store, run_id, tournament, "resumed")


def open_run(store: Store, tournament: Tournament, new: bool = False) -> OpenedRun:
    """The stored run of this tournament: the unfinished one with the same definition and bot versions
    (resumed), the finished one (state "complete", to show again), or, with ``new`` or none, a new run."""
    existing = None if new else store.latest_run_with(tournament.fingerprint)
    if existing is not None:
        return _stored_run(store, existing.id, tournament, "complete" if existing.status == "complete" else "resumed")
    definition = tournament.definition
    run_id = store.create_run(definition.name or "tournament", tournament.game.name, definition.format,
                              definition.as_json(), tournament.fingerprint, tournament.total_games())
    return OpenedRun(TournamentRun(tournament, run_id=run_id), "new", 0)
