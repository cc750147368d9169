"""Game records: one JSON object per game, format ``arena-record/1``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.core.game import Result
from arena.core.maps import GameMap

RECORD_FORMAT = "arena-record/1"


class _SeatKeys(dict[int, str]):
    """A turn's seats as the record's JSON keys (``"0"``), each made once rather than for every move of every game."""

    def __missing__(self, seat: int) -> str:
        self[seat] = key = str(seat)
        return key


_SEAT_KEYS = _SeatKeys()


def build_record(
    *,
    game: str,
    options: Mapping[str, str],
    game_map: GameMap | None,
    seed: int,
    players: Sequence[Mapping[str, Any]],
    turns: Sequence[Mapping[int, Any]],
    result: Result,
    failures: Sequence[Mapping[str, Any]] = (),
    think_time: Sequence[float] = (),
    seat_keys: bool = True,
) -> dict[str, Any]:
    """Assemble the JSON-ready record of one finished game.

    Without ``seat_keys``, the turns keep their seat numbers as keys instead of the record's ``"0"``: for a
    record that is only written out as JSON at once, where ``json.dumps`` writes the same text for both, and
    converting every turn would be wasted (a stored game).
    """
    return {
        "format": RECORD_FORMAT,
        "game": game,
        "options": dict(options),
        "map": None if game_map is None else {"name": game_map.name, "text": game_map.text},
        "seed": seed,
        "players": [dict(player) for player in players],
        "turns": [{_SEAT_KEYS[seat]: action for seat, action in turn.items()} for turn in turns] if seat_keys
        else list(turns),
        "result": {"ranks": list(result.ranks), "reason": result.reason},
        "failures": [dict(failure) for failure in failures],
        "think_time": [round(seconds, 6) for seconds in think_time],
    }
