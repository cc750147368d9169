"""The league's answers as JSON-ready dicts: what the API returns and what the pages' templates read.

Every page renders from the same dict its ``/api/...`` twin returns, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from urllib.parse import quote

from arena.league.models import BoardRow, BotInfo, GameInfo, Seat, VersionInfo
from arena.league.web.privacy import listed_reason


def bot_path(team: str, bot: str) -> str:
    """The address of a bot's page."""
    return f"/bots/{quote(team, safe='')}/{quote(bot, safe='')}"


FAILURE_KINDS = (("crashes", "crash"), ("timeouts", "timeout"), ("illegal", "illegal"))
"""The leaderboard's failure columns and the failure kind each counts."""


def board_row(row: BoardRow, failures: dict[str, int] | None = None) -> dict[str, Any]:
    """One leaderboard line, with its label, conservative rating, page, and its failures in ranked games by kind
    (``failures``: counts by kind)."""
    counts = failures or {}
    return {**asdict(row), "label": row.label, "rating": row.rating, "url": bot_path(row.team, row.bot),
            **{column: counts.get(kind, 0) for column, kind in FAILURE_KINDS}}


def seat(player: Seat) -> dict[str, Any]:
    """One player of a game."""
    return {**asdict(player), "label": player.label, "url": bot_path(player.team, player.bot)}


def game(info: GameInfo) -> dict[str, Any]:
    """One finished game, with its players and the addresses of its page and record; a failed bot's reason in
    words of its kind only (:func:`~arena.league.web.privacy.listed_reason`)."""
    return {"id": info.id, "kind": info.kind, "seats": [seat(player) for player in info.seats],
            "reason": listed_reason(info), "map": info.map, "seed": info.seed, "finished_at": info.finished_at,
            "url": f"/games/{info.id}", "record_url": f"/api/games/{info.id}/record"}


def version(info: VersionInfo, with_log: bool = False) -> dict[str, Any]:
    """One version of a bot; its build log only for its own team (``with_log``)."""
    data = {**asdict(info), "label": info.label, "rating": info.rating}
    if not with_log:
        data.pop("build_log")
    return data


def bot(info: BotInfo, with_logs: bool = False) -> dict[str, Any]:
    """A bot's page: its versions (newest first), the active one, its recent games."""
    active = info.active
    return {"team": info.team, "bot": info.bot, "label": f"{info.team}/{info.bot}",
            "url": bot_path(info.team, info.bot),
            "active": None if active is None else active.number,
            "versions": [version(v, with_logs) for v in info.versions],
            "games": [game(g) for g in info.games]}
