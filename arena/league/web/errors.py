"""Every refused request gets a clear 4xx with its reason, never a 500 or a traceback: JSON ``{"detail": ...}``
under ``/api/``, a page elsewhere. An unexpected error is logged on the server and answered with a 500 that
says no more than that."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

from arena.core.errors import ArenaError
from arena.league.web.data import NotFound
from arena.league.web.rendering import STATIC_URL, TEMPLATES
from arena.league.web.uploads import UploadTooLarge
from arena.report.pages import environment

log = logging.getLogger("arena.league.web")


def install(app: FastAPI, title: str) -> None:
    """Answer HTTP errors, invalid requests, the league's own errors and anything unexpected on ``app``."""

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return _answer(request, exc.status_code, str(exc.detail), title, exc.headers)

    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return _answer(request, 422, validation_reason(exc), title)

    async def refused(request: Request, exc: ArenaError) -> Response:
        status = 404 if isinstance(exc, NotFound) else 413 if isinstance(exc, UploadTooLarge) else 400
        return _answer(request, status, str(exc), title)

    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("error answering %s %s", request.method, request.url.path)
        return _answer(request, 500, "the server failed to answer this request; its log says why", title)

    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.add_exception_handler(ArenaError, refused)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, unexpected)


def validation_reason(exc: RequestValidationError) -> str:
    """FastAPI's validation errors in one line: ``query parameter 'limit': Input should be ...``."""
    parts = []
    for error in exc.errors():
        where = [str(part) for part in error.get("loc", ())]
        place = f"{where[0]} parameter {'.'.join(where[1:])!r}" if len(where) > 1 else ".".join(where)
        parts.append(f"{place}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"


def _answer(request: Request, status: int, reason: str, title: str,
            headers: Mapping[str, str] | None = None) -> Response:
    if request.url.path.startswith("/api/") or "text/html" not in request.headers.get("accept", ""):
        return JSONResponse({"detail": reason}, status_code=status, headers=headers)
    page = environment((TEMPLATES,)).get_template("error.html").render(
        league_title=title, who=None, form_token="", static_url=STATIC_URL, final_started=False, refresh=None,
        notice=None, error=None, status=status, reason=reason)
    return HTMLResponse(page, status_code=status, headers=headers)
