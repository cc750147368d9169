"""What each page shows, read from the league: the dicts the JSON API returns and the templates render."""

from __future__ import annotations

from typing import Any

from arena.core.errors import ArenaError
from arena.league.facade import League
from arena.league.models import Organiser, Team
from arena.league.web import privacy, views
from arena.report.charts import ChartLayout, SparklineLayout, point_layout, sparkline_layout
from arena.stats.proportions import score_rate

MAX_GAMES = 500
"""The most games one request may list."""


class NotFound(ArenaError):
    """A bot or game this league does not have (answered 404)."""


def leaderboard(league: League) -> dict[str, Any]:
    """The leaderboard: every team's active bot, best first, and how many rated games there are."""
    rows = [views.board_row(row) for row in league.leaderboard()]
    return {"rows": rows, "games": sum(row["games"] for row in rows) // max(1, league.players),
            "paused": league.paused}


def final(league: League) -> dict[str, Any]:
    """The final's table and how many of its games are still to play; an :class:`ArenaError` if there is none."""
    rows = [vars(row) | {"label": row.label} for row in league.final_table()]
    return {"rows": rows, "left": len(league.waiting(("final",)))}


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


def game(league: League, game_id: int, who: Team | Organiser | None = None) -> dict[str, Any]:
    """One finished game as ``who`` may read it (:mod:`~arena.league.web.privacy`): each failure's kind and
    short reason, with the reason, traceback and stderr in full for ``who``'s own seats (the organiser's: all);
    :class:`NotFound` if there is no game ``game_id``."""
    try:
        info = league.game_info(game_id)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    found = views.game(info)  # a game without failures, read by anyone: its line of the games' list
    visible = privacy.visible_seats(who, info.seats)
    if visible or any(seat.failure for seat in info.seats):
        shown = privacy.record_for(league.game_record(game_id), visible, isinstance(who, Organiser))
        found["reason"] = shown["result"]["reason"]
        for key in ("failures", "stderr"):
            if shown.get(key):
                found[key] = shown[key]
    return found


def record(league: League, game_id: int, who: Team | Organiser | None = None) -> dict[str, Any]:
    """One finished game's record as ``who`` may read it (see :func:`game`)."""
    try:
        info = league.game_info(game_id)
        found = league.game_record(game_id)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    return privacy.record_for(found, privacy.visible_seats(who, info.seats), isinstance(who, Organiser))


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
            record = league.game_record(info.id)
            kept = {int(f.get("seat", -1)): f for f in record.get("failures", [])}
            for index in seats:
                failure = kept.get(index, {})
                player = info.seats[index]
                stderr = failure.get("stderr") or record.get("stderr", {}).get(str(index), "")  # a program's, by seat
                found.append({"game": info.id, "label": player.label, "number": player.number,
                              "kind": failure.get("kind", player.failure), "detail": failure.get("detail", ""),
                              "traceback": failure.get("traceback", ""), "stderr": stderr})
    return sorted(found, key=lambda f: -f["game"])


SPARKLINE_POINTS = 40
"""How many of a bot's newest ratings its leaderboard sparkline draws."""
CHART_POINTS = 400
"""How many of each version's newest ratings the bot page's chart draws."""


def bot_page(league: League, team: str, name: str, with_logs: bool = False, games: int = 20) -> dict[str, Any]:
    """A bot's page: :func:`bot`, with each version's rating history and the head to head with intervals."""
    found = bot(league, team, name, with_logs, games)
    for version in found["versions"]:
        version["history"] = [{"game": idx, "mu": mu, "sigma": sigma, "rating": mu - 3 * sigma}
                              for idx, mu, sigma in league.rating_history(version["id"], CHART_POINTS)]
    rows = []
    for label, wins, draws, losses in league.head_to_head(team, name):
        rate = score_rate(wins, draws, losses)
        other_team, _, other_bot = label.partition("/")
        rows.append({"label": label, "url": views.bot_path(other_team, other_bot), "games": wins + draws + losses,
                     "wins": wins, "draws": draws, "losses": losses, "score": rate.score, "low": rate.lower,
                     "high": rate.upper})
    found["head_to_head"] = rows
    return found


def sparklines(league: League, board: dict[str, Any]) -> dict[str, SparklineLayout]:
    """Each leaderboard bot's sparkline: its active version's newest ratings (mu - 3 sigma)."""
    lines = {}
    for row in board["rows"]:
        active = [v.id for v in league.versions(row["team"], row["bot"]) if v.number == row["number"]]
        history = league.rating_history(active[0], SPARKLINE_POINTS) if active else []
        values = [mu - 3 * sigma for _, mu, sigma in history]
        lines[row["label"]] = sparkline_layout(values, title=f"{row['label']}: rating over its last {len(values)} "
                                                             "games")
    return lines


def rating_chart(found: dict[str, Any]) -> ChartLayout:
    """The bot page's chart: mu - 3 sigma after each rated game, one line per version, along the league's games."""
    ids = sorted({point["game"] for version in found["versions"] for point in version["history"]})
    position = {game_id: index for index, game_id in enumerate(ids)}
    series = {f"v{version['number']}": [(position[p["game"]], p["rating"]) for p in version["history"]]
              for version in found["versions"] if version["history"]}
    return point_layout(f"{found['label']}: rating (mu - 3 sigma) after each rated game", series,
                        "its rated games, oldest first")
