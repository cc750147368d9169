"""Each bot's log of a game: what it prints, writes to ``sys.stdout`` or ``sys.stderr``, or logs, capped.

A bot's log is kept with its game (the record's ``stderr``, by seat) and holds at most :data:`LOG_CAP` bytes: the
first quarter from its start, the rest from its end (where a crash's message is), with a note of how much was
dropped between them. The cap holds while the log is written, so a bot printing without end costs the referee no
more memory than the cap.

A program bot's log is its stderr (:mod:`arena.plugins.programs.process`); a sandboxed Python bot's runner sends
its prints there too. A Python bot playing in the referee's process has its calls (its constructor,
``prepare()``, ``start()``, each move, ``finish()``) run under :meth:`SeatLogs.calling`: while one runs, what the
referee's thread writes to ``sys.stdout`` or ``sys.stderr`` and what reaches the root logger goes to that seat's
log. Everything else (the arena's own output, other threads') goes where it went before.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from arena.core.capped_log import LOG_CAP, CappedLog


class _Routes:
    """The log each thread writes to now (none: where output went before), and the streams installed for it."""

    def __init__(self) -> None:
        self.logs: dict[int, CappedLog | None] = {}
        self.lock = threading.Lock()
        self.users = 0
        self.streams: tuple[_SeatStream, _SeatStream] | None = None
        self.handler = _SeatHandler(self)


class _SeatStream:
    """Stands in for ``sys.stdout`` or ``sys.stderr``: a write from a thread in a bot's call goes to its log."""

    def __init__(self, routes: _Routes, before: TextIO):
        self._routes = routes
        self._before = before

    def write(self, text: str) -> int:
        """Write ``text`` to the log of the bot being called from this thread, else where it went before."""
        log = self._routes.logs.get(threading.get_ident())
        if log is None:
            return self._before.write(text)
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        return log.write(text)

    def writelines(self, lines: Any) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the stream it stands in for (a log needs no flushing)."""
        if self._routes.logs.get(threading.get_ident()) is None:
            self._before.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._before, name)


class _SeatHandler(logging.Handler):
    """On the root logger during games: a record logged in a bot's call goes to its log."""

    def __init__(self, routes: _Routes):
        super().__init__()
        self.routes = routes
        self.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))

    def handle(self, record: logging.LogRecord) -> bool:  # no lock: each thread writes its own log
        """Write ``record`` to the log of the bot being called from this thread (or, with no other handler to
        take it, as Python's last resort would)."""
        log = self.routes.logs.get(threading.get_ident())
        others = _other_handlers(record.name, self)
        if log is None:
            last = logging.lastResort
            if not others and last is not None and record.levelno >= last.level:
                last.handle(record)
            return True
        if any(isinstance(handler, logging.StreamHandler) and isinstance(handler.stream, _SeatStream)
               for handler in others):
            return True  # a handler the bot set up in its call writes it to the log already
        try:
            log.write(self.format(record) + "\n")
        except Exception:  # a record that cannot be formatted: logging's own rule is never to raise
            log.write(f"{record.levelname}:{record.name}:{record.msg!r}\n")
        return True

    def emit(self, record: logging.LogRecord) -> None:
        """See :meth:`handle`."""
        self.handle(record)


def _other_handlers(name: str, ours: logging.Handler) -> list[logging.Handler]:
    """The handlers a record of logger ``name`` reaches besides ``ours``."""
    found: list[logging.Handler] = []
    logger: logging.Logger | None = logging.getLogger(name)
    while logger is not None:
        found.extend(handler for handler in logger.handlers if handler is not ours)
        logger = logger.parent if logger.propagate else None
    return found


_ROUTES = _Routes()


@contextmanager
def _installed() -> Iterator[_Routes]:
    """The seat streams and the logging handler in place while a game plays (games of several threads share them)."""
    routes = _ROUTES
    with routes.lock:
        if routes.users == 0:
            routes.streams = (_SeatStream(routes, sys.stdout), _SeatStream(routes, sys.stderr))
            sys.stdout, sys.stderr = routes.streams
            logging.getLogger().addHandler(routes.handler)
        routes.users += 1
    try:
        yield routes
    finally:
        with routes.lock:
            routes.users -= 1
            if routes.users == 0 and routes.streams is not None:
                out, err = routes.streams
                if sys.stdout is out:
                    sys.stdout = out._before
                if sys.stderr is err:
                    sys.stderr = err._before
                routes.streams = None
                logging.getLogger().removeHandler(routes.handler)


class SeatLogs:
    """The logs of one game's seats while the game plays in this thread (see :func:`seat_logs`)."""

    def __init__(self, routes: _Routes, seats: int, cap: int = LOG_CAP):
        self.logs = [CappedLog(cap) for _ in range(seats)]
        self.routes = routes.logs
        self.thread = threading.get_ident()
        self.outer = self.routes.get(self.thread)
        """The log this thread wrote to before the game (a bot's, when it plays games of its own)."""

    def enter(self, seat: int) -> None:
        """A call into the bot in ``seat`` starts: this thread's output goes to its log."""
        self.routes[self.thread] = self.logs[seat]

    def leave(self) -> None:
        """The call returned (or raised): this thread's output goes where it went before."""
        self.routes[self.thread] = self.outer

    @contextmanager
    def calling(self, seat: int) -> Iterator[None]:
        """The block is a call into the bot in ``seat``."""
        self.enter(seat)
        try:
            yield
        finally:
            self.leave()

    def take(self, seat: int) -> str:
        """The log of ``seat`` so far, which starts again empty."""
        log = self.logs[seat]
        self.logs[seat] = CappedLog(log.cap, log.name)
        return log.text() if log.head or log.tail or log.dropped else ""

    def texts(self) -> dict[int, str]:
        """Each seat's log that has anything in it."""
        return {seat: log.text() for seat, log in enumerate(self.logs) if log.head or log.tail or log.dropped}


@contextmanager
def seat_logs(seats: int, cap: int = LOG_CAP) -> Iterator[SeatLogs]:
    """The logs of a game's ``seats`` while it plays in this thread: the referee calls each bot inside
    :meth:`SeatLogs.calling` (or :meth:`~SeatLogs.enter` and :meth:`~SeatLogs.leave`)."""
    with _installed() as routes:
        logs = SeatLogs(routes, seats, cap)
        try:
            yield logs
        finally:
            if logs.outer is None:
                routes.logs.pop(logs.thread, None)
            else:
                routes.logs[logs.thread] = logs.outer


def joined(captured: str, stderr: str) -> str:
    """A seat's log from what was captured in the referee's process and what its bot kept itself (a program's
    stderr, a note of processes left running), captured first."""
    if not captured or not stderr:
        return captured or stderr
    return captured + ("" if captured.endswith("\n") else "\n") + stderr
