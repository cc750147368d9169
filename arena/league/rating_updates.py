"""Storing the league's finished games and rating its ranked games, in queue order.

The rule is :mod:`arena.stats.ladder_rule`'s, the one ``arena ladder`` rates by too (a ranked game is rated
once every ranked game before it in the queue is stored); this module reads and writes the ``league_ratings``
and ``league_history`` tables.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from arena.league.context import DISABLED, RANKED, LeagueContext
from arena.league.game_queue import finished
from arena.play.referee import MatchOutcome, MatchSetup
from arena.stats.ladder_rule import Player, RatingState, outcome_of
from arena.stats.ratings import Rating
from arena.storage.store import Store

STORED = Store.stored_join("q", "g")
"""Joins a queue row ``q`` with its stored game ``g``."""


def record_outcome(ctx: LeagueContext, setup: MatchSetup, outcome: MatchOutcome) -> bool:
    """Store a finished game the moment it ends, and rate every ranked game that is now next in queue order,
    all in one transaction; ``False`` (nothing stored) if the game is stored already or was dropped from the
    queue meanwhile."""
    with ctx.store.transaction():
        queued = ctx.conn.execute("SELECT kind, run_id, versions FROM league_queue WHERE idx = ?",
                                  (outcome.index,)).fetchone()
        if queued is None:
            return False
        kind, run_id, versions = queued
        if ctx.store.has_game(run_id, outcome.index):
            return False
        seats = []
        for seat, version_id in enumerate(json.loads(versions)):
            seats.append({"label": setup.bots[seat].label, "bot_id": _store_bot(ctx, version_id),
                          "role": ctx.game.roles[seat] if ctx.game.roles else None})
        ctx.store.add_game(run_id, outcome.index, seats, outcome.ranks, outcome.reason, outcome.failure_kinds,
                           outcome.think_time, outcome.duration, outcome.turns, outcome.record(setup))
        _index_game(ctx, kind, outcome.index, json.loads(versions), outcome.failure_kinds, outcome.ranks)
        if kind == RANKED:
            rate_ready(ctx)
    return True


def _index_game(ctx: LeagueContext, kind: str, idx: int, versions: list[int], failures: dict[int, str],
                ranks: Sequence[int]) -> None:
    """A game just stored leaves the waiting games and joins each of its versions' games (and, ranked, their
    failure counts and meetings): what the pages read without walking the league's history (inside a
    transaction)."""
    finished(ctx, idx)
    game_id = ctx.conn.execute(f"SELECT g.id FROM league_queue q {STORED} WHERE q.idx = ?", (idx,)).fetchone()[0]
    ctx.conn.executemany("INSERT OR IGNORE INTO league_played (version_id, game_id, kind, idx) VALUES (?, ?, ?, ?)",
                         [(version_id, game_id, kind, idx) for version_id in versions])
    if kind == RANKED:
        ctx.conn.executemany("INSERT INTO league_failures (version_id, kind, count) VALUES (?, ?, 1) "
                             "ON CONFLICT DO UPDATE SET count = count + 1",
                             [(versions[seat], failure) for seat, failure in sorted(failures.items())])
        ctx.conn.executemany(
            "INSERT INTO league_meetings (version_id, other_id, wins, draws, losses) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT DO UPDATE SET wins = wins + excluded.wins, draws = draws + excluded.draws, "
            "losses = losses + excluded.losses",
            [(mine, theirs, int(ranks[seat] < ranks[other]), int(ranks[seat] == ranks[other]),
              int(ranks[seat] > ranks[other]))
             for seat, mine in enumerate(versions) for other, theirs in enumerate(versions)
             if other != seat and theirs != mine])


def _store_bot(ctx: LeagueContext, version_id: int) -> int:
    """The store's bot id of a version, given it the first time it plays (inside a transaction)."""
    row = ctx.conn.execute("SELECT store_bot_id, version FROM league_versions WHERE id = ?", (version_id,)).fetchone()
    if row[0] is not None:
        return int(row[0])
    team, bot, number = ctx.names(version_id)
    bot_id = ctx.store.bot_id(f"{team}/{bot}", f"{team}/{bot}", row[1], f"league: {team}/{bot} version {number}")
    ctx.conn.execute("UPDATE league_versions SET store_bot_id = ? WHERE id = ?", (bot_id, version_id))
    return bot_id


