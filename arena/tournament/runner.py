"""Running a tournament: play a plan's games on workers, store each as it finishes, resume stored runs.

A tournament is planned in stages: one stage for a round robin or a gauntlet, one per round for swiss
(each round's pairings depend on the results before it). Every stage is a :class:`Schedule` of games with
fixed seeds, so whichever process plays a game, and whether or not the run was interrupted and resumed, the
results are the same. A stage's games are worked out as they are handed to the workers, and a stored run's
played games stay in the store: a run of a billion games starts at once and plays in bounded memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path

from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.play.executor_choice import LOCAL, Executor, ExecutorChoice
from arena.play.executors import default_workers, run_in_process
from arena.play.limits import Limits, default_memory_limit
from arena.play.referee import MatchOutcome, MatchSetup
from arena.plugins.registry import PluginConfig, Registry, bot_directories, load_registry
from arena.plugins.stored_roots import process_root
from arena.stats.ratings import Rating
from arena.stats.standings import PlayedGame, Standings, StandingsTally, played_game, standings_from_games
from arena.storage.history import finalize_run
from arena.storage.run_names import unique_run_name
from arena.storage.sources import keep_source, stored_bots_of
from arena.storage.store import NewGameRow, Store
from arena.tournament.definition import TournamentDefinition, load_definition
from arena.tournament.plan import TournamentPlan, plan_tournament
from arena.tournament.played import StoredGames, count_between, games_between, in_order, missing_ranges
from arena.tournament.schedules import Schedule, swiss_pairings, swiss_round

BOT_DIRS_KEY = "bot_dirs"
"""The key of a stored run's definition that lists the directories its bots came from."""


@dataclass
class TournamentRun:
    """A tournament's games so far: every game played, by schedule index.

    ``played`` is a dict for a run that is not stored (or one made by a caller); a stored run opened with
    :func:`open_run` or :func:`resume_run` reads its games from the store instead (:class:`StoredGames`), so
    it holds none of them in memory however many it plays."""

    plan: TournamentPlan
    played: MutableMapping[int, PlayedGame] | StoredGames = field(default_factory=dict)
    run_id: int | None = None
    planned: dict[int, Schedule] = field(default_factory=dict)
    """The stages planned so far, by their first game's index."""
    tally: StandingsTally = field(default_factory=StandingsTally)
    """The standings' counts over the games recorded by this process (:meth:`record`)."""
    interrupted: bool = False
    rated: tuple[dict[tuple[str, str | None], Rating], float] | None = None
    """The ratings of the games played, by label and role, and the draw probability, once rated (when the
    run was stored): :meth:`standings` uses them instead of rating the games again."""

    @property
    def game(self) -> type[Game]:
        """The game played."""
        return self.plan.game

    @property
    def setups(self) -> ScheduledGames:
        """The games of the stages planned so far, by schedule index (each worked out when asked for)."""
        return ScheduledGames(list(self.planned.values()))

    def standings(self) -> Standings:
        """Standings over the finished games, rated in schedule order.

        Once rated, a stored run's standings come from counts (kept as it plays, or read game by game from
        the store for a resumed run), never from a list of its games."""
        if self.rated is not None:
            tally = self.tally
            if tally.games != len(self.played):
                if not isinstance(self.played, StoredGames):
                    return standings_from_games(self.game.name, in_order(self.played), self.plan.total_games(),
                                                self.rated)
                tally = self.played.tally()
            return tally.standings(self.game.name, self.plan.total_games(), *self.rated)
        return standings_from_games(self.game.name, in_order(self.played), self.plan.total_games(), self.rated)

    def record(self, setup: MatchSetup, outcome: MatchOutcome, game: PlayedGame | None = None) -> PlayedGame:
        """Note a finished game (a stored run's games are in the store already); ``game``: its
        :class:`PlayedGame`, if the caller has it."""
        if game is None:
            game = played_game(self.game, setup, outcome)
        if not isinstance(self.played, StoredGames):
            self.played[outcome.index] = game
        self.tally.add(game)
        self.rated = None
        return game


class ScheduledGames(Mapping[int, MatchSetup]):
    """The games of some stages by schedule index, worked out from the stages when asked for."""

    def __init__(self, planned: list[Schedule]):
        self.planned = sorted(planned, key=lambda stage: stage.start_index)

    def __len__(self) -> int:
        return sum(len(stage) for stage in self.planned)

    def __getitem__(self, index: int) -> MatchSetup:
        for stage in self.planned:
            if index in stage.index_range():
                return stage[index - stage.start_index]
        raise KeyError(index)

    def __iter__(self) -> Iterator[int]:
        for stage in self.planned:
            yield from stage.index_range()


