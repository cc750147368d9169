"""A tournament's played games, by schedule index: in memory for a run that is not stored, read from the store
for a stored one, so that playing (or resuming) a stored run of any length holds none of its games in memory.

The functions here walk either kind over a range of indices without listing the whole range: the games
still missing come as ranges, found a page of stored indices at a time.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from arena.stats.standings import PlayedGame, StandingsTally
from arena.storage import summaries
from arena.storage.history import played_from_rows
from arena.storage.store import Store

PAGE = 4096
"""Stored indices read at once while looking for the games still missing."""


class StoredGames(Mapping[int, PlayedGame]):
    """The games of stored run ``run_id`` as a read-only mapping from schedule index; it reads the store when
    asked and holds nothing (games are added by storing them)."""

    def __init__(self, store: Store, run_id: int):
        self.store = store
        self.run_id = run_id

    def __len__(self) -> int:
        return self.store.run(self.run_id).played

    def __getitem__(self, index: int) -> PlayedGame:
        rows = list(self.store.games_between(self.run_id, index, index + 1))
        if not rows:
            raise KeyError(index)
        return played_from_rows(rows)[0]

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and self.store.played_indices_from(self.run_id, index, 1) == [index]

    def __iter__(self) -> Iterator[int]:
        start = 0
        while page := self.store.played_indices_from(self.run_id, start, PAGE):
            yield from page
            start = page[-1] + 1

    def tally(self) -> StandingsTally:
        """The standings' counts over every stored game, from the run's summaries."""
        return summaries.read(self.store.conn, self.run_id).tally

    def in_order(self) -> list[PlayedGame]:
        """Every stored game, in schedule order (read in one query)."""
        return played_from_rows(list(self.store.games(run_id=self.run_id)))


def missing_ranges(played: Mapping[int, PlayedGame], start: int, stop: int) -> Iterator[range]:
    """The indices in ``start..stop-1`` with no game played yet, as ranges in order.

    For stored games it reads one page of stored indices at a time, each page starting past every index
    it has yielded: games stored meanwhile (ones it yielded, being played) can't change the answer.
    """
    if not isinstance(played, StoredGames):
        first = None
        for index in range(start, stop):
            if index in played:
                if first is not None:
                    yield range(first, index)
                first = None
            elif first is None:
                first = index
        if first is not None:
            yield range(first, stop)
        return
    cursor = start
    while cursor < stop:
        page = [index for index in played.store.played_indices_from(played.run_id, cursor, PAGE) if index < stop]
        for index in page:
            if index > cursor:
                yield range(cursor, index)
            cursor = index + 1
        if len(page) < PAGE:
            break
    if cursor < stop:
        yield range(cursor, stop)


def count_between(played: Mapping[int, PlayedGame], start: int, stop: int) -> int:
    """How many games with ``start <= index < stop`` are played."""
    if isinstance(played, StoredGames):
        return played.store.count_games_between(played.run_id, start, stop)
    return sum(1 for index in played if start <= index < stop)


def games_between(played: Mapping[int, PlayedGame], start: int, stop: int) -> Iterator[PlayedGame | None]:
    """Each index's game from ``start`` to ``stop - 1`` in order, ``None`` where none is played yet."""
    if not isinstance(played, StoredGames):
        yield from (played.get(index) for index in range(start, stop))
        return
    expected = start
    for row in played.store.games_between(played.run_id, start, stop):
        yield from (None for _ in range(expected, row.idx))
        yield played_from_rows([row])[0]
        expected = row.idx + 1
    yield from (None for _ in range(expected, stop))


def in_order(played: Mapping[int, PlayedGame]) -> list[PlayedGame]:
    """Every played game, in schedule order."""
    if isinstance(played, StoredGames):
        return played.in_order()
    return [played[index] for index in sorted(played)]
