"""What each page shows, read from the league: the dicts the JSON API returns and the templates render."""

from __future__ import annotations

from typing import Any

from arena.core.errors import ArenaError
from arena.server.league import League
from arena.server.models import Team
from arena.server.web import views

MAX_GAMES = 500
"""The most games one request may list."""


class NotFound(ArenaError):
    """A bot or game this league does not have (answered 404)."""


def leaderboard(league: League) -> dict[str, Any]:
    """The leaderboard: every team's active bot, best first, and how many rated games there are."""
    rows = [views.board_row(row) for row in league.leaderboard()]
    return {"rows": rows, "games": sum(row["games"] for row in rows) // max(1, league.players),
            "paused": league.paused}


def bot(league: League, team: str, name: str, with_logs: bool = False, games: int = 20) -> dict[str, Any]:
    """A bot's page; :class:`NotFound` for a bot the league does not have."""
    try:
        info = league.bot(team, name, games)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    return views.bot(info, with_logs)


def games(league: League, bot: str | None, limit: int) -> dict[str, Any]:
    """The newest games, of one bot (``team/bot``) or all."""
    if not 1 <= limit <= MAX_GAMES:
        raise ArenaError(f"limit must be 1 to {MAX_GAMES}")
    try:
        found = league.games(bot or None, limit)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    return {"bot": bot or None, "limit": limit, "games": [views.game(info) for info in found]}


def game(league: League, game_id: int) -> dict[str, Any]:
    """One finished game; :class:`NotFound` if there is none with that id."""
    try:
        return views.game(league.game_info(game_id))
    except ArenaError as exc:
        raise NotFound(str(exc)) from None


def record(league: League, game_id: int) -> dict[str, Any]:
    """One finished game's record."""
    try:
        return league.game_record(game_id)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None


def failures(league: League, team: Team, games_per_bot: int = 20) -> list[dict[str, Any]]:
    """How ``team``'s bots failed in their recent games, newest first: the kind, the detail and the traceback
    or stderr the record kept. Only the team's own bots' failures: another team's are not its to read."""
    found = []
    for name in sorted({v.bot for v in league.versions(team)}):
        try:
            recent = league.games(f"{team.name}/{name}", games_per_bot)
        except ArenaError:
            continue
        for info in recent:
            seats = [index for index, player in enumerate(info.seats)
                     if player.team == team.name and player.bot == name and player.failure]
            if not seats:
                continue
            kept = {int(f.get("seat", -1)): f for f in league.game_record(info.id).get("failures", [])}
            for index in seats:
                failure = kept.get(index, {})
                player = info.seats[index]
                found.append({"game": info.id, "label": player.label, "number": player.number,
                              "kind": failure.get("kind", player.failure), "detail": failure.get("detail", ""),
                              "traceback": failure.get("traceback", ""), "stderr": failure.get("stderr", "")})
    return sorted(found, key=lambda f: -f["game"])
