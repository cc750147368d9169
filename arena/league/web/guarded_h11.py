"""The h11 protocol of uvicorn with the two guards uvicorn lacks (:mod:`arena.league.web.connections` says why): a
deadline for each request head, and connections beyond the limit turned away at once."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from arena.league.web.connections import MAX_CONNECTIONS, ServerLimits

BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 52\r\n"
        b"connection: close\r\n\r\nthe server has too many connections: try again soon\n")


def uvicorn_options(limits: ServerLimits) -> dict[str, Any]:
    """The options of ``uvicorn.Config`` that carry ``limits`` (settled by
    :func:`~arena.league.web.connections.open_files_for`), with the guarded protocol."""
    most = limits.max_connections or MAX_CONNECTIONS
    return {"http": guarded_protocol(limits), "limit_concurrency": most + 1,  # uvicorn counts the asking one too
            "timeout_keep_alive": limits.keep_alive_seconds, "h11_max_incomplete_event_size": limits.head_bytes}


def guarded_protocol(limits: ServerLimits) -> type[H11Protocol]:
    """The h11 protocol of uvicorn, closing connections whose request head is late and those beyond the limit."""
    most = MAX_CONNECTIONS if limits.max_connections is None else limits.max_connections

    class GuardedH11Protocol(H11Protocol):
        """One connection: as uvicorn's, with a deadline for each request head and a limit on connections."""

        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > most:
                transport.write(BUSY)
                transport.close()
                return
            self._await_head()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._await_head()  # the first bytes of a request whose head is not complete yet
            else:
                self._stop_waiting()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _await_head(self) -> None:
            if self.head_timer is None:
                self.head_timer = self.loop.call_later(limits.header_seconds, self._head_too_late)

        def _stop_waiting(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_too_late(self) -> None:
            self.head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol
