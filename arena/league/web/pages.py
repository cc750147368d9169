"""The public pages: the leaderboard, a bot, the games feed, a game's replay, the final and its bracket.
Server-rendered from the same dicts as their ``/api/`` twins; they work without JavaScript except the replay
viewer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from arena.core.errors import ArenaError
from arena.league.facade import League
from arena.league.models import Organiser
from arena.league.web import data, views
from arena.league.web.api import web_state
from arena.league.web.auth import Identity, browser_session
from arena.league.web.rendering import render
from arena.league.web.state import WebState
from arena.report.charts import ChartLayout, SparklineLayout
from arena.report.replay_page import _json_for_script, page_title, replay_data

router = APIRouter(include_in_schema=False)

REFRESH_SECONDS = 10
"""How often the leaderboard and the games feed reload themselves (a meta refresh: no script needed)."""


@router.get("/", response_class=HTMLResponse)
def leaderboard_page(request: Request) -> HTMLResponse:
    """The leaderboard."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    board, lines = web.cache.get(("leaderboard page",), league, lambda: _board_and_lines(league))
    return render(request, web, league, "leaderboard.html", who=who, session=session, board=board,
                  sparklines=lines, refresh=REFRESH_SECONDS)


def _board_and_lines(league: League) -> tuple[dict[str, Any], dict[str, SparklineLayout]]:
    board = data.leaderboard(league)
    return board, data.sparklines(league, board)


@router.get("/bots/{team}/{bot}", response_class=HTMLResponse)
def bot_page(request: Request, team: str, bot: str) -> HTMLResponse:
    """A bot: versions, rating over time, head to head, recent games."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found, chart = web.cache.get(("bot page", team, bot), league, lambda: _bot_and_chart(league, team, bot))
    return render(request, web, league, "bot.html", who=who, session=session, bot=found,
                  chart=chart, head_to_head=found["head_to_head"], games=found["games"])


def _bot_and_chart(league: League, team: str, bot: str) -> tuple[dict[str, Any], ChartLayout]:
    found = data.bot_page(league, team, bot)
    return found, data.rating_chart(found)


@router.get("/games", response_class=HTMLResponse)
def games_page(request: Request, bot: Annotated[str | None, Query()] = None,
               limit: Annotated[int, Query(ge=1, le=data.MAX_GAMES)] = 50) -> HTMLResponse:
    """The newest games, filterable by bot."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found = web.cache.get(("games", bot, limit), league, lambda: data.games(league, bot, limit))
    labels = [row["label"] for row in web.cache.get(("leaderboard",), league, lambda: data.leaderboard(league))["rows"]]
    labels.sort()
    return render(request, web, league, "games.html", who=who, session=session, games=found["games"],
                  bot_filter=bot or "", bot_labels=labels, limit=limit, max_limit=data.MAX_GAMES,
                  refresh=REFRESH_SECONDS)


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: int) -> HTMLResponse:
    """A game in the replay viewer, with its players, result and record; the signed-in team's own bots'
    failures in full (tracebacks and stderr), anyone else's as their kind and a short reason."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found = web.cache.get(("game", game_id, who), league, lambda: data.game(league, game_id, who), changes=False)
    title, data_json, replay_error = web.cache.get(("replay", game_id, who), league,
                                                   lambda: _replay(league, web, game_id, who), changes=False)
    stderr, failures = found.get("stderr", {}), found.get("failures", [])
    own = {int(seat) for seat in stderr} | {int(f["seat"]) for f in failures if "traceback" in f}
    mine = [{"seat": seat, "label": found["seats"][seat]["label"], "failure": _failure_of(failures, seat),
             "stderr": stderr.get(str(seat), "")} for seat in sorted(own)]
    response = render(request, web, league, "game.html", who=who, session=session, game=found, title=title,
                      data_json=data_json, replay_error=replay_error, mine=mine,
                      private=any(seat["failure"] for seat in found["seats"]) and not isinstance(who, Organiser))
    if who is not None:
        response.headers["Cache-Control"] = "private, no-store"
    return response


def _failure_of(failures: list[dict[str, Any]], seat: int) -> dict[str, Any] | None:
    return next((f for f in failures if int(f["seat"]) == seat), None)


def _replay(league: League, web: WebState, game_id: int, who: Identity | None) -> tuple[str, Markup, str | None]:
    """A game's title and the replay viewer's data as ``who`` may read it (or why it cannot be drawn)."""
    record = data.record(league, game_id, who)
    try:
        return page_title(record), Markup(_json_for_script(replay_data(record, web.registry))), None
    except ArenaError as exc:
        return page_title(record), Markup(""), str(exc)


@router.get("/final", response_class=HTMLResponse)
def final_page(request: Request) -> HTMLResponse:
    """The final's table, with its tiebreaks."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found = web.cache.get(("final",), league, lambda: data.final(league))
    rows = [{**row, "url": views.bot_path(row["team"], row["bot"])} for row in found["table"]]
    return render(request, web, league, "final.html", who=who, session=session, final=found, rows=rows)


@router.get("/final/bracket", response_class=HTMLResponse)
def bracket_page(request: Request) -> HTMLResponse:
    """An elimination final's bracket, every game linked."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found = web.cache.get(("final",), league, lambda: data.final(league))
    if found["bracket"] is None:
        raise data.NotFound("this final is a round robin: it has no bracket")
    columns: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for match in found["bracket"]["matches"]:
        columns.setdefault((match["bracket"], match["round"]), []).append(match)
    sections = []
    for name in ("winners", "losers", "grand final"):
        rounds = [{"round": r, "matches": m} for (b, r), m in columns.items() if b == name]
        if rounds:
            sections.append({"name": name, "rounds": rounds})
    return render(request, web, league, "bracket.html", who=who, session=session, final=found,
                  bracket=found["bracket"], sections=sections)


@router.get("/api", response_class=HTMLResponse)
def api_page(request: Request) -> HTMLResponse:
    """The JSON API's routes, from its OpenAPI document."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    routes = []
    for path, methods in request.app.openapi()["paths"].items():
        for method, operation in methods.items():
            routes.append({"method": method.upper(), "path": path, "summary": operation.get("summary", ""),
                           "description": operation.get("description", "")})
    return render(request, web, league, "api.html", who=who, session=session, routes=routes)
