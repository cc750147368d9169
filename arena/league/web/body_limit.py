"""An ASGI middleware that refuses a request body larger than a limit, before the application reads it.

A declared ``Content-Length`` over the limit is answered 413 at once; a body sent without one (chunked) is
counted as it arrives and cut off at the limit, so an upload can never fill the server's memory or disk.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    """Raised into the application when a chunked body passes the limit (an HTTP error, so the framework
    answers it as one rather than as a body it could not parse)."""


class BodyLimit:
    """Wraps ``app``: request bodies over ``limit`` bytes get ``413`` with a reason."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length, then count the body as the application reads it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                await _refuse(send, 400, "the Content-Length header is not a number")
                return
            if length > self.limit:
                await _refuse(send, 413, self._reason())
                return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(413, self._reason())
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, tracked_send)
        except BodyTooLarge:
            if not started:
                await _refuse(send, 413, self._reason())

    def _reason(self) -> str:
        return f"the request is larger than {self.limit:,} bytes"


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"detail": reason}).encode()
    headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