def rate_ready(ctx: LeagueContext) -> int:
    """Rate the stored ranked games next in queue order (inside a transaction); how many were rated."""
    start = int(ctx.get("rated_idx"))
    state = rating_state(ctx)
    disabled = {row[0] for row in ctx.conn.execute("SELECT id FROM league_versions WHERE status = ?", (DISABLED,))}
    rated = 0
    next_idx = start
    touched: dict[Player, list[int]] = {}
    for idx, run_id, versions in ctx.conn.execute(
            "SELECT idx, run_id, versions FROM league_queue WHERE kind = ? AND idx >= ? ORDER BY idx",
            (RANKED, start)).fetchall():
        stored = ctx.store.game_ranks_and_roles(run_id, idx)
        if stored is None:
            break
        next_idx = idx + 1
        version_ids = json.loads(versions)
        if disabled & set(version_ids):
            continue
        ranks, roles = stored
        players: list[Player] = [(v, role) for v, role in zip(version_ids, roles, strict=True)]
        state.add_game(players, ranks, lambda version: predecessor(ctx, version))
        ctx.conn.executemany(
            "INSERT OR REPLACE INTO league_history (version_id, role, idx, mu, sigma) VALUES (?, ?, ?, ?, ?)",
            [(v, role or "", idx, state.ratings[(v, role)].mu, state.ratings[(v, role)].sigma) for v, role in players])
        for seat, player in enumerate(players):
            tally = touched.setdefault(player, _tally(ctx, player))
            tally[("win", "draw", "loss").index(outcome_of(seat, ranks))] += 1
            tally[3] = idx
        rated += 1
    for player, (wins, draws, losses, last) in touched.items():
        rating = state.ratings[player]
        ctx.conn.execute(
            "INSERT OR REPLACE INTO league_ratings (version_id, role, mu, sigma, games, wins, draws, losses, "
            "last_idx) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (player[0], player[1] or "", rating.mu, rating.sigma, state.games[player], wins, draws, losses, last))
    ctx.put("rated_idx", next_idx)
    ctx.put("ties", state.ties)
    ctx.put("pairs", state.pairs)
    return rated


def _tally(ctx: LeagueContext, player: Player) -> list[int]:
    row = ctx.conn.execute("SELECT wins, draws, losses, last_idx FROM league_ratings WHERE version_id = ? "
                           "AND role = ?", (player[0], player[1] or "")).fetchone()
    return list(row) if row else [0, 0, 0, -1]


def rating_state(ctx: LeagueContext) -> RatingState:
    """The ratings after the ranked games rated so far."""
    state = RatingState(ties=int(ctx.get("ties")), pairs=int(ctx.get("pairs")))
    for version_id, role, mu, sigma, games in ctx.conn.execute(
            "SELECT version_id, role, mu, sigma, games FROM league_ratings"):
        state.ratings[(version_id, role or None)] = Rating(mu, sigma)
        state.games[(version_id, role or None)] = games
    return state


def predecessor(ctx: LeagueContext, version_id: int) -> int | None:
    """The same team's previous version of the same bot, if any."""
    row = ctx.conn.execute(
        "SELECT p.id FROM league_versions v JOIN league_versions p ON p.team_id = v.team_id AND p.bot = v.bot "
        "AND p.number < v.number WHERE v.id = ? ORDER BY p.number DESC LIMIT 1", (version_id,)).fetchone()
    return int(row[0]) if row else None


def rating(ctx: LeagueContext, version_id: int) -> tuple[float, float, int]:
    """A version's rating (its roles' averaged) and games; a version not rated yet shows the rating it will
    start from."""
    rows = ctx.conn.execute("SELECT mu, sigma, games FROM league_ratings WHERE version_id = ?",
                            (version_id,)).fetchall()
    if rows:
        return sum(r[0] for r in rows) / len(rows), sum(r[1] for r in rows) / len(rows), max(r[2] for r in rows)
    state = rating_state(ctx)
    starts = [state.start_of((version_id, role), lambda version: predecessor(ctx, version)) for role in ctx.roles()]
    return sum(s.mu for s in starts) / len(starts), sum(s.sigma for s in starts) / len(starts), 0


def recompute(ctx: LeagueContext) -> int:
    """Rate every stored ranked game again from scratch, in queue order, leaving out the games of disabled
    versions; returns how many games were rated."""
    with ctx.store.transaction():
        ctx.conn.execute("DELETE FROM league_ratings")
        ctx.conn.execute("DELETE FROM league_history")
        for key, value in (("rated_idx", 0), ("ties", 0), ("pairs", 0)):
            ctx.put(key, value)
        return rate_ready(ctx)
