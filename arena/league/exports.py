"""The league's tables to grade from: the standings and the final's table as columns and rows of plain values,
which :func:`arena.report.row_export.export_rows` writes as CSV, JSON or Markdown (the CLI's ``-f`` and the
API's ``?format=``).

A table is a list of :class:`Column` (a header and how a row gives its value); a new column is one more
entry in its list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from arena.league.context import LeagueContext
from arena.league.models import BoardRow, FinalRow

Row = TypeVar("Row")


@dataclass(frozen=True)
class Column(Generic[Row]):
    """One column of an exported table: its header and its value in a row."""

    header: str
    value: Callable[[Row], Any]


@dataclass(frozen=True)
class ExportTable:
    """A table ready to export: its headers and its rows of plain values (text, numbers)."""

    name: str
    """What a downloaded file of it is called, without its extension (``standings``, ``final``)."""
    headers: list[str]
    rows: list[list[Any]]


def tabulate_rows(name: str, columns: Sequence[Column[Row]], rows: Sequence[Row]) -> ExportTable:
    """The ``rows`` (any objects) as an :class:`ExportTable` of ``columns``."""
    return ExportTable(name, [c.header for c in columns], [[c.value(row) for c in columns] for row in rows])


def _number(value: float) -> float:
    """A rating rounded for a grade sheet (3 decimals, and never ``-0.0``)."""
    return round(value, 3) + 0.0


FAILURE_COLUMNS = (("crashes", "crash"), ("timeouts", "timeout"), ("illegal", "illegal"), ("memory", "memory"))
"""The standings' columns counting failures, and the failure kind each counts."""


def standings_columns(failures: dict[tuple[str, str, int], dict[str, int]]) -> list[Column[BoardRow]]:
    """The standings' columns; ``failures`` holds each ``(team, bot, number)``'s failures by kind in its ranked
    games."""
    columns: list[Column[BoardRow]] = [
        Column("rank", lambda r: r.rank), Column("team", lambda r: r.team), Column("bot", lambda r: r.bot),
        Column("version", lambda r: r.number), Column("rating", lambda r: _number(r.rating)),
        Column("mu", lambda r: _number(r.mu)), Column("sigma", lambda r: _number(r.sigma)),
        Column("games", lambda r: r.games), Column("wins", lambda r: r.wins), Column("draws", lambda r: r.draws),
        Column("losses", lambda r: r.losses)]
    def failed(kind: str) -> Callable[[BoardRow], int]:
        return lambda r: failures.get((r.team, r.bot, r.number), {}).get(kind, 0)

    return columns + [Column(header, failed(kind)) for header, kind in FAILURE_COLUMNS]


FINAL_COLUMNS: list[Column[FinalRow]] = [
    Column("rank", lambda r: r.rank), Column("team", lambda r: r.team), Column("bot", lambda r: r.bot),
    Column("version", lambda r: r.number), Column("seed", lambda r: r.seed), Column("points", lambda r: r.points),
    Column("games", lambda r: r.games), Column("wins", lambda r: r.wins), Column("draws", lambda r: r.draws),
    Column("losses", lambda r: r.losses), Column("mu", lambda r: _number(r.mu)),
    Column("sigma", lambda r: _number(r.sigma)),
    Column("rating", lambda r: _number(r.mu - 3 * r.sigma)), Column("tiebreak", lambda r: r.tiebreak)]
"""The final table's columns."""


def failure_counts(ctx: LeagueContext) -> dict[tuple[str, str, int], dict[str, int]]:
    """How often the version of each team's bot that plays failed in its ranked games, by failure kind
    (``crash``, ``timeout``, ...), keyed by ``(team, bot, version number)``."""
    rows = ctx.conn.execute(
        "SELECT t.name, v.bot, v.number, f.kind, f.count FROM league_active a "
        "JOIN league_versions v ON v.id = a.version_id JOIN league_teams t ON t.id = a.team_id "
        "JOIN league_failures f ON f.version_id = v.id ORDER BY v.id, f.kind")
    counts: dict[tuple[str, str, int], dict[str, int]] = {}
    for team, bot, number, kind, count in rows:
        counts.setdefault((team, bot, number), {})[kind] = count
    return counts


def standings_table(ctx: LeagueContext, board: Sequence[BoardRow]) -> ExportTable:
    """The leaderboard ``board`` with each bot's failures, as a table to export."""
    failures = failure_counts(ctx)
    return tabulate_rows("standings", standings_columns(failures), board)


def final_export(rows: Sequence[FinalRow]) -> ExportTable:
    """The final's table as a table to export."""
    return tabulate_rows("final", FINAL_COLUMNS, rows)
