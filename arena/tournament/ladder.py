"""A persistent TrueSkill ladder, stored in the database and continued round by round.

Each round pairs the bots that play the game now (a bot dropped into ``bots/`` joins on the next round;
a changed bot joins as a new version, linked to the old one, which retires). Pairing starts from the
bot that has waited longest since it last played, and gives it the opponent with the best TrueSkill
match quality, so every bot keeps playing and games stay informative.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import trueskill

from arena.core.bot import BotSpec
from arena.core.clock import PLAIN, TimeControl
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.play.executor_choice import Executor
from arena.play.referee import MatchOutcome, MatchSetup
from arena.play.sandbox.build import ensure_built_in_sandbox
from arena.play.sandbox.limits import SandboxLimits
from arena.plugins.programs.preflight import prepare_programs
from arena.plugins.registry import Registry
from arena.stats.ratings import MU, SIGMA, draw_probability, smoothed_draw_rate
from arena.stats.ratings import environment as ratings_environment
from arena.stats.two_player import draw_margin, two_player_update
from arena.storage.history import finalize_run
from arena.storage.run_names import unique_run_name
from arena.storage.store import Store
from arena.tournament.runner import store_game
from arena.tournament.schedules import game_seed

NEVER = -1
LADDER_RUN_GAMES = 5_000
"""How many games one stored run of a ladder holds before the ladder starts another."""


@dataclass(frozen=True)
class LadderEntry:
    """One bot version on the ladder."""

    bot_id: int
    label: str
    mu: float
    sigma: float
    games: int
    last_round: int


def environment(store: Store, game: str) -> trueskill.TrueSkill:
    """TrueSkill with tau 0 and the smoothed draw rate of the games ``game``'s newest all-time leaderboard
    rates (every stored game of it, once each run is finished), from the draw counts stored with it."""
    state = store.leaderboard_state(game)
    if state is None:  # none stored yet, or a database from before they kept their draw counts
        return ratings_environment(draw_probability([row.ranks for row in store.games(game=game)]))
    return ratings_environment(smoothed_draw_rate(*state[1]))


def current_entries(store: Store, registry: Registry, game: type[Game], maps: Sequence[GameMap] = (),
                    left_out: list[str] | None = None, sandbox: SandboxLimits | None = None) -> list[LadderEntry]:
    """The ladder entries of the bots that play ``game`` now, added to the ladder if new.

    Program bots are built first (in the sandbox, with ``sandbox``), so that their versions cover what their
    builds made; one whose build fails is left out, with one line in ``left_out``. A program whose protocol
    cannot play one of ``maps`` is an :class:`ArenaError`.
    """
    stored = store.ladder(game.name)
    specs = [BotSpec(entry.name) for entry in registry.bots_for(game.name) if entry.cls.in_default_field]
    setups = [(game.num_players(m), game.resolve_options(dict(m.header))) for m in maps]
    build = partial(ensure_built_in_sandbox, limits=sandbox) if sandbox is not None else None
    specs, skipped = prepare_programs(specs, game.name, setups, registry, build)
    if left_out is not None:
        left_out.extend(skipped)
    if len(specs) < 2:
        found = f"found only {specs[0].name}" if specs else "found none"
        dropped = f" (left out: {'; '.join(skipped)})" if skipped else ""
        raise ArenaError(f"nothing to play: the {game.name} ladder pairs two bots at a time and {found}{dropped}; "
                         f"add bots that play {game.name} to ./bots or give their directory with --bots-dir "
                         f"(arena bots --game {game.name} lists the bots found)")
    entries = []
    for spec in specs:
        bot = registry.bot(spec.name)
        bot_id = store.bot_id(bot.name, bot.name, registry.version_of(spec), bot.source)
        mu, sigma, games, last = stored.get((bot_id, None), (MU, SIGMA, 0, NEVER))
        entries.append(LadderEntry(bot_id, bot.name, mu, sigma, games, last))
    return entries


def pair_round(entries: Sequence[LadderEntry], env: trueskill.TrueSkill) -> list[tuple[LadderEntry, LadderEntry]]:
    """Pairs for one round: the longest-waiting bot first, each with its best-quality unpaired opponent."""
    waiting = sorted(entries, key=lambda e: (e.last_round, e.games, e.label))
    pairs = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        mine = env.create_rating(first.mu, first.sigma)
        best = max(waiting, key=lambda e: (env.quality([(mine,), (env.create_rating(e.mu, e.sigma),)]),
                                           -e.last_round, e.label))
        waiting.remove(best)
        pairs.append((first, best))
    return pairs


def round_games(game: type[Game], maps: Sequence[GameMap], pairs: Sequence[tuple[LadderEntry, LadderEntry]],
                round_number: int, games_per_pair: int, seed: int, time_limit: float | None, start_index: int,
                time_control: TimeControl = PLAIN) -> list[MatchSetup]:
    """The games of one ladder round: each pair on the round's map, both seats equally often."""
    game_map = maps[round_number % len(maps)]
    setups: list[MatchSetup] = []
    for repetition in range(-(-games_per_pair // 2)):
        for pair_index, (a, b) in enumerate(pairs):
            seed_here = game_seed(seed, round_number, pair_index, repetition)
            for first, second in ((a, b), (b, a)):
                setups.append(MatchSetup(game.name, (BotSpec(first.label), BotSpec(second.label)), game_map,
                                         dict(game_map.header), seed_here, time_limit, start_index + len(setups),
                                         time_control))
    return setups


def update(store: Store, game: str, entries: Sequence[LadderEntry],
           results: Sequence[tuple[MatchSetup, Sequence[int]]], round_number: int, env: trueskill.TrueSkill) -> None:
    """Rate the round's games in schedule order and save the ladder."""
    by_label = {e.label: e for e in entries}
    ratings = {e.label: (e.mu, e.sigma) for e in entries}
    games = {e.label: e.games for e in entries}
    played = set()
    update, margin = two_player_update(env), draw_margin(env)
    for setup, ranks in results:
        first, second = (spec.label for spec in setup.bots)
        ratings[first], ratings[second] = update(ratings[first], ratings[second], ranks, margin)
        for label in (first, second):
            games[label] += 1
            played.add(label)
    store.save_ladder(game, {
        (by_label[label].bot_id, None): (*ratings[label], games[label],
                                         round_number if label in played else by_label[label].last_round)
        for label in by_label
    })


@dataclass(frozen=True)
class PlannedRound:
    """The next round of a game's ladder, before it is played: its number, the bots on the ladder now and how
    they are paired."""

    number: int
    entries: list[LadderEntry]
    pairs: list[tuple[LadderEntry, LadderEntry]]
    env: trueskill.TrueSkill
    left_out: list[str] = field(default_factory=list)
    """One line for each program bot left out because its build failed."""

    @property
    def sat_out(self) -> list[str]:
        """The bots on the ladder that this round does not pair (one, when their number is odd)."""
        playing = {e.label for pair in self.pairs for e in pair}
        return sorted(e.label for e in self.entries if e.label not in playing)

    def game_count(self, games_per_pair: int) -> int:
        """How many games the round plays: every pair, both seats equally often."""
        return len(self.pairs) * 2 * -(-games_per_pair // 2)


def plan_round(store: Store, registry: Registry, game: type[Game], maps: Sequence[GameMap],
               sandbox: SandboxLimits | None = None) -> PlannedRound:
    """The next round of ``game``'s ladder: the bots that play it now (added to the ladder if new) and their
    pairs. Nothing is stored but new bot versions; an :class:`ArenaError` if there is nothing to play.
    With ``sandbox``, program bots build in the sandbox (play it on a pool whose limits say ``sandbox`` too)."""
    check_ladder_maps(game, maps)
    left_out: list[str] = []
    entries = current_entries(store, registry, game, maps, left_out, sandbox)
    env = environment(store, game.name)
    return PlannedRound(next_round_number(store, game.name), entries, pair_round(entries, env), env, left_out)


@dataclass(frozen=True)
class LadderRound:
    """What one ladder round played."""

    number: int
    run_id: int
    pairs: list[tuple[LadderEntry, LadderEntry]]
    games: int
    sat_out: list[str]
    first_game: int = 0
    """The index in the ladder's run of the round's first game (its games follow it)."""
    left_out: list[str] = field(default_factory=list)
    """One line for each program bot left out because its build failed."""


def play_round(store: Store, registry: Registry, pool: Executor, game: type[Game], maps: Sequence[GameMap],
               games_per_pair: int, seed: int, time_limit: float | None,
               on_outcome: Callable[[MatchOutcome], None] | None = None,
               planned: PlannedRound | None = None, time_control: TimeControl = PLAIN,
               sandbox: SandboxLimits | None = None) -> LadderRound:
    """Play the round ``planned`` (by default the next one, see :func:`plan_round`): its games, each stored as
    it finishes, then update the ladder. ``sandbox``: the limits the pool plays every bot confined with.

    The ladder's games are stored in a run that grows round by round (see :func:`ladder_run`).
    """
    planned = planned or plan_round(store, registry, game, maps, sandbox)
    number, entries, pairs, env = planned.number, planned.entries, planned.pairs, planned.env
    run_id, first = ladder_run(store, game.name, time_control, sandbox)
    setups = round_games(game, maps, pairs, number, games_per_pair, seed, time_limit, first, time_control)
    store.set_run_status(run_id, "running", scheduled=first + len(setups))
    ranks: dict[int, tuple[int, ...]] = {}
    bot_ids: dict[str, int] = {}
    by_index = {setup.index: setup for setup in setups}
    for outcome in pool.run(setups):
        store_game(store, run_id, game, by_index[outcome.index], outcome, registry, bot_ids)
        ranks[outcome.index] = outcome.ranks
        if on_outcome is not None:
            on_outcome(outcome)
    update(store, game.name, entries, [(s, ranks[s.index]) for s in setups], number, env)
    finalize_run(store, run_id, "complete")
    return LadderRound(number, run_id, pairs, len(setups), planned.sat_out, first, planned.left_out)


def ladder_definition(game: str, time_control: TimeControl = PLAIN,
                      sandbox: SandboxLimits | None = None) -> tuple[dict[str, Any], str]:
    """The definition and fingerprint of the runs of ``game``'s ladder played with these settings.

    A plain, unconfined ladder keeps ``{"game": game}`` and ``ladder-GAME`` (the runs of earlier versions go
    on); a time control or the sandbox (with its limits) is part of the definition, and of the fingerprint
    through a hash of it, so rounds played with other settings never share a run.
    """
    definition: dict[str, Any] = {"game": game}
    if not time_control.is_plain:
        definition["time_control"] = time_control.as_json()
    if sandbox is not None:
        definition["sandbox"] = sandbox.as_json()
    if len(definition) == 1:
        return definition, f"ladder-{game}"
    digest = hashlib.sha256(json.dumps(definition, sort_keys=True).encode()).hexdigest()[:12]
    return definition, f"ladder-{game}-{digest}"


def ladder_run(store: Store, game: str, time_control: TimeControl = PLAIN,
               sandbox: SandboxLimits | None = None) -> tuple[int, int]:
    """The stored run the next round of ``game``'s ladder (with this time control and sandbox) adds its games
    to, and the index its next game takes.

    The ladder continues its newest run of the same settings (see :func:`ladder_definition`) while that is
    the newest run of the game and holds fewer than ``LADDER_RUN_GAMES`` games; otherwise (on its first
    round too) it starts a new one. Finishing a round rates the games of the run it grows, and of the game's
    runs after that one: so however long the ladder runs, a round rates at most that many games.
    """
    definition, fingerprint = ladder_definition(game, time_control, sandbox)
    run = store.latest_run_with(fingerprint)
    if run is not None and run.id == store.game_runs(game)[-1][0] and run.scheduled < LADDER_RUN_GAMES:
        return run.id, run.scheduled
    with store.transaction():
        parts = store.count_runs_with(fingerprint)
        settings = ", ".join(filter(None, (time_control.describe(), "sandboxed" if sandbox is not None else "")))
        title = f"{game} ladder" + (f" ({settings})" if settings else "")
        name = unique_run_name(store, title + (f", part {parts + 1}" if parts else ""))
        return store.create_run(name, game, "ladder", definition, fingerprint, 0), 0


def check_ladder_maps(game: type[Game], maps: Sequence[GameMap]) -> None:
    """Refuse maps the ladder cannot play: it pairs two bots at a time."""
    if any(game.num_players(m) != 2 for m in maps):
        raise ArenaError("the ladder pairs two bots at a time: use 2-player maps")


def next_round_number(store: Store, game: str) -> int:
    """The number of the ladder's next round."""
    return max((last for *_, last in store.ladder(game).values()), default=NEVER) + 1
