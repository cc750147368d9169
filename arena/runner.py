"""Running a tournament: resolve maps and bots, build the schedule, play it, collect outcomes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.bot import BotSpec
from arena.errors import ArenaError
from arena.executors import WorkerPool, run_in_process
from arena.game import METADATA_KEYS, Game
from arena.maps import GameMap, resolve_map
from arena.match import MatchOutcome, MatchSetup
from arena.plugins import PluginConfig, Registry
from arena.standings import Standings, compute_standings
from arena.tournaments import round_robin

DEFAULT_GAME = "tron"


@dataclass
class TournamentRun:
    """A schedule and the outcomes played so far (all of them unless it was interrupted)."""

    game: type[Game]
    setups: list[MatchSetup]
    outcomes: dict[int, MatchOutcome] = field(default_factory=dict)
    interrupted: bool = False

    def standings(self) -> Standings:
        """Standings over the finished games, rated in schedule order."""
        return compute_standings(self.game, self.setups, self.outcomes)


def map_game(game_map: GameMap) -> str:
    """The game a map is for: its ``; game = ...`` header, else Tron."""
    return game_map.header.get("game", DEFAULT_GAME)


def load_maps(specs: Sequence[str], registry: Registry) -> tuple[type[Game], list[GameMap]]:
    """Load maps (paths or names), check they are all for one game, and validate each for it."""
    if not specs:
        raise ArenaError("give at least one map")
    maps = [resolve_map(spec) for spec in specs]
    games = {map_game(m) for m in maps}
    if len(games) > 1:
        raise ArenaError(f"all maps of a tournament must be for one game; these are for: {', '.join(sorted(games))}")
    game = registry.game(games.pop())
    for game_map in maps:
        game.check_map(game_map)
        try:
            game.resolve_options(game_map.header)
        except ArenaError as exc:
            key = next(k for k in game_map.header if k not in METADATA_KEYS
                       and (k not in game.options or game_map.header[k] not in game.options[k].choices))
            raise game_map.header_error(key, str(exc)) from None
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


def plan_round_robin(map_specs: Sequence[str], bot_texts: Sequence[str], registry: Registry, *, games: int,
                     seed: int, time_limit: float) -> TournamentRun:
    """Resolve everything a round robin needs and build its schedule."""
    if time_limit <= 0:
        raise ArenaError("--time-limit must be positive")
    game, maps = load_maps(map_specs, registry)
    bots = select_bots(game, bot_texts, registry)
    can_play = {spec.name: set(registry.bot(spec.name).cls.roles or game.roles or (None,)) for spec in bots}
    return TournamentRun(game, round_robin(game, maps, bots, games, seed, time_limit, can_play))


def play_schedule(run: TournamentRun, registry: Registry, config: PluginConfig, workers: int,
                  on_outcome: Callable[[MatchOutcome], None] | None = None) -> TournamentRun:
    """Play every game of ``run`` not yet played, on ``workers`` processes (1: in this process).

    Ctrl-C stops the workers at once and returns with ``run.interrupted`` set and the finished games kept.
    """
    if workers < 1:
        raise ArenaError("--workers must be at least 1")
    pending = [setup for setup in run.setups if setup.index not in run.outcomes]
    pool = WorkerPool(min(workers, max(1, len(pending))), config) if workers > 1 and pending else None
    outcomes = pool.run(pending) if pool else run_in_process(pending, registry)
    try:
        for outcome in outcomes:
            run.outcomes[outcome.index] = outcome
            if on_outcome is not None:
                on_outcome(outcome)
    except KeyboardInterrupt:
        run.interrupted = True
        if pool:
            pool.close(terminate=True)
            pool = None
    finally:
        if pool:
            pool.close()
    return run
