"""What the league's pages and commands read: the leaderboard, a bot, the games, a game's record, rating
histories, head-to-head counts, the queue and the ladder's report of its workers."""

from __future__ import annotations

import json
from typing import Any

from arena.core.errors import ArenaError
from arena.league.context import DISABLED, LeagueContext
from arena.league.game_queue import UNFINISHED
from arena.league.models import BoardRow, BotInfo, GameInfo, QueueEntry, Seat, WorkersInfo
from arena.league.rating_updates import rating
from arena.league.teams import team
from arena.league.versions import versions


def change_stamp(ctx: LeagueContext) -> tuple[Any, ...]:
    """What changes whenever a page would: the newest stored game, the newest version, the versions that play,
    whether ranked play is paused, and the final (started, its bracket's matches queued and decided) (equal only
    while none of them changed)."""
    league_part = ctx.conn.execute(
        "SELECT (SELECT max(id) FROM league_versions), (SELECT group_concat(version_id) FROM league_active), "
        "(SELECT value FROM league_state WHERE key = 'paused'), "
        "(SELECT value FROM league_state WHERE key = 'final_run'), "
        "(SELECT count(*) || '/' || count(winner) FROM league_final_matches)").fetchone()
    return (ctx.store.newest_game_id(), *league_part)


def leaderboard(ctx: LeagueContext) -> list[BoardRow]:
    """The active version of every team's bot, best first by ``mu - 3 sigma``."""
    rows = []
    for version_id, team_name, bot, number, version in ctx.conn.execute(
            "SELECT v.id, t.name, v.bot, v.number, v.version FROM league_active a "
            "JOIN league_versions v ON v.id = a.version_id JOIN league_teams t ON t.id = a.team_id"):
        mu, sigma, games = rating(ctx, version_id)
        wins, draws, losses, last = ctx.conn.execute(
            "SELECT coalesce(sum(wins), 0), coalesce(sum(draws), 0), coalesce(sum(losses), 0), max(last_idx) "
            "FROM league_ratings WHERE version_id = ?", (version_id,)).fetchone()
        rows.append((mu - 3 * sigma, team_name, bot, number, version, mu, sigma, games, wins, draws, losses, last))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    return [BoardRow(rank, *row[1:]) for rank, row in enumerate(rows, 1)]


def bot_info(ctx: LeagueContext, team_name: str, bot: str, games: int = 20) -> BotInfo:
    """A team's bot: its versions, newest first, and its ``games`` newest games."""
    found = versions(ctx, team(ctx, team_name), bot)
    if not found:
        raise ArenaError(f"team {team_name} has no bot {bot!r}")
    return BotInfo(team_name, bot, tuple(found), tuple(finished_games(ctx, f"{team_name}/{bot}", games)))


def finished_games(ctx: LeagueContext, bot: str | None = None, limit: int = 50,
                   kind: str | None = None) -> list[GameInfo]:
    """The newest finished games (of ``team/bot``, of one ``kind``), newest first."""
    if limit < 1:
        raise ArenaError("limit must be at least 1")
    if bot is None:
        where, params = ("WHERE q.kind = ?", [kind]) if kind is not None else ("", [])
        rows = ctx.conn.execute(f"SELECT q.idx FROM games g JOIN league_queue q ON q.idx = g.idx AND q.run_id = "
                                f"g.run_id {where} ORDER BY g.id DESC LIMIT ?", [*params, limit]).fetchall()
        return [game_info(ctx, idx) for (idx,) in rows]
    team_name, _, name = bot.partition("/")
    ids = [v.id for v in versions(ctx, team_name, name)] if name else []
    if not ids:
        raise ArenaError(f"no bot {bot!r} in this league (name it team/bot)")
    newest = sorted({found for version_id in ids for found in _played(ctx, version_id, kind, limit)}, reverse=True)
    return [game_info(ctx, idx) for _, idx in newest[:limit]]


def _played(ctx: LeagueContext, version_id: int, kind: str | None, limit: int) -> list[tuple[int, int]]:
    """A version's ``limit`` newest stored games (of one ``kind``): ``(store's game id, queue id)``, newest first."""
    if kind is None:
        return ctx.conn.execute("SELECT game_id, idx FROM league_played WHERE version_id = ? ORDER BY game_id DESC "
                                "LIMIT ?", (version_id, limit)).fetchall()
    return ctx.conn.execute("SELECT game_id, idx FROM league_played INDEXED BY league_played_kind WHERE version_id = ? "
                            "AND kind = ? ORDER BY game_id DESC LIMIT ?", (version_id, kind, limit)).fetchall()


def game_info(ctx: LeagueContext, game_id: int) -> GameInfo:
    """A finished game of the league, or an :class:`ArenaError`."""
    queued = ctx.conn.execute("SELECT kind, run_id, versions, seed FROM league_queue WHERE idx = ?",
                              (game_id,)).fetchone()
    stored = None if queued is None else ctx.store.game_outline(queued[1], game_id)
    if queued is None or stored is None:
        raise ArenaError(f"no finished game {game_id} in this league")
    kind, _, versions_json, seed = queued
    players = []
    for seat, version_id in enumerate(json.loads(versions_json)):
        team_name, bot, number = ctx.names(version_id)
        players.append(Seat(team_name, bot, number, stored.roles[seat], stored.ranks[seat],
                            stored.failures.get(str(seat))))
    return GameInfo(game_id, kind, tuple(players), stored.reason, stored.map, seed, stored.finished_at)


