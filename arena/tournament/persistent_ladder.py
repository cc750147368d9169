"""A persistent TrueSkill ladder, stored in the database and continued round by round.

Each round plays the bots that play the game now (a bot dropped into ``bots/`` joins on the next round; a
changed bot joins as a new version, linked to the old one, which retires). Who meets and how the games are
rated is the league's rule, :mod:`arena.stats.ladder_rule`, the one module both use: a round is ``n // 2``
matches of its ``n`` bots planned by :func:`~arena.stats.ladder_rule.plan_matches` (fair share by stride, an
uncertain bot first in line more often, a new version at once, each first bot with its best-quality
opponent; a bot may play more than one match of a round, and the bots in none sit out), and its games are
rated one at a time in schedule order by :class:`~arena.stats.ladder_rule.RatingState`, with the draw rate
of the ladder's own games, a new version starting from its predecessor's rating carried over. The ladder
stores each entry's pass and games scheduled, and its draw counts, with its ratings.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
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
from arena.stats.ladder_rule import Candidate, RatingState, match_environment, plan_matches, starting_pass
from arena.stats.ratings import Rating
from arena.storage.history import finalize_run
from arena.storage.rating_rows import LadderRow
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
    pass_: float = 0.0
    """Its weighted games scheduled, as the rule counts them (:class:`~arena.stats.ladder_rule.Candidate`)."""
    scheduled: int = 0
    """Its games scheduled since it joined the ladder."""

    @property
    def candidate(self) -> Candidate:
        """The entry as the matchmaking rule sees it."""
        return Candidate(self.bot_id, self.mu, self.sigma, self.pass_, self.scheduled)


def environment(store: Store, game: str) -> trueskill.TrueSkill:
    """The environment the ladder of ``game`` measures match quality in: the smoothed draw rate of the games
    it has rated (:func:`~arena.stats.ladder_rule.match_environment`)."""
    return match_environment(*store.ladder_draws(game))


def predecessors(store: Store) -> dict[int, int | None]:
    """Each stored bot version's previous version (the one its label had before it), as the store links them."""
    return {row["id"]: row["previous_id"] for row in store.bot_rows()}


def rating_state(store: Store, game: str) -> RatingState:
    """The ratings after the games the ladder of ``game`` has rated: every entry that played (a version that
    has not starts from its predecessor's when it first plays), and the draw counts."""
    ties, pairs = store.ladder_draws(game)
    state = RatingState(ties=ties, pairs=pairs)
    for key, row in store.ladder(game).items():
        if row.games > 0:
            state.ratings[key] = Rating(row.mu, row.sigma)
            state.games[key] = row.games
    return state


