"""Which games of a run get a replay page in ``arena report --html``: a bounded choice unless asked for all.

A page per game of a million-game run is gigabytes and hours, so by default the report writes at most
``DEFAULT_REPLAYS`` pages: the longest game (most turns; the first one on ties) of each pairing, pairings in
the order they first played, then games spread evenly over the run (game numbers ``k * total / room``) until
the count is reached. ``--replays N`` chooses ``N`` the same way, ``all`` takes every game and ``none`` none.
The choice reads only each game's number, seats and turns, one row at a time, so it costs little memory on
any run; the records of the chosen games are read afterwards, one at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from arena.core.errors import ArenaError
from arena.storage.store import GameRow, Store

DEFAULT_REPLAYS = 100
"""Replay pages a report writes unless told otherwise."""


@dataclass(frozen=True)
class ReplayChoice:
    """How many games get a replay page: ``None`` for all of them, else at most ``count`` (0: none)."""

    count: int | None

    @classmethod
    def parse(cls, text: str) -> ReplayChoice:
        """``all``, ``none`` or a number of games (0 or more); anything else is a one-line error."""
        word = text.strip().lower()
        if word == "all":
            return cls(None)
        if word == "none":
            return cls(0)
        if word.isdigit():
            return cls(int(word))
        raise ArenaError(f"--replays {text!r} is not all, none or a number of games")

    def describe(self, chosen: int, total: int) -> str:
        """The sentence the report and the command print about the replay pages."""
        if self.count is None:
            return f"Every game ({total}) has a replay page."
        if chosen == 0:
            return f"No replay pages were written (--replays none); the run has {total} games."
        rule = ("every game" if chosen == total else
                "the longest game of each pairing, then games spread evenly over the run")
        return (f"Replay pages for {chosen} of {total} games: {rule} (--replays all|none|N asks for others; "
                f"the default is {DEFAULT_REPLAYS}).")


def _pairings(store: Store, run_id: int) -> Iterator[tuple[int, tuple[str, ...], int]]:
    cursor = store.conn.execute("SELECT idx, seats, turns FROM games WHERE run_id = ? ORDER BY idx", (run_id,))
    for idx, seats, turns in cursor:
        yield idx, tuple(sorted(seat["label"] for seat in json.loads(seats))), turns


def game_count(store: Store, run_id: int) -> int:
    """How many games run ``run_id`` has stored."""
    return int(store.conn.execute("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)).fetchone()[0])


def chosen_games(store: Store, run_id: int, count: int) -> list[int]:
    """The numbers of at most ``count`` games of the run, chosen as the module says, in game order."""
    if count <= 0:
        return []
    longest: dict[tuple[str, ...], tuple[int, int]] = {}  # pairing: (turns, game), the pairings in first-game order
    numbers: list[int] = []
    total = 0
    for idx, pairing, turns in _pairings(store, run_id):
        total += 1
        best = longest.get(pairing)
        if (best is None and len(longest) < count) or (best is not None and turns > best[0]):
            longest[pairing] = (turns, idx)
    chosen = {idx for _, idx in longest.values()}
    room = count - len(chosen)
    if room > 0 and total > len(chosen):
        wanted = sorted({k * total // room for k in range(room)})
        position = 0
        for index, (idx, _, _) in enumerate(_pairings(store, run_id)):
            while position < len(wanted) and wanted[position] < index:
                position += 1
            if position < len(wanted) and wanted[position] == index:
                numbers.append(idx)
        for idx in numbers:
            if len(chosen) >= count:
                break
            chosen.add(idx)
        if len(chosen) < count:  # evenly spaced games that were chosen already: fill up in game order
            for idx, _, _ in _pairings(store, run_id):
                if len(chosen) >= count:
                    break
                chosen.add(idx)
    return sorted(chosen)


def chosen_rows(store: Store, run_id: int, choice: ReplayChoice) -> Iterator[GameRow]:
    """The stored games of the run that get a replay page, in game order, read one at a time."""
    if choice.count is None:
        yield from store.games(run_id=run_id)
        return
    for idx in chosen_games(store, run_id, choice.count):
        yield store.game(run_id, idx)
