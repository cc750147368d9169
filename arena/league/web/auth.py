"""Who is asking: a token in ``Authorization: Bearer`` for the API, a session cookie for a browser, and the
form token every browser form must send back."""

from __future__ import annotations

from fastapi import HTTPException, Request

from arena.league.facade import League
from arena.league.models import Organiser, Team
from arena.league.web.sessions import FORM_COOKIE, SESSION_COOKIE, Session, same_token
from arena.league.web.state import WebState

Identity = Team | Organiser


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, if the request has one."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def api_identity(request: Request, league: League) -> Identity:
    """The team or organiser whose bearer token came with the request; 401 without a valid one."""
    token = bearer_token(request)
    if token is None:
        raise HTTPException(401, "this needs a token: send 'Authorization: Bearer TOKEN'",
                            headers={"WWW-Authenticate": "Bearer"})
    found = league.authenticate(token)
    if found is None:
        raise HTTPException(401, "the token is not one of this league's (revoked, rotated or mistyped)",
                            headers={"WWW-Authenticate": "Bearer"})
    return found


def api_team(request: Request, league: League) -> Team:
    """The team whose token came with the request; 403 for the organiser's token."""
    found = api_identity(request, league)
    if not isinstance(found, Team):
        raise HTTPException(403, "this needs a team's token, not the organiser's")
    return found


def api_organiser(request: Request, league: League) -> Organiser:
    """The organiser, if the request carries the organiser's token; 403 for a team's."""
    found = api_identity(request, league)
    if not isinstance(found, Organiser):
        raise HTTPException(403, "this needs the organiser's token")
    return found


def reader(request: Request, web: WebState, league: League) -> Identity | None:
    """Who reads an answer that shows its owner more than everyone (a game, its record): the team or organiser
    of the bearer token (401 for a token that is not valid), else the browser's signed-in session, else
    ``None``: anyone."""
    if bearer_token(request) is not None:
        return api_identity(request, league)
    return browser_session(request, web, league)[0]


def browser_session(request: Request, web: WebState, league: League) -> tuple[Identity | None, Session | None]:
    """Who the browser signed in as, and its session; ``(None, None)`` if it did not, or its token is no longer
    valid (rotated or revoked: the session ends then)."""
    key = request.cookies.get(SESSION_COOKIE)
    session = web.sessions.get(key)
    if session is None:
        return None, None
    found = league.authenticate(session.token)
    if found is None:
        web.sessions.close(key)
        return None, None
    return found, session


def check_form(request: Request, session: Session | None, sent: object) -> None:
    """403 unless the form came back with the token it was given: the session's, or, before signing in, the
    form cookie's. A form posted from another site cannot know either."""
    expected = session.form_token if session is not None else request.cookies.get(FORM_COOKIE)
    if not same_token(sent if isinstance(sent, str) else None, expected):
        raise HTTPException(403, "the form is stale or came from another site: reload the page and try again")