def current_entries(store: Store, registry: Registry, game: type[Game], maps: Sequence[GameMap] = (),
                    left_out: list[str] | None = None, sandbox: SandboxLimits | None = None) -> list[LadderEntry]:
    """The ladder entries of the bots that play ``game`` now, added to the ladder if new.

    Program bots are built first (in the sandbox, with ``sandbox``), so that their versions cover what their
    builds made; one whose build fails is left out, with one line in ``left_out``. A program whose protocol
    cannot play one of ``maps`` is an :class:`ArenaError`.

    A version new to the ladder (or back on it after it retired) joins with the lowest pass of the others and no
    games scheduled, so it plays at once; one that never played shows the rating it will start from (its
    predecessor's carried over, see :mod:`arena.stats.ladder_rule`).
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
    ids = []
    for spec in specs:
        bot = registry.bot(spec.name)
        ids.append((bot.name, store.bot_id(bot.name, bot.name, registry.version_of(spec), bot.source)))
    state = rating_state(store, game.name)
    previous = predecessors(store)  # with the versions just added
    shares = {bot_id: (row.pass_, row.scheduled) for _, bot_id in ids
              if (row := stored.get((bot_id, None))) is not None and row.pass_ is not None}
    joining_pass = starting_pass([Candidate(bot_id, 0.0, 0.0, pass_, 0) for bot_id, (pass_, _) in shares.items()])
    entries = []
    for label, bot_id in ids:
        row = stored.get((bot_id, None))
        start = state.start_of((bot_id, None), previous.get)
        games, last = (row.games, row.last_round) if row else (0, NEVER)
        pass_, scheduled = shares.get(bot_id, (joining_pass, 0))
        entries.append(LadderEntry(bot_id, label, start.mu, start.sigma, games, last, pass_, scheduled))
    return entries


def match_games(games_per_pair: int) -> int:
    """The games of one match of the ladder: ``games_per_pair`` rounded up to both seats equally often."""
    return 2 * -(-games_per_pair // 2)


def pair_round(entries: Sequence[LadderEntry], env: trueskill.TrueSkill,
               games_per_match: int) -> tuple[list[tuple[LadderEntry, LadderEntry]], list[LadderEntry]]:
    """The pairs of one round, ``len(entries) // 2`` matches by the shared rule
    (:func:`~arena.stats.ladder_rule.plan_matches`), each of ``games_per_match`` games, first bot first; and
    the entries after them (their pass and games scheduled moved on)."""
    planned, after = plan_matches([e.candidate for e in entries], 2, games_per_match, len(entries) // 2, env)
    by_id = {e.bot_id: e for e in entries}
    shares = {c.key: c for c in after}
    return ([(by_id[first.key], by_id[second.key]) for first, second in planned],
            [replace(e, pass_=shares[e.bot_id].pass_, scheduled=shares[e.bot_id].scheduled) for e in entries])


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
           results: Sequence[tuple[MatchSetup, Sequence[int]]], round_number: int) -> None:
    """Rate the round's games one at a time in schedule order (the shared rating path,
    :class:`~arena.stats.ladder_rule.RatingState`) and save the ladder: ``entries`` (the bots on the ladder now,
    their pass and games scheduled as the round left them) with their ratings, and the draw counts.

    A version no longer on the ladder is saved with no pass and no games scheduled, so that if it comes back it
    joins as a new one does (see :func:`current_entries`)."""
    state = rating_state(store, game)
    previous = predecessors(store)
    by_label = {e.label: e for e in entries}
    played = set()
    for setup, ranks in results:
        labels = [spec.label for spec in setup.bots]
        state.add_game([(by_label[label].bot_id, None) for label in labels], ranks, previous.get)
        played.update(labels)
    playing = {e.bot_id for e in entries}
    saved = {key: row._replace(pass_=None, scheduled=0) for key, row in store.ladder(game).items()
             if row.pass_ is not None and key[0] not in playing}
    for e in entries:
        key = (e.bot_id, None)
        rating = state.start_of(key, previous.get)
        saved[key] = LadderRow(rating.mu, rating.sigma, state.games.get(key, 0),
                               round_number if e.label in played else e.last_round, e.pass_, e.scheduled)
    store.save_ladder(game, saved, (state.ties, state.pairs))


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
    after: list[LadderEntry] = field(default_factory=list)
    """The entries after the round is scheduled: their pass and games scheduled moved on."""
    games_per_pair: int = 2
    """The games each pair plays, as the round was planned for."""

    @property
    def sat_out(self) -> list[str]:
        """The bots on the ladder that this round does not pair."""
        playing = {e.label for pair in self.pairs for e in pair}
        return sorted(e.label for e in self.entries if e.label not in playing)

    def game_count(self, games_per_pair: int) -> int:
        """How many games the round plays: every pair, both seats equally often."""
        return len(self.pairs) * match_games(games_per_pair)


def plan_round(store: Store, registry: Registry, game: type[Game], maps: Sequence[GameMap],
               sandbox: SandboxLimits | None = None, games_per_pair: int = 2) -> PlannedRound:
    """The next round of ``game``'s ladder: the bots that play it now (added to the ladder if new) and their
    pairs, each playing ``games_per_pair`` games (both seats equally often). Nothing is stored but new bot
    versions; an :class:`ArenaError` if there is nothing to play. With ``sandbox``, program bots build in the
    sandbox (play it on a pool whose limits say ``sandbox`` too)."""
    check_ladder_maps(game, maps)
    left_out: list[str] = []
    entries = current_entries(store, registry, game, maps, left_out, sandbox)
    env = environment(store, game.name)
    pairs, after = pair_round(entries, env, match_games(games_per_pair))
    return PlannedRound(next_round_number(store, game.name), entries, pairs, env, left_out, after, games_per_pair)


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
    planned = planned or plan_round(store, registry, game, maps, sandbox, games_per_pair)
    if planned.games_per_pair != games_per_pair:
        raise ArenaError(f"the round was planned for {planned.games_per_pair} games per pair, not {games_per_pair}")
    number, pairs = planned.number, planned.pairs
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
    update(store, game.name, planned.after, [(s, ranks[s.index]) for s in setups], number)
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
    return max((row.last_round for row in store.ladder(game).values()), default=NEVER) + 1
