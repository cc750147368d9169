"""Standings and head-to-head tables: rich on a terminal, markdown / csv / json for scripts."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Sequence
from typing import Any

from rich import box
from rich.console import Console

from arena.core.failure import FAILURE_KINDS
from arena.report.fitted_table import FOLD, NAME, PROSE, FittedTable
from arena.stats.proportions import score_rate
from arena.stats.standings import BotStanding, Standings, failure_summary

FORMATS = ("table", "md", "csv", "json")


def rich_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], *, names: Collection[int] = (),
               prose: Collection[int] = (), right: Collection[int] = (), named_columns: bool = False,
               **options: Any) -> FittedTable:
    """A table for the console that never splits a name across lines, however narrow the console.

    The columns ``names`` (indices) stay on one line, cut with an ellipsis only when the console is too
    narrow for them; the others wrap at spaces and give up their width first: in the columns ``prose``
    (text that holds names) a word too long is cut with an ellipsis, in the rest (numbers, paths) it is
    broken across lines. ``named_columns``: every header is a name (a matrix's). ``right``: the columns
    aligned right. Cells are plain text (no console markup).
    """
    kinds = [NAME if i in names else PROSE if i in prose else FOLD for i in range(len(headers))]
    return FittedTable(headers, rows, kinds, named_columns=named_columns, right=right, title=title,
                       title_justify="left", **options)


def standings_records(standings: Standings) -> list[dict[str, Any]]:
    """One dict per standings line with full-precision values."""
    records = []
    ranks: dict[str | None, int] = {}
    for row in standings.rows:
        rank = ranks[row.role] = ranks.get(row.role, 0) + 1  # with roles, a ranking per role
        record: dict[str, Any] = {"rank": rank, "bot": row.label}
        if row.role is not None:
            record["role"] = row.role
        record.update({
            "conservative": row.rating.conservative,
            "mu": row.rating.mu,
            "sigma": row.rating.sigma,
            "games": row.games,
            "wins": row.wins,
            "draws": row.draws,
            "losses": row.losses,
            "score": row.score,
        })
        record.update({kind: row.failures.get(kind, 0) for kind in FAILURE_KINDS})
        records.append(record)
    return records


def head_to_head_records(standings: Standings) -> list[dict[str, Any]]:
    """One dict per ordered pair of bots that met: the row bot's points and games against the column bot.

    With roles, the bot plays the first role and its opponent the second (the cat's score against the mouse).
    """
    roles = {"role": standings.roles[0], "opponent_role": standings.roles[1]} if len(standings.roles) == 2 else {}
    return [
        {"bot": a, "opponent": b, **roles, "points": points, "games": games, "score": points / games}
        for (a, b), (points, games) in sorted(standings.head_to_head.items())
    ]


def _bot_order(standings: Standings, role: str | None = None) -> list[str]:
    seen: list[str] = []
    for row in standings.rows:
        if row.label not in seen and (role is None or row.role == role):
            seen.append(row.label)
    return seen


def _display_rows(standings: Standings, role: str | None = None) -> tuple[list[str], list[list[str]]]:
    has_roles = role is None and any(row.role is not None for row in standings.rows)
    headers = ["#", "bot", *(["role"] if has_roles else []), "mu-3σ", "mu ± σ", "games", "W-D-L", "score [95%]",
               "T/C/I/M"]
    rows = []
    shown = [row for row in standings.rows if role is None or row.role == role]
    for rank, row in enumerate(shown, start=1):
        rows.append([
            str(rank), row.label, *([row.role or ""] if has_roles else []),
            f"{row.rating.conservative:.1f}", f"{row.rating.mu:.1f} ± {row.rating.sigma:.1f}", str(row.games),
            f"{row.wins}-{row.draws}-{row.losses}", _score_with_interval(row), failure_summary(row),
        ])
    return headers, rows


def _score_with_interval(row: BotStanding) -> str:
    rate = score_rate(row.wins, row.draws, row.losses)
    return f"{100 * row.score:.0f}% [{100 * rate.lower:.0f}-{100 * rate.upper:.0f}]"


def _matrix(standings: Standings) -> tuple[list[str], list[list[str]]]:
    bots = columns = _bot_order(standings)
    if len(standings.roles) == 2:  # rows play the first role, columns the second
        bots, columns = _bot_order(standings, standings.roles[0]), _bot_order(standings, standings.roles[1])
    rows = []
    for a in bots:
        cells = [a]
        for b in columns:
            if a == b or (a, b) not in standings.head_to_head:
                cells.append("-" if a == b else "")
            else:
                points, games = standings.head_to_head[(a, b)]
                cells.append(f"{100 * points / games:.0f}% ({games})")
        rows.append(cells)
    return ["vs", *columns], rows


def _matrix_title(standings: Standings) -> str:
    if len(standings.roles) == 2:
        first, second = standings.roles
        return f"Head to head: row {first}'s score against column {second} (games)"
    return "Head to head: row bot's score against column bot (games)"


def _sections(standings: Standings) -> list[tuple[str, str | None]]:
    """The standings tables to show, each with its heading: one for all bots, or one per role."""
    if standings.roles:
        return [(f"Standings, {role}", role) for role in standings.roles]
    return [("Standings", None)]


def _title(standings: Standings) -> str:
    status = "" if standings.complete else f", stopped early: {standings.played} of {standings.scheduled} games"
    return f"{standings.game}: {standings.played} games{status}"


def render_console(standings: Standings, console: Console) -> None:
    """Print the standings and head-to-head tables with rich (with roles, a standings table per role).

    Bot names are never split across lines: on a narrow console the numbers wrap first, and a name that
    still does not fit is cut with an ellipsis."""
    for heading, role in _sections(standings):
        headers, rows = _display_rows(standings, role)
        names = [i for i, header in enumerate(headers) if header in ("bot", "role")]
        console.print(rich_table(f"{heading} — {_title(standings)}", headers, rows, names=names, box=box.SIMPLE_HEAD,
                                 right=[i for i in range(len(headers)) if i not in names]))
    headers, rows = _matrix(standings)
    console.print(rich_table(_matrix_title(standings), headers, rows, names=[0], named_columns=True,
                             right=range(1, len(headers)), box=box.SIMPLE_HEAD))
    console.print(
        "Score: 95% Wilson interval. T/C/I/M: timeouts / crashes / illegal moves / out of memory. "
        f"TrueSkill (tau 0, draw probability {standings.draw_probability:.3f} from the observed draws); "
        "ranked by the conservative rating mu - 3 sigma.",
        style="dim",
    )


def export(standings: Standings, fmt: str) -> str:
    """The standings and head-to-head tables as ``md``, ``csv`` or ``json`` text."""
    if fmt == "json":
        return json.dumps({
            "game": standings.game,
            "games_played": standings.played,
            "games_scheduled": standings.scheduled,
            "draw_probability": standings.draw_probability,
            "standings": standings_records(standings),
            "head_to_head": head_to_head_records(standings),
        }, indent=2)
    if fmt == "csv":
        out = io.StringIO()
        for records in (standings_records(standings), head_to_head_records(standings)):
            if records:
                writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
                writer.writeheader()
                writer.writerows(records)
            out.write("\n")
        return out.getvalue().rstrip("\n") + "\n"
    if fmt == "md":
        from tabulate import tabulate  # only Markdown needs it: a command that prints no Markdown never loads it

        parts = []
        for heading, role in _sections(standings):
            headers, rows = _display_rows(standings, role)
            parts.append(f"## {heading} ({_title(standings)})\n\n{tabulate(rows, headers, tablefmt='github')}")
        matrix_headers, matrix_rows = _matrix(standings)
        heading = "Head to head" + (f" ({standings.roles[0]} rows, {standings.roles[1]} columns)"
                                    if len(standings.roles) == 2 else "")
        matrix = tabulate(matrix_rows, matrix_headers, tablefmt="github")
        return "\n\n".join(parts) + f"\n\n## {heading}\n\n{matrix}\n"
    raise ValueError(f"unknown format {fmt!r}")
