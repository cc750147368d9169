"""The league's final: submissions close and the active versions play a round robin of their own, at once or
once a deadline has passed; its table ranks them by points, then by a rating of the final's games alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from itertools import combinations

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.league.context import FINAL, LeagueContext
from arena.league.game_queue import enqueue, run_of
from arena.league.models import FinalRow
from arena.stats.ladder_rule import outcome_of
from arena.stats.ratings import rate
from arena.storage.store import now
from arena.tournament.schedules import seat_assignments


def start_final(ctx: LeagueContext, deadline: str | None = None) -> int:
    """Close submissions and queue the final, or set its ``deadline``; returns how many games were queued now
    (see :meth:`arena.league.facade.League.start_final`)."""
    if ctx.get("final_run") is not None:
        raise ArenaError("the final has been played or queued already")
    if deadline is not None:
        moment = parse_time(deadline)
        if moment > now():
            with ctx.store.transaction():
                ctx.put("deadline", moment)
            return 0
    with ctx.store.transaction():
        ctx.put("frozen", True)
        active = [row[0] for row in ctx.conn.execute("SELECT version_id FROM league_active ORDER BY version_id")]
        if len(active) < ctx.players:
            raise ArenaError(f"a final needs at least {ctx.players} bots that play; there are {len(active)}")
        run_id = run_of(ctx, FINAL)
        queued = 0
        for match, group in enumerate(combinations(active, ctx.players)):
            for map_number in range(len(ctx.maps)):
                seatings = seat_assignments(ctx.game, [BotSpec(str(v)) for v in group], None)
                for seating in seatings:
                    number = match * len(ctx.maps) + map_number  # the match's map is number % maps
                    enqueue(ctx, FINAL, run_id, [int(s.name) for s in seating], number)
                    queued += 1
    return queued


def final_due(ctx: LeagueContext) -> bool:
    """Whether a deadline has passed with the final not queued yet (the ladder then queues it)."""
    deadline = ctx.get("deadline")
    return deadline is not None and now() >= deadline and ctx.get("final_run") is None


def final_table(ctx: LeagueContext) -> list[FinalRow]:
    """The final's table: points, W-D-L and the final's own TrueSkill rating (its games alone), best first by
    points, then rating; an error if there is no final."""
    run_id = ctx.get("final_run")
    if run_id is None:
        raise ArenaError("this league has had no final (start one with `arena league final`)")
    stored = ctx.store.ranks_by_index(int(run_id))
    games: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for idx, versions in ctx.conn.execute("SELECT idx, versions FROM league_queue WHERE kind = ? AND run_id = ? "
                                          "ORDER BY idx", (FINAL, run_id)):
        if idx in stored:
            games.append((tuple(json.loads(versions)), tuple(stored[idx])))
    ratings, _ = rate(games)
    counts: dict[int, list[float]] = {}
    for versions, ranks in games:
        for seat, version in enumerate(versions):
            tally = counts.setdefault(version, [0, 0, 0, 0.0])
            result = outcome_of(seat, ranks)
            tally[("win", "draw", "loss").index(result)] += 1
            tally[3] += {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
    rows = sorted(counts.items(), key=lambda kv: (-kv[1][3], -ratings[kv[0]].conservative, kv[0]))
    table = []
    for rank, (version, (wins, draws, losses, points)) in enumerate(rows, 1):
        team, bot, number = ctx.names(version)
        table.append(FinalRow(rank, team, bot, number, int(wins + draws + losses), int(wins), int(draws),
                              int(losses), points, ratings[version].mu, ratings[version].sigma))
    return table


def parse_time(text: str) -> str:
    """``text`` (an ISO time; UTC if it names no zone) as an ISO time in UTC, or an :class:`ArenaError`."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ArenaError(f"deadline {text!r}: expected an ISO time such as 2026-12-18T17:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")
