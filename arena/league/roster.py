"""A class roster: many teams added at once from a CSV file, their tokens written to a CSV for a mail merge.

The roster has a ``name`` column (each team's name, as ``arena league add-team`` takes it); its other columns
(a student's full name, an e-mail address, ...) are kept with the team and written back beside each name and
token. Adding is all or nothing: any problem with the file or any row is one error and no team is added,
no tokens file written.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.league.context import LeagueContext
from arena.league.names import check_name
from arena.league.tokens import new_token, token_hash
from arena.report.row_export import csv_text
from arena.storage.store import now

NAME_COLUMN = "name"
MAX_ROSTER_BYTES = 16 * 1024 * 1024
"""A roster is a class list: a file larger than this is refused rather than read."""


@dataclass(frozen=True)
class RosterEntry:
    """One team of a roster: its name and the roster's other columns of its row."""

    name: str
    info: dict[str, str]


def read_roster(path: Path) -> list[RosterEntry]:
    """The teams of the roster CSV at ``path`` (UTF-8, with or without a byte-order mark; empty rows skipped),
    or an :class:`ArenaError` saying what is wrong and where."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_ROSTER_BYTES + 1)
    except OSError as exc:
        raise ArenaError(f"{path}: cannot read the roster ({exc.strerror or exc})") from None
    if len(raw) > MAX_ROSTER_BYTES:
        raise ArenaError(f"{path}: a roster of more than {MAX_ROSTER_BYTES // 2**20} MiB is not a class list")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ArenaError(f"{path}: not UTF-8 text (byte {exc.start}); save the roster as CSV UTF-8") from None
    if "\0" in text:
        raise ArenaError(f"{path}: not a CSV file (it holds NUL bytes); save the roster as CSV UTF-8")
    try:
        return _entries(path, csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as exc:
        raise ArenaError(f"{path}: not a valid CSV file ({exc})") from None


def _entries(path: Path, reader: Any) -> list[RosterEntry]:
    header = next(reader, None)
    if header is None:
        raise ArenaError(f"{path}: the roster is empty; its first line should name the columns, one of them "
                         f"{NAME_COLUMN!r}")
    headers = [h.strip() for h in header]
    folded = [h.casefold() for h in headers]
    if NAME_COLUMN not in folded:
        raise ArenaError(f"{path}: the roster has no {NAME_COLUMN!r} column (its columns: "
                         f"{', '.join(map(repr, headers))})")
    for i, h in enumerate(folded):
        if h and folded.index(h) != i:
            raise ArenaError(f"{path}: the roster has two columns named {headers[i]!r}")
    name_at = folded.index(NAME_COLUMN)
    entries: list[RosterEntry] = []
    seen: dict[str, int] = {}
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(headers) and any(cell.strip() for cell in row[len(headers):]):
            raise ArenaError(f"{path} line {line}: {len(row)} fields, more than the {len(headers)} columns named "
                             "in the first line")
        cells = [*row[:len(headers)], *[""] * (len(headers) - len(row))]
        name = cells[name_at].strip()
        if not name:
            raise ArenaError(f"{path} line {line}: the team's name is empty")
        check_name_at(path, line, name)
        if name in seen:
            raise ArenaError(f"{path} line {line}: team {name!r} is on line {seen[name]} already")
        seen[name] = line
        info = {}
        for i, (column, cell) in enumerate(zip(headers, cells, strict=True)):
            if i == name_at:
                continue
            if not column:
                if cell.strip():
                    raise ArenaError(f"{path} line {line}: a value in column {i + 1}, which has no name")
                continue
            info[column] = cell
        entries.append(RosterEntry(name, info))
    if not entries:
        raise ArenaError(f"{path}: the roster names no team")
    return entries


def check_name_at(path: Path, line: int, name: str) -> None:
    """:func:`check_name` for a team name on ``line`` of the roster at ``path``."""
    try:
        check_name(name, "team")
    except ArenaError as exc:
        raise ArenaError(f"{path} line {line}: {exc}") from None


def add_teams(ctx: LeagueContext, entries: Sequence[RosterEntry], tokens_path: Path, force: bool = False) -> int:
    """Add every team of ``entries`` and write their tokens to ``tokens_path`` (a new file, mode 0600; with
    ``force`` it may replace one): all of them, or none and an :class:`ArenaError`. Returns how many."""
    if tokens_path.exists() and not force:
        raise ArenaError(f"{tokens_path}: exists already; it may hold tokens shown only once (--force replaces it)")
    if tokens_path.is_dir():
        raise ArenaError(f"{tokens_path}: is a folder; name the file to write the tokens to")
    tokens = [new_token("team") for _ in entries]
    stamp = now()
    written = False
    try:
        with ctx.store.transaction():
            taken = _taken(ctx, [entry.name for entry in entries])
            if taken:
                more = f" (and {len(taken) - 5} more)" if len(taken) > 5 else ""
                raise ArenaError(f"the league has a team named {', '.join(map(repr, taken[:5]))}{more} already; "
                                 "no team was added")
            ctx.conn.executemany("INSERT INTO league_teams (name, token_hash, created_at) VALUES (?, ?, ?)",
                                 [(entry.name, token_hash(token), stamp)
                                  for entry, token in zip(entries, tokens, strict=True)])
            ctx.conn.executemany(
                "INSERT OR REPLACE INTO league_team_info (team_id, info) SELECT id, ? FROM league_teams WHERE name = ?",
                [(json.dumps(entry.info, ensure_ascii=False), entry.name) for entry in entries])
            # written inside the transaction: a file that cannot be written adds no team
            _write_tokens(tokens_path, entries, tokens, replace=force)
            written = True
    except BaseException:
        if written and not _taken(ctx, [entries[0].name]):  # no team added after all: no use for their tokens
            tokens_path.unlink(missing_ok=True)
        raise
    return len(entries)


def _taken(ctx: LeagueContext, names: list[str]) -> list[str]:
    existing = {row[0] for row in ctx.conn.execute("SELECT name FROM league_teams")}
    return [name for name in names if name in existing]


def _write_tokens(path: Path, entries: Sequence[RosterEntry], tokens: Sequence[str], *, replace: bool) -> None:
    """The tokens beside each team's name and roster columns, as a CSV only its owner may read."""
    extra = list(dict.fromkeys(column for entry in entries for column in entry.info))
    text = csv_text([NAME_COLUMN, "token", *extra],
                    [[entry.name, token, *(entry.info.get(c, "") for c in extra)]
                     for entry, token in zip(entries, tokens, strict=True)])
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_TRUNC if replace else os.O_EXCL), 0o600)
    except OSError as exc:
        raise ArenaError(f"{path}: cannot write the tokens ({exc.strerror or exc}); no team was added") from None
    try:
        os.fchmod(fd, 0o600)  # a file replaced with --force keeps no wider mode it had
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            fd = -1
            handle.write(text)
    except OSError as exc:
        if fd != -1:
            os.close(fd)
        path.unlink(missing_ok=True)
        raise ArenaError(f"{path}: cannot write the tokens ({exc.strerror or exc}); no team was added") from None


def team_info(ctx: LeagueContext) -> dict[str, dict[str, str]]:
    """The roster columns kept with each team that came from a roster, by team name."""
    return {name: json.loads(info) for name, info in ctx.conn.execute(
        "SELECT t.name, i.info FROM league_team_info i JOIN league_teams t ON t.id = i.team_id ORDER BY t.name")}