def stages(run: TournamentRun) -> Iterator[Schedule]:
    """The tournament's games stage by stage; a swiss round is planned once the rounds before it are played."""
    tournament = run.plan
    definition = tournament.definition
    if definition.format != "swiss":
        run.planned[0] = tournament.first_stage()
        yield run.planned[0]
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
                            round_number, definition.games, definition.seed, definition.move_limit(), next_index,
                            definition.options, definition.timing())
        run.planned[stage.start_index] = stage
        yield stage
        earned = dict.fromkeys(order, 0.0)
        for game in games_between(run.played, next_index, next_index + len(stage)):
            if game is None:
                return  # interrupted: later rounds depend on this one
            for seat, (label, _) in enumerate(game.players):
                others = [r for s, r in enumerate(game.ranks) if s != seat]
                earned[label] += sum(1.0 if game.ranks[seat] < r else 0.5 if game.ranks[seat] == r else 0.0
                                     for r in others) / len(others)
        next_index += len(stage)
        met.update(frozenset(pair) for pair in pairs)
        if bye is not None:
            had_bye.add(bye)
            scores[bye] += definition.games * len(tournament.maps)  # a bye counts as winning every game
        for label in order:
            scores[label] += earned[label]


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
    executor: ExecutorChoice = LOCAL,
) -> TournamentRun:
    """Play every game of ``run`` not yet played, storing each one as it finishes.

    ``in_process`` plays in this process (no hard kill of stuck bots); otherwise on ``workers`` workers of
    the ``executor`` (supervised processes on this machine by default). Ctrl-C stops the workers at once
    and returns with ``run.interrupted`` set.
    """
    pool: Executor | None = None
    bot_ids: dict[str, int] = {}
    sandbox = run.plan.definition.sandbox
    if sandbox is not None:  # part of the run's definition: every bot plays confined, in its own process
        limits = replace(limits or Limits(), sandbox=sandbox)
        in_process = False
    try:
        for stage in stages(run):
            pending = Pending(stage, run.played)
            if not pending:
                continue
            if not in_process and pool is None:
                pool = executor.start(workers, config, limits or Limits(), registry, games=len(pending))
            for arrived in _arrivals(pending, registry, pool):
                setups = [pending.handed_out.pop(outcome.index) for outcome in arrived]
                played = [played_game(run.game, setup, outcome) for setup, outcome in zip(setups, arrived, strict=True)]
                if store is not None and run.run_id is not None:
                    _store_played(store, run.run_id, run.game, zip(setups, arrived, played, strict=True), registry,
                                  bot_ids)
                for setup, outcome, game in zip(setups, arrived, played, strict=True):  # counted only once committed
                    run.record(setup, outcome, game)
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


class Pending:
    """The games of a stage not played yet, in schedule order, worked out as an executor takes them.

    Its length is known up front (the stage's games less the ones played); iterating it walks the stage's
    missing ranges (:func:`missing_ranges`) and notes each game handed out in ``handed_out`` until its outcome
    comes back, so what it holds is the games in flight, not the stage.
    """

    def __init__(self, stage: Schedule, played: MutableMapping[int, PlayedGame] | StoredGames):
        self.stage = stage
        self.played = played
        first = stage.start_index
        self.count = len(stage) - count_between(played, first, first + len(stage))
        self.handed_out: dict[int, MatchSetup] = {}

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[MatchSetup]:
        first = self.stage.start_index
        for missing in missing_ranges(self.played, first, first + len(self.stage)):
            for setup in islice(self.stage.from_position(missing.start - first), len(missing)):
                self.handed_out[setup.index] = setup
                yield setup


def _arrivals(setups: Iterable[MatchSetup], registry: Registry, pool: Executor | None
              ) -> Iterator[list[MatchOutcome]]:
    """The outcomes of ``setups`` in the groups they arrive in: one message of a worker for executors that
    batch (:meth:`WorkerPool.run_batches`), one game otherwise."""
    if pool is None:
        return ([outcome] for outcome in run_in_process(setups, registry))
    run_batches: Callable[[Iterable[MatchSetup]], Iterator[list[MatchOutcome]]] | None = getattr(
        pool, "run_batches", None)
    if run_batches is not None:
        return run_batches(setups)
    return ([outcome] for outcome in pool.run(setups))


