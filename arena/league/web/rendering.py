"""Rendering a league page: arena's Jinja2 environment with the league's templates, and what every page shows
(the league's name, who is signed in, the form token)."""

from __future__ import annotations

from datetime import UTC, datetime
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
        final_started=final_started(league), deadline=deadline_banner(league),
        **{"refresh": None, "notice": None, "error": None, **context})
    response = HTMLResponse(page, status_code=status)
    if fresh is not None:
        response.set_cookie(FORM_COOKIE, fresh, httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return response


def final_started(league: League) -> bool:
    """Whether the league's final has been queued (its table then has a page)."""
    return league.final_started()


def deadline_banner(league: League, moment: datetime | None = None) -> dict[str, str] | None:
    """What every page's deadline banner says while the league's deadline is ahead (at ``moment``, now if
    ``None``): when (``at``: ISO, ``shown``: in words, UTC) and how long until then (``left``); ``None`` without
    a deadline, or once it has passed."""
    found = league.deadline()
    if found is None:
        return None
    at = datetime.fromisoformat(found)
    seconds = int((at - (moment or datetime.now(UTC))).total_seconds())
    if seconds <= 0:
        return None
    return {"at": at.isoformat(), "shown": at.strftime("%Y-%m-%d %H:%M UTC"), "left": time_left(seconds)}


def time_left(seconds: int) -> str:
    """``seconds`` in words, to the minute (``2 days 3 h 5 min``; under a minute: ``under a minute``)."""
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = ([f"{days} day{'s' if days != 1 else ''}"] if days else []) + ([f"{hours} h"] if hours else [])
    parts += [f"{minutes} min"] if minutes else []
    return " ".join(parts) or "under a minute"
