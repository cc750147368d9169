"""The JSON API: one route for every page, and submissions. Tokens go in ``Authorization: Bearer TOKEN``.

FastAPI documents it (``/openapi.json``, browsable at ``/docs``); ``arena submit`` and the pages use it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, UploadFile
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from arena.core.errors import ArenaError
from arena.league.exports import ExportTable
from arena.league.facade import League
from arena.league.models import Team, VersionInfo
from arena.league.web import data, views
from arena.league.web.auth import (
    Identity,
    api_organiser,
    api_team,
    bearer_token,
    browser_session,
    check_form,
    reader,
)
from arena.league.web.state import WebState
from arena.league.web.uploads import unpack_upload
from arena.report.row_export import MEDIA_TYPES, export_rows

router = APIRouter(prefix="/api", tags=["api"])


def web_state(request: Request) -> WebState:
    """The application's :class:`WebState`."""
    state: WebState = request.app.state.web
    return state


class Challenge(BaseModel):
    """A request for unrated games: your ``bot`` against ``opponent`` (``team/bot``), ``games`` of them."""

    bot: str = Field(max_length=200)
    opponent: str = Field(max_length=400)
    games: int
    form_token: str | None = Field(default=None, description="A signed-in browser's form token (not with a "
                                                                 "bearer token).")


class ActiveChoice(BaseModel):
    """The version of ``bot`` that plays: ``number``, or ``null`` for the newest that builds."""

    bot: str = Field(max_length=200)
    number: int | None = None
    form_token: str | None = Field(default=None, description="A signed-in browser's form token (not with a "
                                                                 "bearer token).")


ExportFormat = Annotated[Literal["csv", "json", "md"] | None, Query(
    description="Download the table to grade from as a file: csv (safe to open in a spreadsheet), json or md.")]


@router.get("/leaderboard", summary="The leaderboard", response_model=None)
def get_leaderboard(request: Request, format: ExportFormat = None) -> dict[str, Any] | Response:
    """Every team's active bot, best first by mu - 3 sigma, with its record and rating history. With
    ``format``: the standings as a file (rank, team, bot, version, rating, mu, sigma, games, wins, draws,
    losses, and failures by kind)."""
    web = web_state(request)
    league = web.league()
    if format is not None:
        return download(web.cache.get(("standings-export",), league, league.standings_export), format)
    return web.cache.get(("leaderboard",), league, lambda: data.leaderboard(league))


@router.get("/final", summary="The final", response_model=None)
def get_final(request: Request, format: ExportFormat = None) -> dict[str, Any] | Response:
    """The final: its format, games a pairing, games still waiting, its table (best first, each row with the
    ``tiebreak`` that put it ahead of the next) and, for an elimination final, its bracket: every match with
    its players, scores, winner, the rule that decided it and its games. With ``format``: the table as a file.
    404 if there has been no final."""
    web = web_state(request)
    league = web.league()
    try:
        if format is not None:
            return download(web.cache.get(("final-export",), league, league.final_export), format)
        return web.cache.get(("final",), league, lambda: data.final(league))
    except ArenaError as exc:
        raise data.NotFound(str(exc)) from None


def download(table: ExportTable, fmt: str) -> Response:
    """``table`` as a file to download in export format ``fmt``."""
    return Response(export_rows(table.headers, table.rows, fmt), media_type=MEDIA_TYPES[fmt],
                    headers={"Content-Disposition": f'attachment; filename="{table.name}.{fmt}"'})


@router.get("/bots/{team}/{bot}", summary="A bot")
def get_bot(request: Request, team: str, bot: str,
            games: Annotated[int, Query(ge=1, le=data.MAX_GAMES)] = 20) -> dict[str, Any]:
    """A team's bot: its versions with their ratings, the rating history, head to head, its recent games."""
    web = web_state(request)
    league = web.league()
    return web.cache.get(("bot", team, bot, games), league, lambda: data.bot_page(league, team, bot, games=games))


@router.get("/games", summary="The newest games")
def get_games(request: Request, bot: Annotated[str | None, Query(description="team/bot")] = None,
              limit: Annotated[int, Query(ge=1, le=data.MAX_GAMES)] = 50) -> dict[str, Any]:
    """The newest finished games, of one bot (``team/bot``) or of every bot."""
    web = web_state(request)
    league = web.league()
    return web.cache.get(("games", bot, limit), league, lambda: data.games(league, bot, limit))


@router.get("/games/{game_id}", summary="A game")
def get_game(request: Request, game_id: int) -> JSONResponse:
    """One finished game: its players, result and reason, and where its record is. A failed bot's reason is
    its kind and a short reason; with a token (or a signed-in session) of a team that played, its own bots'
    failures come in full, with their tracebacks and stderr (the organiser's: every bot's)."""
    web = web_state(request)
    league = web.league()
    who = reader(request, web, league)
    found = web.cache.get(("game", game_id, who), league, lambda: data.game(league, game_id, who), changes=False)
    return JSONResponse(found, headers=_private(who))


