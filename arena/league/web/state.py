"""What the web application keeps while it runs: the league folder, one open league per thread, the sessions.

SQLite connections belong to the thread that opened them, and FastAPI answers each request in a thread of
its pool, so every thread opens the league once and keeps it (WAL lets them all read while the ladder
writes). A route asks for its league inside its own body, never in a dependency, which may run in another
thread.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from arena.league.facade import League
from arena.league.web.cache import PageCache
from arena.league.web.sessions import Sessions
from arena.league.web.uploads import UploadLimits
from arena.plugins.registry import PluginConfig, load_registry


class WebState:
    """The league folder served, the leagues open in each thread, the browser sessions and the upload limits."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.sessions = Sessions()
        self.cache = PageCache()
        self.registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
        self._local = threading.local()
        self._opened: list[League] = []
        self._lock = threading.Lock()
        with League.open(folder) as league:  # fails at once, with the league's own message, if it is none
            settings = league.settings
            self.title = f"{settings.game} league"
            self.limits = UploadLimits(max_bytes=settings.upload_bytes, max_files=settings.upload_files,
                                       max_unpacked_bytes=settings.upload_bytes)

    def league(self) -> League:
        """The league, opened in the calling thread."""
        league: League | None = getattr(self._local, "league", None)
        if league is None:
            league = League.open(self.folder)
            self._local.league = league
            with self._lock:
                self._opened.append(league)
        return league

    def close(self) -> None:
        """Close every thread's connection (when the server stops)."""
        with self._lock:
            opened, self._opened = self._opened, []
        for league in opened:
            with contextlib.suppress(Exception):  # a connection of another thread: SQLite frees it with the thread
                league.close()
