"""The games an executor still has to hand out, drawn from the schedule only as they are needed.

A schedule may be far longer than memory allows (a billion games): an executor takes its games from a
:class:`SetupQueue` a batch at a time, so what it holds is the games in flight and a batch ahead, never the
schedule. Games handed back (a worker died with them) go to the front.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sized

from arena.play.referee import MatchSetup


class SetupQueue:
    """Games to play: those handed back first, then the rest of ``setups`` in order, pulled lazily.

    ``len()`` is the number of games left when ``setups`` has a length (a list, a schedule, a pending set that
    counts itself), else the number of games already pulled and not yet taken.
    """

    def __init__(self, setups: Iterable[MatchSetup]):
        self._head: deque[MatchSetup] = deque()
        self._rest = iter(setups)
        self._unpulled: int | None = len(setups) if isinstance(setups, Sized) else None

    def __len__(self) -> int:
        return len(self._head) + (self._unpulled or 0)

    def __bool__(self) -> bool:
        return bool(self._head) or self._pull(1)

    def peek(self, count: int) -> list[MatchSetup]:
        """The next ``count`` games (fewer at the end), left in the queue."""
        self._pull(count)
        return [self._head[i] for i in range(min(count, len(self._head)))]

    def take(self, count: int) -> list[MatchSetup]:
        """Remove and return the next ``count`` games (fewer at the end)."""
        self._pull(count)
        return [self._head.popleft() for _ in range(min(count, len(self._head)))]

    def put_back(self, setups: Iterable[MatchSetup]) -> None:
        """Put games back at the front, to be handed out next, in the order given."""
        self._head.extendleft(reversed(list(setups)))

    def _pull(self, count: int) -> bool:
        """Pull games from ``setups`` until ``count`` are in hand (or it ends); whether any are in hand."""
        while len(self._head) < count:
            setup = next(self._rest, None)
            if setup is None:
                self._unpulled = 0
                break
            self._head.append(setup)
            if self._unpulled:
                self._unpulled -= 1
        return bool(self._head)
