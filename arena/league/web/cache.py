"""What the pages read, kept until the league changes: a page asked for by twenty browsers at once is computed
once per change of the league, not twenty times.

An entry is keyed by what it shows and by the league's stamp (the newest stored game, the newest version, the
versions that play, whether ranked play is paused), read with two small queries, and is used for at most
:data:`MAX_AGE` seconds, so anything the stamp does not see (a renamed team) shows within that time.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

from arena.league.facade import League

T = TypeVar("T")
MAX_AGE = 5.0
"""Seconds an entry is used for at most."""
MAX_ENTRIES = 512

def stamp(league: League) -> tuple[Any, ...]:
    """What changes whenever the pages would: a tuple that is equal only while nothing they show changed."""
    return league.change_stamp()


class PageCache:
    """Computed page data by key and league stamp (thread-safe; two threads may compute the same entry once
    each, which is harmless)."""

    def __init__(self) -> None:
        self._entries: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()  # values of any page
        self._lock = threading.Lock()

    def get(self, key: Hashable, league: League, compute: Callable[[], T], changes: bool = True) -> T:
        """The value for ``key``, computed by ``compute`` unless it is kept for the league as it is now; with
        ``changes=False`` (a finished game's page) the league's stamp does not matter."""
        full = (key, stamp(league)) if changes else (key,)
        now = time.monotonic()
        with self._lock:
            found = self._entries.get(full)
            if found is not None and (not changes or now - found[0] < MAX_AGE):
                self._entries.move_to_end(full)
                return cast(T, found[1])  # stored by this same key's compute, of type T
        value = compute()
        with self._lock:
            self._entries[full] = (now, value)
            while len(self._entries) > MAX_ENTRIES:
                self._entries.popitem(last=False)
        return value
