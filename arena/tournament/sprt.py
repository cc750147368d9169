"""Is the new version better? A sequential test on seat-swapped game pairs.

Two bots play pairs of games: in each pair both games have the same seed (the same map and start), with
the seats swapped, so a seat or start that favours one side helps each bot once. After every pair the
generalized sequential probability ratio test (GSPRT, as fishtest runs it) weighs H0: "the new bot is
``elo0`` Elo stronger" against H1: "it is ``elo1`` Elo stronger", using the pentanomial counts of the
pairs (:func:`arena.stats.elo.gsprt_llr`). The test stops when the log-likelihood ratio leaves Wald's bounds
(:func:`arena.stats.elo.sprt_bounds`): accepting H1 when H0 holds happens with probability about ``alpha``,
accepting H0 when H1 holds with probability about ``beta``. The decision depends only on the pairs in
order, never on how many workers played them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from arena.core.bot import BotSpec
from arena.core.clock import PLAIN, TimeControl, check_time_limit
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.play.executor_choice import LOCAL, ExecutorChoice
from arena.play.executors import run_in_process
from arena.play.limits import Limits
from arena.play.referee import MatchOutcome, MatchSetup
from arena.play.sandbox.limits import SandboxLimits
from arena.plugins.registry import PluginConfig, Registry
from arena.stats.elo import EloEstimate, elo_difference, elo_difference_pairs, gsprt_llr, pentanomial, sprt_bounds
from arena.stats.proportions import success
from arena.tournament.openings import OpeningsChoice, opening_maps, openings_game
from arena.tournament.schedules import game_seed
from arena.tournament.selection import load_maps
from arena.tournament.single_game import common_game

Decision = Literal["H0", "H1"]
MAX_BATCH_PAIRS = 256


def parse_sprt(text: str) -> tuple[float, float]:
    """Parse ``--sprt ELO0,ELO1`` (e.g. ``0,10``): two finite numbers with ``ELO0 < ELO1``."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = (float(part) for part in parts)
    except ValueError:
        raise ArenaError(f"--sprt takes two Elo differences ELO0,ELO1 such as 0,10, not {text!r}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise ArenaError(f"--sprt bounds must be finite numbers, not {text!r}")
    if elo0 >= elo1:
        raise ArenaError(f"--sprt ELO0,ELO1 needs ELO0 below ELO1, not {text!r}")
    return elo0, elo1


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (H0: Elo difference ``elo0``, H1: ``elo1``) and the error rates ``alpha``, ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)) or self.elo0 >= self.elo1:
            raise ArenaError(f"the SPRT needs finite Elo bounds with ELO0 below ELO1, not {self.elo0:g},{self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise ArenaError(f"--{name} must be between 0 and 1 (exclusive), not {value:g}")
        if self.alpha + self.beta >= 1:
            raise ArenaError(f"--alpha plus --beta must be below 1, not {self.alpha + self.beta:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``."""
        return sprt_bounds(self.alpha, self.beta)


@dataclass
class SprtState:
    """The running test: pentanomial counts, game totals and the current log-likelihood ratio."""

    settings: SprtSettings
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    llr: float = 0.0

    def add_pair(self, first: float, second: float) -> None:
        """Record one pair: the first bot's score (1, 1/2 or 0) in each of its two games."""
        bucket = pentanomial([(first, second)]).index(1)
        self.counts[bucket] += 1
        for score in (first, second):
            self.wins += score == 1
            self.draws += score == 0.5
            self.losses += score == 0
        self.llr = gsprt_llr(self.counts, self.settings.elo0, self.settings.elo1)

    @property
    def pairs(self) -> int:
        """Pairs recorded so far."""
        return sum(self.counts)

    @property
    def decision(self) -> Decision | None:
        """``"H1"`` once the LLR reaches the upper bound, ``"H0"`` once it reaches the lower one, else ``None``."""
        lower, upper = self.settings.bounds
        if self.llr >= upper:
            return "H1"
        if self.llr <= lower:
            return "H0"
        return None

    def elo(self) -> EloEstimate:
        """The Elo difference with its 95% margin and LOS from the pairs (pentanomial)."""
        return elo_difference_pairs(self.counts)

    def success(self) -> float:
        """Cloppert's (2007) success measure of the new bot: games won minus games lost, over games played."""
        return success(self.wins, self.losses, self.wins + self.draws + self.losses)

    def elo_games(self) -> EloEstimate:
        """The same from single games (trinomial), for comparison: wider when seats matter."""
        return elo_difference(self.wins, self.draws, self.losses)


@dataclass(frozen=True)
class ComparePlan:
    """What a comparison plays (the game, the maps the pairs cycle through, the two bots, new first) and
    how (workers, at most ``max_pairs`` pairs, or no limit)."""

    game: type[Game]
    game_maps: tuple[GameMap, ...]
    new: BotSpec
    old: BotSpec
    time_limit: float | None
    seed: int
    workers: int = 1
    max_pairs: int | None = None
    time_control: TimeControl = PLAIN
    options: Mapping[str, str] = field(default_factory=dict)
    """Game options over the maps' own (``-o``)."""

    def map_of(self, k: int) -> GameMap:
        """The map of the ``k``-th pair: the maps in turn."""
        return self.game_maps[k % len(self.game_maps)]

    def pair(self, k: int) -> tuple[MatchSetup, MatchSetup]:
        """The ``k``-th pair: on the next map, the same seed twice, the new bot in seat 0 and then in seat 1."""
        seed = game_seed(self.seed, k)
        game_map = self.map_of(k)
        options = {**game_map.header, **self.options}
        return (
            MatchSetup(self.game.name, (self.new, self.old), game_map, options, seed, self.time_limit, 2 * k,
                       self.time_control),
            MatchSetup(self.game.name, (self.old, self.new), game_map, options, seed, self.time_limit, 2 * k + 1,
                       self.time_control),
        )


def plan_compare(new: str, old: str, map_specs: str | Sequence[str] | None, registry: Registry, *,
                 time_limit: float | None, seed: int, workers: int = 1, max_pairs: int | None = None,
                 time_control: TimeControl = PLAIN, openings: OpeningsChoice | None = None,
                 options: Mapping[str, str] | None = None) -> ComparePlan:
    """Resolve and check the two bot specs, the maps (each with two seats; default: the default maps of the
    game both bots play, so a comparison is not decided by one map), the openings (each a map after those
    given: the pairs play them in turn, each opening once with each bot in each seat), the game options
    and the limits."""
    check_time_limit(time_limit, time_control)
    if workers < 1:
        raise ArenaError("--workers must be at least 1")
    if max_pairs is not None and max_pairs < 1:
        raise ArenaError("--max-pairs must be at least 1")
    specs = (registry.spec(new), registry.spec(old))
    given = [map_specs] if isinstance(map_specs, str) else list(map_specs or [])
    if openings is None:
        game, game_maps = load_maps(given or list(common_game(specs, registry).default_maps), registry)
    else:
        game, game_maps = load_maps(given, registry) if given else (openings_game(registry, None), [])
        game_maps = [*game_maps, *opening_maps(openings, openings_game(registry, game.name), seed)]
    game.resolve_options(options or {})
    for game_map in game_maps:
        seats = game.num_players(game_map)
        if seats != 2:
            raise ArenaError(f"{game_map.label} has {seats} seats; compare plays two bots, so give 2-seat maps")
    for spec in specs:
        cls = registry.bot(spec.name).cls
        if not cls.plays(game.name):
            raise ArenaError(f"bot {spec.name!r} does not play {game.name}")
        for role in game.roles:
            if not cls.plays(game.name, role):
                raise ArenaError(f"bot {spec.name!r} does not play {role}; each bot plays both seats")
    return ComparePlan(game, tuple(game_maps), specs[0], specs[1], time_limit, seed, workers, max_pairs,
                       time_control, dict(options or {}))


@dataclass
class CompareResult:
    """How a comparison ended: the test's state, its decision (``None`` if none), and whether it was stopped."""

    plan: ComparePlan
    state: SprtState
    decision: Decision | None = None
    interrupted: bool = False


def _score(outcome: MatchOutcome, seat: int) -> float:
    mine, theirs = outcome.ranks[seat], outcome.ranks[1 - seat]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def run_compare(
    plan: ComparePlan,
    settings: SprtSettings,
    registry: Registry,
    config: PluginConfig,
    on_pair: Callable[[SprtState], None] | None = None,
    *,
    in_process: bool = False,
    executor: ExecutorChoice = LOCAL,
    sandbox: SandboxLimits | None = None,
) -> CompareResult:
    """Play pairs until the SPRT decides, ``plan.max_pairs`` have been played, or Ctrl-C.

    Pairs are played in batches on ``plan.workers`` workers of the ``executor`` (or, with ``in_process``, in
    this process, where a stuck bot cannot be killed) and recorded strictly in order, so the decision and
    every printed figure are the same whatever the number of workers; a batch's pairs after the deciding
    one are discarded. ``on_pair`` is called after each recorded pair. With ``sandbox``, every bot plays
    confined with these limits (on workers, never in this process).
    """
    state = SprtState(settings)
    result = CompareResult(plan, state)
    workers, max_pairs = plan.workers, plan.max_pairs
    pool = None if in_process and sandbox is None else executor.start(workers, config, Limits(sandbox=sandbox),
                                                                       registry)
    try:
        while result.decision is None and (max_pairs is None or state.pairs < max_pairs):
            start = state.pairs
            size = max(workers, min(MAX_BATCH_PAIRS, start // 8))
            if max_pairs is not None:
                size = min(size, max_pairs - start)
            setups = [setup for k in range(start, start + size) for setup in plan.pair(k)]
            outcomes = pool.run(setups) if pool else run_in_process(setups, registry)
            finished: dict[int, MatchOutcome] = {}
            for outcome in outcomes:
                finished[outcome.index] = outcome
                while result.decision is None and 2 * state.pairs in finished and 2 * state.pairs + 1 in finished:
                    k = state.pairs
                    state.add_pair(_score(finished.pop(2 * k), 0), _score(finished.pop(2 * k + 1), 1))
                    if on_pair is not None:
                        on_pair(state)
                    result.decision = state.decision
                if result.decision is not None:
                    break
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        if pool is not None:
            pool.close(terminate=True)
    return result
