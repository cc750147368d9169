"""Signing in and the signed-in pages: a team's page (submit, build logs, failures, the active version, unrated
challenges) and the organiser's (the same operations as ``arena league``). Every form carries its form token
and is checked before anything changes; each answers with a redirect back (so reloading repeats nothing) or,
when it is refused, with the page and the reason."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from arena.core.errors import ArenaError
from arena.league.facade import League
from arena.league.models import Organiser, Team
from arena.league.web import data, views
from arena.league.web.api import submit_upload, web_state
from arena.league.web.auth import Identity, browser_session, check_form
from arena.league.web.rendering import render
from arena.league.web.sessions import SESSION_COOKIE, SESSION_SECONDS, Session
from arena.league.web.state import WebState

router = APIRouter(include_in_schema=False)

FormToken = Form(default="")


def _back(path: str, notice: str) -> RedirectResponse:
    return RedirectResponse(f"{path}?notice={quote(notice)}", status_code=303)


def _notice(request: Request) -> str | None:
    notice = request.query_params.get("notice")
    return notice[:300] if notice else None


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request) -> Response:
    """The sign-in form (or the signed-in page, if the browser is signed in)."""
    web = web_state(request)
    league = web.league()
    who, _ = browser_session(request, web, league)
    if who is not None:
        return RedirectResponse(_home(who), status_code=303)
    return render(request, web, league, "sign_in.html", notice=_notice(request))


@router.post("/sign-in")
def sign_in(request: Request, token: str = Form(default=""), form_token: str = FormToken) -> Response:
    """Sign in with a token: a session cookie, then the team's (or organiser's) page."""
    web = web_state(request)
    league = web.league()
    check_form(request, None, form_token)
    who = league.authenticate(token.strip()) if token.strip() else None
    if who is None:
        return render(request, web, league, "sign_in.html", status=401,
                      error="That token is not one of this league's (revoked, rotated or mistyped).")
    response = RedirectResponse(_home(who), status_code=303)
    response.set_cookie(SESSION_COOKIE, web.sessions.open(token.strip()), max_age=SESSION_SECONDS, httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")
    return response


@router.post("/sign-out")
def sign_out(request: Request, form_token: str = FormToken) -> Response:
    """End the browser's session."""
    web = web_state(request)
    league = web.league()
    _, session = browser_session(request, web, league)
    check_form(request, session, form_token)
    web.sessions.close(request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    return response


def _home(who: Identity) -> str:
    return "/organiser" if isinstance(who, Organiser) else "/team"


def _team_session(request: Request, web: WebState, league: League) -> tuple[Team, Session]:
    who, session = browser_session(request, web, league)
    if not isinstance(who, Team) or session is None:
        raise HTTPException(401, "sign in with your team's token first (at /sign-in)")
    return who, session


@router.get("/team", response_class=HTMLResponse)
def team_page(request: Request) -> Response:
    """The signed-in team's page."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    if who is None:
        return RedirectResponse("/sign-in", status_code=303)
    if isinstance(who, Organiser):
        return RedirectResponse("/organiser", status_code=303)
    return _render_team(request, web, league, who, session, notice=_notice(request))


def _render_team(request: Request, web: WebState, league: League, team: Team, session: Session | None,
                 status: int = 200, **context: Any) -> HTMLResponse:
    versions = [views.version(v, with_log=True) for v in league.versions(team)]
    bots = sorted({v["bot"] for v in versions})
    playing = sorted({v["bot"] for v in versions if v["active"]})
    opponents = [row.label for row in league.leaderboard() if row.team != team.name]
    return render(request, web, league, "team.html", who=team, session=session, status=status, team=team,
                  versions=versions, bots=bots, active_bot=playing[0] if playing else None, opponents=opponents,
                  limits=web.limits, server_url=str(request.base_url).rstrip("/"),
                  challenge_games=league.settings.challenge_games, failures=data.failure_groups(league, team),
                  logs=data.logs(league, team), log_games=data.LOG_GAMES, **context)


@router.post("/team/submit")
def team_submit(request: Request, file: UploadFile, form_token: str = FormToken) -> Response:
    """Submit a bot through the form."""
    web = web_state(request)
    league = web.league()
    team, session = _team_session(request, web, league)
    check_form(request, session, form_token)
    try:
        found = submit_upload(web, league, team, file)
    except ArenaError as exc:
        return _render_team(request, web, league, team, session, status=400, error=f"Not submitted: {exc}")
    outcome = "built" if found.status == "ready" else f"{found.status}: see its build log below"
    return _back("/team", f"{found.bot} v{found.number} ({found.version[:12]}) {outcome}.")


@router.post("/team/active")
def team_active(request: Request, bot: str = Form(), number: str = Form(), form_token: str = FormToken) -> Response:
    """Choose the version of a bot that plays."""
    web = web_state(request)
    league = web.league()
    team, session = _team_session(request, web, league)
    check_form(request, session, form_token)
    chosen = None if number == "latest" else _whole(number, "the version")
    try:
        found = league.set_active(team, bot, chosen)
    except ArenaError as exc:
        return _render_team(request, web, league, team, session, status=400, error=str(exc))
    return _back("/team", f"{found.bot} v{found.number} plays now.")


@router.post("/team/challenge")
def team_challenge(request: Request, bot: str = Form(), opponent: str = Form(), games: str = Form(),
                   form_token: str = FormToken) -> Response:
    """Ask for unrated games against another bot."""
    web = web_state(request)
    league = web.league()
    team, session = _team_session(request, web, league)
    check_form(request, session, form_token)
    try:
        ids = league.challenge(team, bot, opponent, _whole(games, "the number of games"))
    except ArenaError as exc:
        return _render_team(request, web, league, team, session, status=400, error=str(exc))
    return _back("/team", f"{len(ids)} unrated games of {team.name}/{bot} against {opponent} are queued.")


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ArenaError(f"{what} must be a whole number, not {text[:20]!r}") from None


# --- the organiser --------------------------------------------------------------------------------------------


def _organiser_session(request: Request, web: WebState, league: League) -> Session:
    who, session = browser_session(request, web, league)
    if not isinstance(who, Organiser) or session is None:
        raise HTTPException(401, "sign in with the organiser's token first (at /sign-in)")
    return session


@router.get("/organiser", response_class=HTMLResponse)
def organiser_page(request: Request) -> Response:
    """The organiser's page."""
    web = web_state(request)
    league = web.league()
    who, session = browser_session(request, web, league)
    if who is None:
        return RedirectResponse("/sign-in", status_code=303)
    if not isinstance(who, Organiser):
        raise HTTPException(403, "this page is the organiser's")
    return _render_organiser(request, web, league, session, notice=_notice(request))


def _render_organiser(request: Request, web: WebState, league: League, session: Session | None,
                      status: int = 200, **context: Any) -> HTMLResponse:
    return render(request, web, league, "organiser.html", who=Organiser(), session=session, status=status,
                  paused=league.paused, workers=league.workers(), teams=league.teams(), queue=league.queue(),
                  maps=list(league.settings.maps), versions=data.organiser_versions(league), **context)


@router.post("/organiser/{action}")
async def organiser_action(request: Request, action: str) -> Response:
    """One of the organiser's operations, named by ``action``."""
    form = await request.form()
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_organiser_action, request, action, fields)


