"""What the league queues: ranked matches by the matchmaking rule, and the unrated challenges teams ask for.

The rule that picks who meets is :mod:`arena.stats.ladder_rule`'s (pure, no database; ``arena ladder`` pairs
by it too); this module feeds it
the active versions and queues the matches it plans (:mod:`arena.league.game_queue`).
"""

from __future__ import annotations

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.league.context import CHALLENGE, RANKED, READY, LeagueContext
from arena.league.game_queue import WAITING, enqueue, paused, run_of
from arena.league.models import Team
from arena.league.rating_updates import rating
from arena.league.teams import team
from arena.league.versions import active_id
from arena.stats.ladder_rule import Candidate, match_environment, plan_matches
from arena.tournament.schedules import seat_assignments


def candidates(ctx: LeagueContext) -> list[Candidate]:
    """The active versions as matchmaking sees them."""
    found = []
    for version_id, pass_, scheduled in ctx.conn.execute(
            "SELECT a.version_id, s.pass, s.scheduled FROM league_active a JOIN league_shares s "
            "ON s.version_id = a.version_id JOIN league_versions v ON v.id = a.version_id "
            "WHERE v.status = ? ORDER BY a.version_id", (READY,)):
        mu, sigma, _ = rating(ctx, version_id)
        found.append(Candidate(version_id, mu, sigma, pass_, scheduled))
    return found


def schedule_ranked(ctx: LeagueContext, matches: int) -> int:
    """Queue the next ``matches`` ranked matches by the matchmaking rule (unless ranked play is paused or too
    few bots play); returns how many games were queued."""
    if paused(ctx):
        return 0
    with ctx.store.transaction():
        games_per_match = len(seat_assignments(ctx.game, [BotSpec(str(i)) for i in range(ctx.players)], None))
        env = match_environment(int(ctx.get("ties")), int(ctx.get("pairs")))
        planned, after = plan_matches(candidates(ctx), ctx.players, games_per_match, matches, env)
        if not planned:
            return 0
        ctx.conn.executemany("UPDATE league_shares SET pass = ?, scheduled = ? WHERE version_id = ?",
                             [(c.pass_, c.scheduled, c.key) for c in after])
        run_id = int(ctx.get("ranked_run"))
        queued = 0
        for match in planned:
            match_number = int(ctx.get("matches", 0))
            ctx.put("matches", match_number + 1)
            for seating in seat_assignments(ctx.game, [BotSpec(str(c.key)) for c in match], None):
                enqueue(ctx, RANKED, run_id, [int(s.name) for s in seating], match_number)
                queued += 1
    return queued


def challenge(ctx: LeagueContext, who: Team, bot: str, opponent: str, games: int) -> list[int]:
    """Queue ``games`` unrated games of ``who``'s ``bot`` against ``opponent`` (``team/bot``), seats alternating;
    returns their ids (see :meth:`arena.league.facade.League.challenge`)."""
    settings = ctx.settings
    if games < 1 or games > settings.challenge_games:
        raise ArenaError(f"a challenge is 1 to {settings.challenge_games} games")
    if ctx.players != 2:
        raise ArenaError("challenges are for two-player leagues")
    mine = active_id(ctx, who.id, bot, f"{who.name}/{bot}")
    other_team, _, other_bot = opponent.partition("/")
    theirs = active_id(ctx, team(ctx, other_team).id, other_bot, opponent)
    if mine == theirs:
        raise ArenaError("a bot cannot challenge itself")
    with ctx.store.transaction():
        waiting = ctx.conn.execute(f"SELECT count(*) FROM {WAITING} AND w.kind = ? AND w.team_id = ?",
                                   (CHALLENGE, who.id)).fetchone()[0]
        if waiting + games > settings.challenge_waiting:
            raise ArenaError(f"team {who.name} has {waiting} challenge games waiting; at most "
                             f"{settings.challenge_waiting} may wait, try again when they are played")
        run_id = run_of(ctx, CHALLENGE)
        seatings = seat_assignments(ctx.game, [BotSpec(str(mine)), BotSpec(str(theirs))], None)
        ids = []
        for n in range(games):
            seating = [int(spec.name) for spec in seatings[n % len(seatings)]]
            ids.append(enqueue(ctx, CHALLENGE, run_id, seating, n, who.id))
    return ids
