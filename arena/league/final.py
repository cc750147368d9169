"""The league's final: submissions close and the active versions play a final of their own, at once or once a
deadline has passed: a round robin, or a single- or double-elimination bracket seeded by the ladder.

Every pairing plays ``games`` games: the seat orders in turn (each sits in each seat as often as the others, to
one game), a set of one game per seat order on one map with one seed, the sets' maps in rotation (starting at the
pairing's number, so the maps are spread over the pairings too). The round robin is queued at once; a bracket
is queued a wave at a time: once none of the final's games is waiting, the matches played are decided and the
matches they made ready are queued, all in one transaction, so a final killed at any moment resumes where it
was, without replaying or repeating a game. Its state is the ``league_final_matches`` table (see
:mod:`arena.league.league_schema`) and the ``final_*`` keys of ``league_state``.

The round robin's table is ordered by :mod:`arena.league.tiebreaks`; a bracket's by how far each bot got (level
ones by seed). A bracket's match goes to the higher score; level, to more wins, then the higher TrueSkill
``mu - 3 sigma`` of the final's games so far, then the higher seed.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from itertools import combinations
from typing import Any

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.league import brackets
from arena.league.context import FINAL, LeagueContext
from arena.league.game_queue import WAITING, enqueue, run_of, waiting
from arena.league.models import FinalRow
from arena.league.rating_updates import rating
from arena.league.tiebreaks import Standing, order, pairwise
from arena.stats.ladder_rule import outcome_of
from arena.stats.ratings import MU, SIGMA, Rating, rate
from arena.storage.store import now
from arena.tournament.schedules import seat_assignments

ROUND_ROBIN = "round-robin"
FORMATS = (ROUND_ROBIN, brackets.SINGLE, brackets.DOUBLE)
"""The final's formats."""
MAX_GAMES = 100
"""The most games a pairing of the final may play."""
MATCH_RULES = ("score", "wins", "TrueSkill", "seed")
"""What decides a bracket's match, in order."""