def _organiser_action(request: Request, action: str, fields: dict[str, str]) -> Response:
    web = web_state(request)
    league = web.league()
    session = _organiser_session(request, web, league)
    check_form(request, session, fields.get("form_token"))
    team = fields.get("team", "").strip()
    try:
        if action == "pause":
            league.pause()
            return _back("/organiser", "Ranked play is paused.")
        if action == "resume":
            league.resume()
            return _back("/organiser", "Ranked play resumed.")
        if action == "recompute":
            count = league.recompute()
            return _back("/organiser", f"Ratings recomputed from {count} games.")
        if action in ("add-team", "rotate"):
            token = league.add_team(team) if action == "add-team" else league.rotate_token(team)
            return _render_organiser(request, web, league, session, new_token=token, new_token_team=team,
                                     notice=f"Team {team} has a new token.")
        if action == "rotate-own":
            token = league.rotate_token(None)
            return _render_organiser(request, web, league, None, new_token=token, new_token_team="the organiser",
                                     notice="The organiser has a new token: sign in with it from now on.")
        if action == "revoke":
            league.revoke_token(team)
            return _back("/organiser", f"The token of {team} is revoked.")
        if action == "rename":
            league.rename_team(team, fields.get("new", "").strip())
            return _back("/organiser", f"Team {team} is {fields.get('new', '').strip()} now.")
        if action == "remove":
            league.remove_team(team)
            return _back("/organiser", f"Team {team} is removed.")
        if action == "disable":
            owner, bot, number = data.chosen_version(fields.get("version", ""))
            league.disable(owner, bot, number)
            return _back("/organiser", f"{owner}/{bot} v{number} is disabled.")
        if action == "add-map":
            name = league.add_map(fields.get("map", "").strip())
            return _back("/organiser", f"Map {name} joins the rotation.")
        if action == "final":
            count = league.start_final(fields.get("deadline", "").strip() or None)
            return _back("/organiser", f"The final is scheduled: {count} games.")
    except ArenaError as exc:
        return _render_organiser(request, web, league, session, status=400, error=str(exc))
    raise HTTPException(404, f"no organiser operation {action!r}")