def store_game(store: Store, run_id: int, game: type[Game], setup: MatchSetup, outcome: MatchOutcome,
               registry: Registry, bot_ids: dict[str, int]) -> None:
    """Store one finished game of run ``run_id`` (``bot_ids`` caches the bots' database ids by label)."""
    store_games(store, run_id, game, [(setup, outcome)], registry, bot_ids)


def store_games(store: Store, run_id: int, game: type[Game], finished: Iterable[tuple[MatchSetup, MatchOutcome]],
                registry: Registry, bot_ids: dict[str, int]) -> None:
    """Store finished games of run ``run_id`` in one transaction, in the order given, as :func:`store_game`
    stores each: the run's summaries are read and written once for all of them."""
    _store_played(store, run_id, game, ((setup, outcome, played_game(game, setup, outcome))
                                        for setup, outcome in finished), registry, bot_ids)


def _store_played(store: Store, run_id: int, game: type[Game],
                  finished: Iterable[tuple[MatchSetup, MatchOutcome, PlayedGame]], registry: Registry,
                  bot_ids: dict[str, int]) -> None:
    """:func:`store_games` of games whose :class:`PlayedGame` the caller has (their counts are worked out once)."""
    with store.transaction():
        store.add_games(run_id, [_new_game_row(store, game, setup, outcome, played, registry, bot_ids)
                                 for setup, outcome, played in finished])


def _new_game_row(store: Store, game: type[Game], setup: MatchSetup, outcome: MatchOutcome, played: PlayedGame,
                  registry: Registry, bot_ids: dict[str, int]) -> NewGameRow:
    seats = []
    for seat, spec in enumerate(setup.bots):
        label = spec.label
        if label not in bot_ids:
            entry = registry.bot(spec.name)
            bot_ids[label] = store.bot_id(label, spec.name, outcome.versions[seat], entry.source)
            keep_source(store, entry, outcome.versions[seat])
        seats.append({"label": label, "bot_id": bot_ids[label], "role": game.roles[seat] if game.roles else None})
    return NewGameRow(outcome.index, seats, outcome.ranks, outcome.reason, outcome.failure_kinds, outcome.think_time,
                      outcome.duration, outcome.turns, outcome.record(setup, seat_keys=False), played)


@dataclass(frozen=True)
class OpenedRun:
    """The stored run a tournament command continues or starts, and what was known of it before."""

    run: TournamentRun
    state: str  # "new", "resumed" or "complete" (already played in full: nothing to do)
    played_before: int


def _stored_run(store: Store, run_id: int, tournament: TournamentPlan, state: str) -> OpenedRun:
    played = StoredGames(store, run_id)
    return OpenedRun(TournamentRun(tournament, played, run_id=run_id), state, len(played))


def resume_run(store: Store, run_id: int, registry: Registry) -> OpenedRun:
    """Continue stored run ``run_id``: its bots and maps must still be the ones it started with (load the
    registry from :func:`resume_config`, which knows where the run found its bots)."""
    row = store.run(run_id)
    data = {key: value for key, value in row.definition.items() if key != BOT_DIRS_KEY}
    data["maps"], data["bots"] = tuple(data["maps"]), tuple(data["bots"])
    tournament = plan_tournament(TournamentDefinition(**data), registry)
    if tournament.fingerprint != row.fingerprint:
        raise ArenaError(f"run {run_id} can't be continued identically: a bot or map changed since it started")
    return _stored_run(store, run_id, tournament, "resumed")


def resume_config(store: Store, run_id: int, config: PluginConfig) -> tuple[PluginConfig, list[str]]:
    """The configuration that resumes stored run ``run_id``: ``config`` (the resuming command's) with the bot
    directories the run used that still exist, and the stored bot versions (``name@version``) it plays; and
    the run's bot directories that no longer exist."""
    row = store.run(run_id)
    remembered = [str(directory) for directory in row.definition.get(BOT_DIRS_KEY, [])]
    known = {Path(directory).resolve() for directory in config.bot_dirs}
    gone = [directory for directory in remembered if not Path(directory).is_dir()]
    kept = [directory for directory in remembered if directory not in gone and Path(directory).resolve() not in known]
    named = [*list(row.definition.get("bots", [])), row.definition.get("gauntlet") or ""]
    stored = stored_bots_of(store, [text for text in named if text])
    stored_dir = config.stored_dir or (str(process_root()) if stored else None)  # shared with the workers
    return replace(config, bot_dirs=(*config.bot_dirs, *kept), stored_bots=(*config.stored_bots, *stored),
                   stored_dir=stored_dir), gone