def start_final(ctx: LeagueContext, deadline: str | None = None, games: int | None = None,
                fmt: str | None = None) -> int:
    """Close submissions and queue the final, or set its ``deadline``; returns how many games were queued now
    (see :meth:`arena.league.facade.League.start_final`). ``games`` per pairing (default: one per seat order
    and map) and the format ``fmt`` given with a deadline are kept for when it passes."""
    if ctx.get("final_run") is not None:
        raise ArenaError("the final has been played or queued already")
    fmt = fmt or ctx.get("final_format") or ROUND_ROBIN
    if fmt not in FORMATS:
        raise ArenaError(f"final format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fmt != ROUND_ROBIN and ctx.players != 2:
        raise ArenaError(f"a {fmt} final needs a two-player game; {ctx.game.name} has {ctx.players} players")
    games = games if games is not None else ctx.get("final_games")
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise ArenaError(f"a final plays 1 to {MAX_GAMES} games a pairing, not {games}")
    if deadline is not None:
        moment = parse_time(deadline)
        if moment > now():
            with ctx.store.transaction():
                ctx.put("deadline", moment)
                ctx.put("final_format", fmt)
                ctx.put("final_games", games)
            return 0
    with ctx.store.transaction():
        ctx.put("frozen", True)
        seeds = ladder_order(ctx)
        if len(seeds) < max(2, ctx.players):
            raise ArenaError(f"a final needs at least {max(2, ctx.players)} bots that play; there are {len(seeds)}")
        run_id = run_of(ctx, FINAL)
        ctx.put("final_format", fmt)
        ctx.put("final_games", games if games is not None else len(ctx.maps) * ctx.players)
        ctx.put("final_seeds", seeds)
        if fmt != ROUND_ROBIN:
            return _advance(ctx)
        return sum(len(_queue_pairing(ctx, run_id, number, list(group)))
                   for number, group in enumerate(combinations(seeds, ctx.players)))


def ladder_order(ctx: LeagueContext) -> list[int]:
    """The active versions in the ladder's order (best ``mu - 3 sigma`` first): the final's seeds."""
    rows = []
    for version_id, team, bot in ctx.conn.execute(
            "SELECT v.id, t.name, v.bot FROM league_active a JOIN league_versions v ON v.id = a.version_id "
            "JOIN league_teams t ON t.id = a.team_id"):
        mu, sigma, _ = rating(ctx, version_id)
        rows.append((-(mu - 3 * sigma), team, bot, version_id))
    return [row[-1] for row in sorted(rows)]


def _games_per_pairing(ctx: LeagueContext) -> int:
    return int(ctx.get("final_games") or len(ctx.maps) * ctx.players)


def _queue_pairing(ctx: LeagueContext, run_id: int, number: int, group: list[int]) -> list[int]:
    """Queue the games of pairing ``number`` (see the module's docstring); returns their ids."""
    games = _games_per_pairing(ctx)
    seatings = [[int(spec.name) for spec in seating]
                for seating in seat_assignments(ctx.game, [BotSpec(str(v)) for v in group], None)]
    sets = -(-games // len(seatings))
    maps = len(ctx.maps)
    stride = maps * -(-(sets - 1) // maps) + 1  # 1 more than a multiple of the maps: set s's map is number + s
    return [enqueue(ctx, FINAL, run_id, seatings[g % len(seatings)], number * stride + g // len(seatings))
            for g in range(games)]


def final_due(ctx: LeagueContext) -> bool:
    """Whether a deadline has passed with the final not queued yet (the ladder then queues it)."""
    deadline = ctx.get("deadline")
    return deadline is not None and now() >= deadline and ctx.get("final_run") is None


def advance_final(ctx: LeagueContext) -> int:
    """A bracket's next wave: once none of the final's games is waiting, decide the matches played and queue
    those now ready (one transaction); returns how many games were queued."""
    if ctx.get("final_run") is None or ctx.get("final_format", ROUND_ROBIN) == ROUND_ROBIN:
        return 0
    if waiting(ctx, (FINAL,)):
        return 0
    with ctx.store.transaction():
        return _advance(ctx)


def _final_games(ctx: LeagueContext) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """The final's stored games in queue order: (id, versions by seat, ranks by seat)."""
    run_id = ctx.get("final_run")
    if run_id is None:
        return []
    stored = ctx.store.ranks_by_index(int(run_id))
    return [(idx, tuple(json.loads(versions)), tuple(stored[idx])) for idx, versions in ctx.conn.execute(
        "SELECT idx, versions FROM league_queue WHERE kind = ? AND run_id = ? ORDER BY idx", (FINAL, run_id))
        if idx in stored]


def _advance(ctx: LeagueContext) -> int:
    """Decide the bracket's matches played, queue the ready ones (inside a transaction); games queued."""
    fmt, seeds = ctx.get("final_format"), [int(v) for v in ctx.get("final_seeds")]
    run_id = run_of(ctx, FINAL)
    played = _final_games(ctx)
    by_idx = {idx: (versions, ranks) for idx, versions, ranks in played}
    ratings: dict[int, Rating] | None = None
    for match_id, a, b, ids in ctx.conn.execute(
            "SELECT id, version_a, version_b, games FROM league_final_matches WHERE winner IS NULL").fetchall():
        if ratings is None:
            ratings, _ = rate([(versions, ranks) for _, versions, ranks in played])
        games = [by_idx[idx] for idx in json.loads(ids) if idx in by_idx]
        winner, rule, score_a, score_b = decide_match(a, b, games, ratings, seeds)
        ctx.conn.execute("UPDATE league_final_matches SET winner = ?, decided_by = ?, score_a = ?, score_b = ? "
                         "WHERE id = ?", (winner, rule, score_a, score_b, match_id))
    known = {row[0]: row[1] for row in ctx.conn.execute("SELECT id, winner FROM league_final_matches")}
    states = brackets.resolve(brackets.layout(fmt, len(seeds)), seeds, {k: w for k, w in known.items() if w})
    queued = 0
    for state in states:
        if state.status == "ready" and state.spec.id not in known:
            assert state.a is not None and state.b is not None
            number = len(known)
            ids = _queue_pairing(ctx, run_id, number, [state.a, state.b])
            ctx.conn.execute("INSERT INTO league_final_matches (id, number, version_a, version_b, games) "
                             "VALUES (?, ?, ?, ?, ?)", (state.spec.id, number, state.a, state.b, json.dumps(ids)))
            known[state.spec.id] = None
            queued += len(ids)
    return queued


def decide_match(a: int, b: int, games: list[tuple[tuple[int, ...], tuple[int, ...]]],
                 ratings: dict[int, Rating], seeds: list[int]) -> tuple[int, str, float, float]:
    """The winner of a bracket's match between ``a`` and ``b`` from its ``games`` (versions and ranks by seat),
    the rule that decided it (:data:`MATCH_RULES`) and the two scores."""
    score = {a: 0.0, b: 0.0}
    wins = {a: 0, b: 0}
    for versions, ranks in games:
        for (bot, rival), points in pairwise(versions, ranks).items():
            if {bot, rival} == {a, b}:
                score[bot] += points
                wins[bot] += points == 1.0
    keys = {bot: (score[bot], wins[bot],
                  round(ratings[bot].conservative, 6) if bot in ratings else float("-inf"), -seeds.index(bot))
            for bot in (a, b)}
    rule = next(name for name, x, y in zip(MATCH_RULES, keys[a], keys[b], strict=True) if x != y)
    return (a if keys[a] > keys[b] else b), rule, score[a], score[b]


def final_table(ctx: LeagueContext) -> list[FinalRow]:
    """The final's table, best first (see the module's docstring), each row with the rule that put it ahead
    of the next; an error if there is no final."""
    run_id = ctx.get("final_run")
    if run_id is None:
        raise ArenaError("this league has had no final (start one with `arena league final`)")
    fmt = ctx.get("final_format", ROUND_ROBIN)
    played = _final_games(ctx)
    ratings, _ = rate([(versions, ranks) for _, versions, ranks in played])
    counts: dict[int, list[float]] = {}
    against: dict[tuple[int, int], float] = {}
    for _, versions, ranks in played:
        for seat, version in enumerate(versions):
            tally = counts.setdefault(version, [0, 0, 0, 0.0])
            result = outcome_of(seat, ranks)
            tally[("win", "draw", "loss").index(result)] += 1
            tally[3] += {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
        for pair, points in pairwise(versions, ranks).items():
            against[pair] = against.get(pair, 0.0) + points
    seeds = [int(v) for v in ctx.get("final_seeds") or sorted(counts)]
    seed_of = {version: place for place, version in enumerate(seeds, 1)}
    seed_of.update({v: len(seed_of) + 1 + i for i, v in enumerate(sorted(set(counts) - set(seed_of)))})
    if fmt == ROUND_ROBIN:
        standings = [Standing(v, t[3], int(t[0]), ratings[v].conservative, seed_of[v]) for v, t in counts.items()]
        ranked = [(s.bot, rule) for s, rule in order(standings, against)]
    else:
        far = brackets.standing(_bracket_states(ctx), fmt)
        by_place = sorted(seeds, key=lambda v: (-far.get(v, 0), seed_of[v]))
        ranked = [(v, "" if i + 1 == len(by_place) else
                   "bracket" if far.get(v, 0) != far.get(by_place[i + 1], 0) else "seed")
                  for i, v in enumerate(by_place)]
    table = []
    for place, (version, rule) in enumerate(ranked, 1):
        wins, draws, losses, points = counts.get(version, [0, 0, 0, 0.0])
        team, bot, number = ctx.names(version)
        mu, sigma = (ratings[version].mu, ratings[version].sigma) if version in ratings else (MU, SIGMA)
        table.append(FinalRow(place, team, bot, number, int(wins + draws + losses), int(wins), int(draws),
                              int(losses), points, mu, sigma, seed_of[version], rule))
    return table


def final_table_rows(ctx: LeagueContext) -> list[dict[str, Any]]:
    """The final's table as plain rows (for exports): rank, team, bot, label, version number, seed, games,
    wins, draws, losses, points, mu, sigma, rating (``mu - 3 sigma``) and ``tiebreak`` (the rule that put the
    row ahead of the next one; empty on the last)."""
    return [{"rank": r.rank, "team": r.team, "bot": r.bot, "label": r.label, "number": r.number, "seed": r.seed,
             "games": r.games, "wins": r.wins, "draws": r.draws, "losses": r.losses, "points": r.points,
             "mu": r.mu, "sigma": r.sigma, "rating": r.mu - 3 * r.sigma, "tiebreak": r.tiebreak}
            for r in final_table(ctx)]


def _bracket_states(ctx: LeagueContext) -> list[brackets.MatchState]:
    seeds = [int(v) for v in ctx.get("final_seeds")]
    winners = {row[0]: row[1] for row in ctx.conn.execute(
        "SELECT id, winner FROM league_final_matches WHERE winner IS NOT NULL")}
    return brackets.resolve(brackets.layout(ctx.get("final_format"), len(seeds)), seeds, winners)


def final_bracket(ctx: LeagueContext) -> dict[str, Any] | None:
    """A bracket final's matches as they stand (``None`` for a round robin or no final): each with its
    players (``None`` not known yet, ``"bye"``), status, scores, winner, the rule that decided it and its
    games (ids and whether each is finished)."""
    fmt = ctx.get("final_format", ROUND_ROBIN)
    if ctx.get("final_run") is None or fmt == ROUND_ROBIN:
        return None
    seeds = [int(v) for v in ctx.get("final_seeds")]
    rows = {row[0]: row[1:] for row in ctx.conn.execute(
        "SELECT id, games, score_a, score_b, decided_by FROM league_final_matches")}
    unfinished = {row[0] for row in ctx.conn.execute(
        f"SELECT q.idx FROM {WAITING} AND w.kind = ?", (FINAL,))}

    def who(version: int | None) -> dict[str, Any] | str | None:
        if version is None or version == brackets.BYE:
            return None if version is None else "bye"
        team, bot, number = ctx.names(version)
        return {"label": f"{team}/{bot}", "team": team, "bot": bot, "number": number,
                "seed": seeds.index(version) + 1}

    states = _bracket_states(ctx)
    matches = []
    for state in states:
        ids, score_a, score_b, rule = rows.get(state.spec.id, ("[]", None, None, None))
        matches.append({"id": state.spec.id, "bracket": state.spec.bracket, "round": state.spec.round,
                        "status": "playing" if state.status == "ready" and state.spec.id in rows else state.status,
                        "a": who(state.a), "b": who(state.b), "score_a": score_a, "score_b": score_b,
                        "winner": who(state.winner) if state.status in ("decided", "bye") else None,
                        "decided_by": rule,
                        "games": [{"id": idx, "finished": idx not in unfinished} for idx in json.loads(ids)]})
    champion = brackets.champion(states)
    return {"format": fmt, "games_per_pairing": _games_per_pairing(ctx), "champion": who(champion),
            "matches": matches}


def final_summary(ctx: LeagueContext) -> dict[str, Any]:
    """The final as the API gives it: format, games per pairing, games waiting, table and (a bracket) the
    bracket; an error if there is no final."""
    table = final_table_rows(ctx)
    return {"format": ctx.get("final_format", ROUND_ROBIN), "games_per_pairing": _games_per_pairing(ctx),
            "waiting": len(waiting(ctx, (FINAL,))), "table": table, "bracket": final_bracket(ctx)}


def parse_time(text: str) -> str:
    """``text`` (an ISO time; UTC if it names no zone) as an ISO time in UTC, or an :class:`ArenaError`."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ArenaError(f"deadline {text!r}: expected an ISO time such as 2026-12-18T17:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")