def rating_history(ctx: LeagueContext, version_id: int, points: int | None = None) -> list[tuple[int, float, float]]:
    """A version's ``(game id, mu, sigma)`` after each of its rated games, oldest first (its first role's, in a
    game with roles); with ``points``, only that many of the newest."""
    limit = -1 if points is None else points
    rows = ctx.conn.execute(
        "SELECT idx, mu, sigma FROM league_history WHERE version_id = ? AND role = (SELECT role FROM "
        "league_history WHERE version_id = ? ORDER BY role LIMIT 1) ORDER BY idx DESC LIMIT ?",
        (version_id, version_id, limit))
    return [(idx, mu, sigma) for idx, mu, sigma in reversed(rows.fetchall())]


def head_to_head(ctx: LeagueContext, team_name: str, bot: str) -> list[tuple[str, int, int, int]]:
    """``team_name``'s ``bot`` (any version) against every bot it met in ranked games: ``(team/bot, wins, draws,
    losses)``, by opponent, a win meaning a better rank in that game (counted as each game is stored)."""
    mine = {v.id for v in versions(ctx, team_name, bot)}
    if not mine:
        raise ArenaError(f"team {team_name} has no bot {bot!r}")
    names: dict[int, str] = {}
    tally: dict[str, list[int]] = {}
    for version_id in sorted(mine):
        for other_id, wins, draws, losses in ctx.conn.execute(
                "SELECT other_id, wins, draws, losses FROM league_meetings WHERE version_id = ?", (version_id,)):
            if other_id in mine:
                continue
            if other_id not in names:
                other_team, other_bot, _ = ctx.names(other_id)
                names[other_id] = f"{other_team}/{other_bot}"
            counts = tally.setdefault(names[other_id], [0, 0, 0])
            for index, count in enumerate((wins, draws, losses)):
                counts[index] += count
    return [(label, counts[0], counts[1], counts[2]) for label, counts in sorted(tally.items())]


def game_record(ctx: LeagueContext, game_id: int) -> dict[str, Any]:
    """A finished game's record (``arena-record/1``), which the replay viewer shows."""
    game_info(ctx, game_id)
    run_id = ctx.conn.execute("SELECT run_id FROM league_queue WHERE idx = ?", (game_id,)).fetchone()[0]
    return ctx.store.game(run_id, game_id).record


def queue(ctx: LeagueContext, limit: int = 100) -> list[QueueEntry]:
    """The games scheduled and not finished, in the order they are played."""
    rows = ctx.conn.execute(
        "SELECT q.idx, q.kind, q.versions, q.map, q.seed, t.name FROM league_waiting w JOIN league_queue q "
        f"ON q.idx = w.idx LEFT JOIN league_teams t ON t.id = q.team_id WHERE {UNFINISHED} ORDER BY w.idx LIMIT ?",
        (limit,)).fetchall()
    entries = []
    for idx, kind, versions_json, map_name, seed, team_name in rows:
        players = tuple("{}/{}#{}".format(*ctx.names(v)) for v in json.loads(versions_json))
        entries.append(QueueEntry(idx, kind, players, map_name, seed, team_name))
    return entries


def workers(ctx: LeagueContext) -> WorkersInfo | None:
    """What the ladder last reported (``None`` if no ladder has run on this league)."""
    row = ctx.conn.execute("SELECT value FROM league_workers WHERE key = 'ladder'").fetchone()
    return WorkersInfo(**json.loads(row[0])) if row else None


def report_workers(ctx: LeagueContext, info: WorkersInfo) -> None:
    """The ladder's report of itself, for :func:`workers`."""
    with ctx.store.transaction():
        ctx.conn.execute("INSERT OR REPLACE INTO league_workers VALUES ('ladder', ?)", (json.dumps(info.__dict__),))


def disabled_bots(ctx: LeagueContext) -> list[tuple[str, str, int]]:
    """The bots that no version of plays because the organiser disabled theirs: ``(team, bot, newest disabled
    version number)``, by team and bot. The leaderboard lists them, unranked, so a team does not vanish."""
    return [(name, bot, int(number)) for name, bot, number in ctx.conn.execute(
        "SELECT t.name, v.bot, max(v.number) FROM league_versions v JOIN league_teams t ON t.id = v.team_id "
        "WHERE v.status = ? AND NOT EXISTS (SELECT 1 FROM league_active a WHERE a.team_id = v.team_id "
        "AND a.bot = v.bot) GROUP BY t.name, v.bot ORDER BY t.name, v.bot", (DISABLED,))]


def deadline(ctx: LeagueContext) -> str | None:
    """When submissions close and the final is queued (an ISO time in UTC), if the organiser set a deadline."""
    found = ctx.get("deadline")
    return None if found is None else str(found)
