"""How the console names the players of one game: by number from 1 (as boards draw them), bot and role."""

from __future__ import annotations

import re
from collections.abc import Sequence


def seat_names(labels: Sequence[str], roles: Sequence[str] = ()) -> list[str]:
    """Each seat's player as ``1=greedy (cat)``: its number from 1, its bot, and its role in a game that
    declares roles."""
    return [f"{seat + 1}={label}" + (f" ({roles[seat]})" if roles else "") for seat, label in enumerate(labels)]


def with_bot_names(text: str, labels: Sequence[str]) -> str:
    """``text`` (a game's reason, which names seats as ``player 2`` or ``players 1 and 2``) with each seat's
    bot after its number, as the referee names a player that failed: ``player 2 (wallhugger)``."""
    def named(number: str) -> str:
        seat = int(number) - 1
        return f"{number} ({labels[seat]})" if 0 <= seat < len(labels) else number

    def players(match: re.Match[str]) -> str:
        return match[1] + re.sub(r"\d+", lambda m: named(m[0]), match[2])

    return re.sub(r"\b(players? )(\d+(?:(?:, | and )\d+)*)\b(?! \()", players, text)  # unless named already
