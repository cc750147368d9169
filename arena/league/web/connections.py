"""How many connections ``arena serve`` holds, and for how long: so slow or silent clients cannot hold it.

uvicorn and h11 do part of it, and are set here:

- ``limit_concurrency`` (uvicorn): a request that arrives while the server has that many connections open
  (counting its own) or requests in progress is answered ``503`` (set to ``max_connections + 1``);
- ``timeout_keep_alive`` (uvicorn): a connection idle after its response is closed after that many seconds;
- ``h11_max_incomplete_event_size`` (h11, through uvicorn): a request head larger than that is answered ``400``.

Neither closes a connection whose request head never completes (uvicorn arms its keep-alive timer only once
a response is sent, and stops it when the next request's first bytes come), nor turns away a connection beyond
the limit (it stays open, a file descriptor each, until it sends a whole request).
:mod:`arena.league.web.guarded_h11` adds both to uvicorn's h11 protocol: a connection without a complete request
head ``header_seconds`` after it opened (or after the first bytes of its next request) is closed, and one opened
beyond ``max_connections`` is answered ``503`` and closed at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from arena.core.errors import ArenaError

MAX_CONNECTIONS = 2000
"""Connections served at once, unless the process may not open that many files (then fewer)."""
HEADER_SECONDS = 10.0
KEEP_ALIVE_SECONDS = 5
HEAD_BYTES = 16 * 1024
"""The largest request head (the request line and headers), as h11's own default."""
RESERVED_FILES = 512
"""Files the server keeps for itself beyond its connections: the database in every thread, the ladder's
workers and their pipes, the sandboxes, the logs."""


@dataclass(frozen=True)
class ServerLimits:
    """What ``arena serve`` allows its clients (see the module's documentation for which part does what)."""

    max_connections: int | None = None
    """``None``: :data:`MAX_CONNECTIONS`, or fewer if the process may not open enough files."""
    header_seconds: float = HEADER_SECONDS
    keep_alive_seconds: int = KEEP_ALIVE_SECONDS
    head_bytes: int = HEAD_BYTES


def open_files_for(limits: ServerLimits) -> ServerLimits:
    """``limits`` with its number of connections settled, and the process allowed enough open files for them
    (its soft limit raised as far as the hard one allows). If it cannot open enough: fewer connections, or an
    :class:`ArenaError` if their number was chosen (``--max-connections``)."""
    chosen = limits.max_connections is not None
    wanted = MAX_CONNECTIONS if limits.max_connections is None else limits.max_connections
    settled = replace(limits, max_connections=wanted)
    try:
        import resource
    except ImportError:  # not a Unix: no limit to raise
        return settled
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return settled
    if chosen or soft <= RESERVED_FILES:
        raise ArenaError(f"--max-connections {wanted} needs {needed} open files, but this process may open "
                         f"{soft} (ulimit -n): allow more, or choose at most {max(1, soft - RESERVED_FILES)}")
    return replace(limits, max_connections=soft - RESERVED_FILES)
