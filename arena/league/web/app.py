"""The league's web application: FastAPI with the pages, the JSON API and arena's shared stylesheet and scripts.

``create_app(folder)`` builds it for the league in ``folder``; ``arena serve`` runs it under uvicorn, and
tests run it on a free loopback port. Every asset is served by the package (``/static``): nothing comes from
another site (so FastAPI's own documentation pages, which load their scripts from a CDN, are off: ``/api``
lists the API from its OpenAPI document, ``/openapi.json``). Request bodies are limited to the league's upload
size, plus room for the form around it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext
from pathlib import Path

from fastapi import FastAPI, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from arena.core.version import VERSION
from arena.league.web import account, api, errors, pages
from arena.league.web.body_limit import BodyLimit
from arena.league.web.state import WebState
from arena.report.pages import static_directory

FORM_ROOM = 64 * 1024
"""Bytes a request may carry beyond the largest upload: the multipart framing and the form's other fields."""


def create_app(folder: str | Path,
               background: Callable[[], AbstractContextManager[object]] = nullcontext) -> ASGIApp:
    """The application serving the league in ``folder``; ``background`` is entered while it runs (``arena serve``
    starts the ladder there, and stops it when the server stops)."""
    web = WebState(Path(folder))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        with background():
            try:
                yield
            finally:
                web.close()

    app = FastAPI(title=web.title, version=VERSION, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="The JSON API of an arena league: the leaderboard, bots, games and submissions. "
                              "Send a token as `Authorization: Bearer TOKEN`.")
    app.state.web = web
    errors.install(app, web.title)
    app.mount("/static", StaticFiles(directory=static_directory()), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(account.router)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    return BodyLimit(app, web.limits.max_bytes + FORM_ROOM)
