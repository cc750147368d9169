"""Rendering a league page: arena's Jinja2 environment with the league's templates, and what every page shows
(the league's name, who is signed in, the form token)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from arena.league.facade import League
from arena.league.models import Organiser
from arena.league.web.auth import Identity
from arena.league.web.sessions import FORM_COOKIE, Session, new_form_token
from arena.league.web.state import WebState
from arena.report.pages import environment

TEMPLATES = str(Path(__file__).resolve().parent / "templates")
STATIC_URL = "/static"


def render(request: Request, web: WebState, league: League, template: str, *, who: Identity | None = None,
           session: Session | None = None, status: int = 200, **context: Any) -> HTMLResponse:
    """Page ``template`` as a response. A browser not signed in gets a form token in a cookie (for the sign-in
    form); a signed-in one uses its session's."""
    fresh = None
    if session is not None:
        form_token = session.form_token
    else:
        form_token = request.cookies.get(FORM_COOKIE) or ""
        if not form_token:
            form_token = fresh = new_form_token()
    name = None if who is None else ("organiser" if isinstance(who, Organiser) else who.name)
    page = environment((TEMPLATES,)).get_template(template).render(
        league_title=web.title, who=name, form_token=form_token, static_url=STATIC_URL,
        final_started=final_started(league), **{"refresh": None, "notice": None, "error": None, **context})
    response = HTMLResponse(page, status_code=status)
    if fresh is not None:
        response.set_cookie(FORM_COOKIE, fresh, httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return response


def final_started(league: League) -> bool:
    """Whether the league's final has been queued (its table then has a page)."""
    return league.final_started()
