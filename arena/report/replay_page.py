"""The HTML replay viewer: one self-contained page per game record, and an index page for a run's games.

The record is replayed here, in Python, with the game's own rules (as ``arena replay --check`` does);
after every turn the game describes its position as a :class:`arena.core.view.BoardView`. The page gets
the first board in full and then, per turn, only the cells that changed, with the pieces, crash marks
and notes of that turn, so its script draws any game without knowing its rules. The page is
``templates/replay.html``; its script ``static/replay_viewer.js`` and the stylesheet are inlined: nothing is
fetched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from arena.core.errors import ArenaError
from arena.core.view import SEAT_COLOURS, TRAIL_COLOURS
from arena.plugins.registry import Registry
from arena.report.pages import render
from arena.storage.replay import new_game


def _players(record: dict[str, Any], roles: Sequence[str]) -> list[dict[str, Any]]:
    think = record.get("think_time") or []
    players = []
    for index, player in enumerate(record["players"]):
        seat = int(player.get("seat", index))
        players.append({
            "seat": seat, "bot": str(player.get("bot", "?")), "version": str(player.get("version", "")),
            "role": roles[seat] if seat < len(roles) else "",
            "rank": record["result"]["ranks"][index],
            "think": think[seat] if seat < len(think) else None,
        })
    return players


def result_text(record: dict[str, Any], roles: Sequence[str] = ()) -> str:
    """The result in words: the reason with each player's bot (and role) named, and the turn it ended on."""
    names = {}
    for index, player in enumerate(record["players"]):
        seat = int(player.get("seat", index))
        role = f", {roles[seat]}" if seat < len(roles) else ""
        names[seat] = f"{player.get('bot', '?')}{role}"
    named: set[int] = set()

    def name_once(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        if seat in named or seat not in names:
            return match.group(0)
        named.add(seat)
        return f"player {seat + 1} ({names[seat]})"

    reason = re.sub(r"\bplayer (\d+)\b(?! \()", name_once, record["result"].get("reason", "") or "")
    for seat, role in enumerate(roles):
        if seat not in named and seat in names:  # games with roles speak of "the cat", not "player 1"
            bot = names[seat].rsplit(", ", 1)[0]
            reason = re.sub(rf"\bthe {re.escape(role)}\b(?! \()", f"the {role} ({bot})", reason, count=1)
    turns = len(record["turns"])
    if record.get("failures"):
        return f"After turn {turns}: {reason}" if reason else f"Ended after turn {turns}"
    return f"Turn {turns}: {reason}" if reason else f"Ended on turn {turns}"


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{key} = {value}" for key, value in sorted(options.items())) or "none"


def replay_data(record: dict[str, Any], registry: Registry) -> dict[str, Any]:
    """Everything the page draws: the header facts, the styles, the first board, and a frame per turn.

    Raises :class:`ArenaError` when a turn does not replay (the record does not fit the current rules).
    """
    game = new_game(record, registry)
    roles = tuple(type(game).roles)
    view = game.view()
    width, height = len(view.rows[0]) if view.rows else 0, len(view.rows)
    cells = start = view.cells()
    seen = set(start)  # the legend names only what the board shows at some turn
    styles = dict(view.styles)
    frames = [{**view.frame(), "changes": [], "moves": {}}]
    for index, turn in enumerate(record["turns"]):
        if game.result is not None:
            raise ArenaError(f"the game ended after turn {index}, but the record has {len(record['turns'])} turns")
        actions = {int(seat): action for seat, action in turn.items()}
        illegal = [seat for seat, action in actions.items() if not game.is_legal(seat, action)]
        if illegal:
            raise ArenaError(f"turn {index + 1}: player {illegal[0] + 1}'s action {actions[illegal[0]]!r} is illegal")
        game.apply(actions)
        view = game.view()
        now = view.cells()
        if len(now) != len(cells) or len(view.rows) != height:
            raise ArenaError(f"turn {index + 1}: the board changed size, which the viewer cannot draw")
        changes: list[list[Any]] = [[i, char] for i, (was, char) in enumerate(zip(cells, now, strict=True))
                                    if was != char]
        seen.update(char for _, char in changes)
        cells = now
        styles.update(view.styles)
        frames.append({**view.frame(), "changes": changes, "moves": {str(s): a for s, a in sorted(turn.items())}})
    game_map = record.get("map") or {}
    failures = [{"seat": f["seat"], "kind": f.get("kind", ""), "detail": f.get("detail", "")}
                for f in record.get("failures", [])]
    return {
        "game": record["game"], "map": game_map.get("name", "-"), "seed": record["seed"],
        "options": _options_text(record["options"]), "players": _players(record, roles),
        "result": result_text(record, roles), "failures": failures,
        "width": width, "height": height, "cells": start, "labels": list(view.labels) if view.labels else None,
        "styles": {char: {"fill": s.fill, "symbol": s.symbol, "name": s.name if char in seen else ""}
                   for char, s in sorted(styles.items())},
        "colours": {"seat": list(SEAT_COLOURS), "trail": list(TRAIL_COLOURS)},
        "frames": frames,
    }


def seat_logs(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's log the record keeps (what its bot printed, logged or wrote to stderr, capped), by seat:
    ``{"seat": 0, "name": "player 1 (talky)", "text": ...}``."""
    logs = record.get("stderr")
    if not isinstance(logs, dict):
        return []
    bots = {int(p.get("seat", index)): str(p.get("bot", "?")) for index, p in enumerate(record.get("players", []))}
    found = []
    for key, text in logs.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            continue
        found.append({"seat": seat, "name": f"player {seat + 1} ({bots.get(seat, '?')})", "text": str(text)})
    return sorted(found, key=lambda log: log["seat"])


def log_lines(record: dict[str, Any]) -> list[str]:
    """Each seat's log the record keeps, its lines indented under ``log of player N (bot):``."""
    lines = []
    for log in seat_logs(record):
        lines.append(f"log of {log['name']}:")
        lines.extend(f"  {line}" for line in log["text"].rstrip("\n").splitlines())
    return lines


def page_title(record: dict[str, Any]) -> str:
    """``tron on empty_room: steady vs random``."""
    game_map = (record.get("map") or {}).get("name")
    bots = " vs ".join(str(p.get("bot", "?")) for p in record["players"])
    return f"{record['game']}{' on ' + game_map if game_map else ''}: {bots}"


def _json_for_script(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``</`` can close it, no ``<!--`` can open a comment."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def build_replay_html(record: dict[str, Any], registry: Registry, back_link: str | None = None,
                      static_url: str | None = None) -> str:
    """The self-contained replay page of one record; ``back_link`` (a relative address) adds a link back.
    With ``static_url`` (a server's), the page links the stylesheet and script from there instead of inlining."""
    return render("replay.html", title=page_title(record), back_link=back_link,
                  data_json=Markup(_json_for_script(replay_data(record, registry))), static_url=static_url,
                  logs=seat_logs(record))


@dataclass(frozen=True)
class IndexEntry:
    """One game on an index page: its number, record and the page's relative address (empty: no page)."""

    number: int
    record: dict[str, Any]
    href: str


def game_line(text: str, href: str, record: dict[str, Any]) -> dict[str, Any]:
    """One game as the ``game_list`` macro of ``templates/games.html`` lists it: its link text and address,
    map, players with their ranks, turns and result."""
    players = ", ".join(f"{p.get('bot', '?')} ({rank})"
                        for p, rank in zip(record["players"], record["result"]["ranks"], strict=True))
    return {"text": text, "href": href, "map": (record.get("map") or {}).get("name", "-"), "players": players,
            "turns": len(record["turns"]), "reason": record["result"].get("reason", "")}


def build_index_html(title: str, entries: Sequence[IndexEntry]) -> str:
    """A page listing games with their players, result and a link to each replay (self-contained, no script)."""
    return render("games_index.html", title=title, body_class="index",
                  games=[game_line(f"game {entry.number}", entry.href, entry.record) for entry in entries])


def game_page_name(run: int, number: int) -> str:
    """The file name of a stored game's replay page, as ``arena export --html`` and the report write it."""
    return f"run{run}-game{number:05d}.html"


@dataclass(frozen=True)
class WrittenPages:
    """What :func:`write_game_pages` wrote: the games with a page, and the ones that did not replay (and why)."""

    written: int
    problems: list[str]
    games: list[dict[str, Any]] = field(default_factory=list)
    """Each game listed, as :func:`game_line` gives it, its address relative to the folder of pages."""


def write_game_pages(run: int, games: Iterable[tuple[int, dict[str, Any]]], directory: Path,
                     registry: Registry, title: str | None = None) -> WrittenPages:
    """Write a replay page for every ``(number, record)`` of stored run ``run`` into ``directory``, and its
    ``index.html`` (titled ``title``, by default the run's "every game"); a record that no longer replays under
    the current rules is listed without a page. ``games`` is read one at a time and no record is kept."""
    directory.mkdir(parents=True, exist_ok=True)
    lines, problems = [], []
    for number, record in games:
        name = game_page_name(run, number)
        try:
            page = build_replay_html(record, registry, back_link="index.html")
        except ArenaError as exc:
            problems.append(f"game {number}: {exc}")
            name = ""
        else:
            (directory / name).write_text(page, encoding="utf-8")
        lines.append(game_line(f"game {number}", name, record))
    (directory / "index.html").write_text(
        render("games_index.html", title=title or f"Run {run}: every game", body_class="index", games=lines),
        encoding="utf-8")
    return WrittenPages(len(lines) - len(problems), problems, lines)
