"""The public pages: the leaderboard, a bot, the games feed, a game's replay, the final. Server-rendered
from the same dicts as their ``/api/`` twins; they work without JavaScript except the replay viewer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from arena.core.errors import ArenaError
from markupsafe import Markup

from arena.report.replay_page import _json_for_script, page_title, replay_data
from arena.server.web import data, views
from arena.server.web.api import web_state
from arena.server.web.auth import browser_session
from arena.server.web.rendering import render

router = APIRouter(include_in_schema=False)

REFRESH_SECONDS = 10
"""How often the leaderboard and the games feed reload themselves (a meta refresh: no script needed)."""


@router.get("/", response_class=HTMLResponse)
def leaderboard_page(request: Request) -> HTMLResponse:
    """The leaderboard."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    board = data.leaderboard(league)
    return render(request, web, league, "leaderboard.html", who=who, session=session, board=board,
                  sparklines=data.sparklines(league, board), refresh=REFRESH_SECONDS)


@router.get("/bots/{team}/{bot}", response_class=HTMLResponse)
def bot_page(request: Request, team: str, bot: str) -> HTMLResponse:
    """A bot: versions, rating over time, head to head, recent games."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found = data.bot_page(league, team, bot)
    return render(request, web, league, "bot.html", who=who, session=session, bot=found,
                  chart=data.rating_chart(found), head_to_head=found["head_to_head"], games=found["games"])


@router.get("/games", response_class=HTMLResponse)
def games_page(request: Request, bot: Annotated[str | None, Query()] = None,
               limit: Annotated[int, Query(ge=1, le=data.MAX_GAMES)] = 50) -> HTMLResponse:
    """The newest games, filterable by bot."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found = data.games(league, bot, limit)
    labels = sorted({row.label for row in league.leaderboard()})
    return render(request, web, league, "games.html", who=who, session=session, games=found["games"],
                  bot_filter=bot or "", bot_labels=labels, limit=limit, max_limit=data.MAX_GAMES,
                  refresh=REFRESH_SECONDS)


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: int) -> HTMLResponse:
    """A game in the replay viewer, with its players, result and record."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    found = data.game(league, game_id)
    record = data.record(league, game_id)
    replay_error, data_json = None, Markup("")
    try:
        data_json = Markup(_json_for_script(replay_data(record, web.registry)))
    except ArenaError as exc:
        replay_error = str(exc)
    return render(request, web, league, "game.html", who=who, session=session, game=found,
                  title=page_title(record), data_json=data_json, replay_error=replay_error)


@router.get("/final", response_class=HTMLResponse)
def final_page(request: Request) -> HTMLResponse:
    """The final's table."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    try:
        table = league.final_table()
    except ArenaError as exc:
        raise data.NotFound(str(exc)) from None
    rows = [{**vars(row), "label": row.label, "url": views.bot_path(row.team, row.bot)} for row in table]
    return render(request, web, league, "final.html", who=who, session=session, rows=rows)


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