@router.get("/games/{game_id}/record", summary="A game's record")
def get_record(request: Request, game_id: int) -> JSONResponse:
    """The game's record (``arena-record/1``), as a file to download; ``arena replay`` replays it. Another
    team's failures keep their kind and short reason, without traceback or stderr: send your team's token to
    read your own bots' in full (the organiser's token: all)."""
    web = web_state(request)
    league = web.league()
    who = reader(request, web, league)
    found = data.record(league, game_id, who)
    headers = {"Content-Disposition": f'attachment; filename="game-{game_id}.json"'}
    return JSONResponse(found, headers=headers | _private(who))


def _private(who: Identity | None) -> dict[str, str]:
    """Headers for an answer that depends on who asks: never kept by a shared cache."""
    return {"Vary": "Authorization, Cookie"} | ({} if who is None else {"Cache-Control": "private, no-store"})


@router.get("/team", summary="Your team")
def get_team(request: Request) -> JSONResponse:
    """The team of the token: its submissions with their build logs, its bots' failures in their recent games
    grouped by version, kind and message (how many, the first and last game, one traceback), and its bots'
    logs of their recent games (what each printed, logged or wrote to stderr). Never another team's."""
    web = web_state(request)
    league = web.league()
    team = api_team(request, league)
    return JSONResponse({"team": team.name,
                         "versions": [views.version(v, with_log=True) for v in league.versions(team)],
                         "failures": data.failure_groups(league, team), "logs": data.logs(league, team)},
                        headers=_private(team))


@router.post("/challenges", status_code=201, summary="Ask for a challenge")
def post_challenge(request: Request, challenge: Challenge) -> dict[str, Any]:
    """Ask for unrated games of one of your bots against another team's (``team/bot``), as the team page's
    form does: with your team's token, or from a signed-in browser with the page's ``form_token`` in the body
    (a request from another site knows neither). The answer lists the queued games."""
    web = web_state(request)
    league = web.league()
    team = _asking_team(request, web, league, challenge.form_token)
    ids = league.challenge(team, challenge.bot, challenge.opponent, challenge.games)
    return {"team": team.name, "bot": challenge.bot, "opponent": challenge.opponent, "games": ids}


@router.post("/team/active", summary="Choose the version that plays")
def post_active(request: Request, choice: ActiveChoice) -> dict[str, Any]:
    """Make a version of one of your bots the one that plays (``number`` null: the newest that builds), as the
    team page's form does; a token or a signed-in browser with the page's ``form_token``, like a challenge."""
    web = web_state(request)
    league = web.league()
    team = _asking_team(request, web, league, choice.form_token)
    return views.version(league.set_active(team, choice.bot, choice.number), with_log=True)


def _asking_team(request: Request, web: WebState, league: League, form_token: str | None) -> Team:
    """The team asking for a change: its bearer token's; else the browser's signed-in team, when the body
    carries its session's form token (a cookie alone is not enough: another site could send it)."""
    if bearer_token(request) is not None:
        return api_team(request, league)
    who, session = browser_session(request, web, league)
    if not isinstance(who, Team) or session is None:
        raise HTTPException(401, "this needs a team's token (send 'Authorization: Bearer TOKEN') or a signed-in "
                                 "team's session", headers={"WWW-Authenticate": "Bearer"})
    check_form(request, session, form_token)
    return who


@router.post("/submissions", status_code=201, summary="Submit a bot")
def post_submission(request: Request, file: UploadFile) -> dict[str, Any]:
    """Submit a bot as the token's team: ``file`` is a ``.py`` module, or a folder with ``arena-bot.toml`` as
    ``.zip`` or ``.tar.gz``. It is built before the answer; the answer is the new version, with its build
    status and log (a failed build is kept, and never plays)."""
    web = web_state(request)
    league = web.league()
    team = api_team(request, league)
    found = submit_upload(web, league, team, file)
    return views.version(found, with_log=True)


@router.get("/organiser", summary="The organiser's view")
def get_organiser(request: Request) -> dict[str, Any]:
    """With the organiser's token: ranked play paused or not, the teams, every version (to disable one), the
    maps, the deadline, whether the final has begun, the queue and the workers."""
    web = web_state(request)
    league = web.league()
    api_organiser(request, league)
    return data.organiser(league)


def submit_upload(web: WebState, league: League, team: Team, file: UploadFile) -> VersionInfo:
    """Check and unpack an uploaded bot into a scratch folder, and submit it as ``team``'s."""
    raw = file.file.read(web.limits.max_bytes + 1)
    with tempfile.TemporaryDirectory(prefix="arena-upload-") as scratch:
        try:
            path = unpack_upload(file.filename or "", raw, Path(scratch), web.limits)
            return league.submit(team, path)
        except ArenaError as exc:  # name the upload as its team sent it, never by the scratch folder
            exc.args = (str(exc).replace(scratch.rstrip("/") + "/", ""),)
            raise