def open_run(store: Store, tournament: TournamentPlan, new: bool = False,
             config: PluginConfig | None = None) -> OpenedRun:
    """The stored run of this tournament: the unfinished one with the same definition and bot versions
    (resumed), the finished one (state "complete", to show again), or, with ``new`` or none, a new run.

    A new run keeps, with its definition, the bot directories ``config`` loads bots from (beyond the shipped
    ones), so that ``--resume`` finds its bots without being told again.
    """
    existing = None if new else store.latest_run_with(tournament.fingerprint)
    if existing is not None:
        return _stored_run(store, existing.id, tournament, "complete" if existing.status == "complete" else "resumed")
    definition = tournament.definition
    stored_definition = definition.as_json()
    if config is not None:
        stored_definition[BOT_DIRS_KEY] = [str(directory.resolve()) for directory, label in bot_directories(config)
                                           if label != "shipped"]
    with store.transaction():
        run_id = store.create_run(unique_run_name(store, tournament.title()), tournament.game.name,
                                  definition.format, stored_definition, tournament.fingerprint,
                                  tournament.total_games())
    return OpenedRun(TournamentRun(tournament, StoredGames(store, run_id), run_id=run_id), "new", 0)


def play_stored_run(
    store: Store,
    run: TournamentRun,
    registry: Registry,
    config: PluginConfig,
    *,
    workers: int | None = None,
    limits: Limits | None = None,
    on_game: Callable[[MatchOutcome], None] | None = None,
    executor: ExecutorChoice = LOCAL,
) -> TournamentRun:
    """Play what is left of a stored run, then store its ratings and mark it complete (or interrupted).

    The run is marked running first, so a run killed outright stays visibly unfinished; every game is
    committed as it ends, so a killed or interrupted run resumes where it stopped.
    """
    if run.run_id is None:
        raise ValueError("this run is not stored: open it with open_run or resume_run")
    store.set_run_status(run.run_id, "running")
    play_tournament(run, registry, config, workers=workers, limits=limits, store=store, on_outcome=on_game,
                    executor=executor)
    rated = finalize_run(store, run.run_id, "interrupted" if run.interrupted else "complete")
    by_label = rated.by_label()
    rates_every_game = isinstance(run.played, StoredGames) or (
        sum(rated.games.values()) == sum(len(game.players) for game in run.played.values()))
    if by_label is not None and rates_every_game:
        run.rated = (by_label, rated.draw_probability)
    return run


def run_tournament(
    definition: TournamentDefinition | str | Path,
    *,
    store: Store | None = None,
    workers: int | None = None,
    limits: Limits | None = None,
    config: PluginConfig | None = None,
    registry: Registry | None = None,
    on_game: Callable[[MatchOutcome], None] | None = None,
    new: bool = False,
) -> TournamentRun:
    """Run a tournament from Python: a definition, or the path of a tournament file (TOML).

    With a ``store``, every game is stored as it ends and a rerun of the same tournament resumes it (or,
    once complete, returns it as stored; ``new`` plays it again as a new run). ``on_game`` is called with
    each game's outcome as it finishes. Ctrl-C stops the workers and returns with ``interrupted`` set.
    Scripts need the ``if __name__ == "__main__":`` guard: workers may be started with ``spawn``
    (always outside Linux, and from a program running other threads).
    """
    config = config or PluginConfig()
    registry = registry or load_registry(config)
    if not isinstance(definition, TournamentDefinition):
        definition = load_definition(definition)
    plan = plan_tournament(definition, registry)
    executor = ExecutorChoice(definition.executor, definition.address)
    workers = workers or definition.workers
    limits = limits or Limits(memory_limit=default_memory_limit(workers or default_workers()))
    if store is None:
        return play_tournament(TournamentRun(plan), registry, config, workers=workers, limits=limits,
                               on_outcome=on_game, executor=executor)
    opened = open_run(store, plan, new, config)
    if opened.state == "complete":
        return opened.run
    return play_stored_run(store, opened.run, registry, config, workers=workers, limits=limits, on_game=on_game,
                           executor=executor)
