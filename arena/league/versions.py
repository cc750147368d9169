"""A team's bots and their versions: submitting one, listing them, choosing the one that plays, disabling one.

Each bot of a team has one active version (``league_active``), the one that plays: the newest that built,
unless the team chose one. A version joins matchmaking when it becomes active (:func:`activate`).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from arena.core.errors import ArenaError
from arena.league import sandboxing
from arena.league.context import DISABLED, FAILED, RANKED, READY, LeagueContext
from arena.league.game_queue import drop_waiting
from arena.league.models import Team, VersionInfo
from arena.league.rating_updates import rating
from arena.league.submissions import prepare_submission
from arena.league.teams import team, team_id
from arena.storage.store import now


def submit(ctx: LeagueContext, who: Team, path: str | Path) -> VersionInfo:
    """Submit the bot at ``path`` as the next version of ``who``'s bot of that name, building it first (see
    :meth:`arena.league.facade.League.submit`)."""
    sandboxing.require()
    deadline = ctx.get("deadline")
    if ctx.get("frozen") or (deadline is not None and now() >= deadline):
        raise ArenaError("submissions are closed: the league's final has begun")
    settings = ctx.settings
    submission = prepare_submission(Path(path), ctx.game.name, ctx.game.roles, settings.build_timeout,
                                    settings.upload_bytes, settings.upload_files, settings.build_bytes)
    with ctx.store.transaction():
        same = ctx.conn.execute("SELECT id FROM league_versions WHERE team_id = ? AND bot = ? AND version = ?",
                                (who.id, submission.bot, submission.version)).fetchone()
        if same is not None:
            return version_info(ctx, same[0])
        number = ctx.conn.execute("SELECT coalesce(max(number), 0) + 1 FROM league_versions "
                                  "WHERE team_id = ? AND bot = ?", (who.id, submission.bot)).fetchone()[0]
        cursor = ctx.conn.execute(
            "INSERT INTO league_versions (team_id, bot, number, version, kind, defines, status, build_log, "
            "submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (who.id, submission.bot, number, submission.version, submission.kind, submission.bot,
             READY if submission.built else FAILED, submission.log, now()))
        version_id = int(cursor.lastrowid or 0)
        if submission.log:
            named = named_paths(submission.log, Path(path), f"{who.name}/{submission.bot} v{number}")
            ctx.conn.execute("UPDATE league_versions SET build_log = ? WHERE id = ?", (named, version_id))
        ctx.conn.executemany("INSERT INTO league_files (version_id, path, mode, data) VALUES (?, ?, ?, ?)",
                             [(version_id, name, mode, data) for name, mode, data in submission.files])
        chosen = ctx.conn.execute("SELECT chosen FROM league_active WHERE team_id = ? AND bot = ?",
                                  (who.id, submission.bot)).fetchone()
        if submission.built and not (chosen and chosen[0]):
            activate(ctx, who.id, submission.bot, version_id, chosen=False)
    return version_info(ctx, version_id)


SCRATCH = re.compile(re.escape(tempfile.gettempdir().rstrip("/")) + r"/arena-[a-z]+-[A-Za-z0-9_]+/")
"""A scratch folder a submission passes through (the upload's, the build's, the check's): never worth showing."""


def named_paths(log: str, path: Path, label: str) -> str:
    """``log`` with the submission's own paths shown as ``label`` and the file's name (``alice/hugger v2
    broken.py:4``), never the temporary folder it was uploaded to or built in."""
    base = path.parent if path.is_file() else path
    for folder in {str(base), str(base.resolve())}:
        log = log.replace(folder.rstrip("/") + "/", f"{label} ")
    return SCRATCH.sub(f"{label} ", log)


def versions(ctx: LeagueContext, which: Team | str, bot: str | None = None) -> list[VersionInfo]:
    """A team's versions (of ``bot``, or of every bot), newest first."""
    ident = team_id(ctx, which)
    where, params = ("AND bot = ?", (ident, bot)) if bot else ("", (ident,))
    ids = [row[0] for row in ctx.conn.execute(
        f"SELECT id FROM league_versions WHERE team_id = ? {where} ORDER BY bot, number DESC", params)]
    return [version_info(ctx, i) for i in ids]


def _newest_ready(ctx: LeagueContext, ident: int, bot: str) -> int | None:
    row = ctx.conn.execute("SELECT id FROM league_versions WHERE team_id = ? AND bot = ? AND status = ? "
                           "ORDER BY number DESC LIMIT 1", (ident, bot, READY)).fetchone()
    return None if row is None else int(row[0])


def set_active(ctx: LeagueContext, who: Team, bot: str, number: int | None) -> VersionInfo:
    """Make version ``number`` of ``who``'s ``bot`` the one that plays; ``None`` goes back to the newest version
    that built (and follows each new one again)."""
    with ctx.store.transaction():
        if number is None:
            newest = _newest_ready(ctx, who.id, bot)
            if newest is None:
                raise ArenaError(f"{who.name}/{bot} has no version that built")
            activate(ctx, who.id, bot, newest, chosen=False)
            return version_info(ctx, newest)
        row = ctx.conn.execute("SELECT id, status FROM league_versions WHERE team_id = ? AND bot = ? "
                               "AND number = ?", (who.id, bot, number)).fetchone()
        if row is None:
            raise ArenaError(f"{who.name}/{bot} has no version {number}")
        if row[1] != READY:
            raise ArenaError(f"{who.name}/{bot} version {number} cannot play: it is {row[1]}")
        activate(ctx, who.id, bot, row[0], chosen=True)
    return version_info(ctx, row[0])


def disable(ctx: LeagueContext, team_name: str, bot: str, number: int) -> None:
    """The organiser disables a version: it never plays again, and its waiting games are dropped. The bot's
    newest other version that built plays instead, if there is one."""
    found = team(ctx, team_name)
    with ctx.store.transaction():
        row = ctx.conn.execute("SELECT id FROM league_versions WHERE team_id = ? AND bot = ? AND number = ?",
                               (found.id, bot, number)).fetchone()
        if row is None:
            raise ArenaError(f"{team_name}/{bot} has no version {number}")
        ctx.conn.execute("UPDATE league_versions SET status = ? WHERE id = ?", (DISABLED, row[0]))
        active = ctx.conn.execute("SELECT version_id FROM league_active WHERE team_id = ? AND bot = ?",
                                  (found.id, bot)).fetchone()
        if active is not None and active[0] == row[0]:
            ctx.conn.execute("DELETE FROM league_active WHERE team_id = ? AND bot = ?", (found.id, bot))
            newest = _newest_ready(ctx, found.id, bot)
            if newest is not None:
                activate(ctx, found.id, bot, newest, chosen=False)
        drop_waiting(ctx, [row[0]])


def activate(ctx: LeagueContext, ident: int, bot: str, version_id: int, chosen: bool) -> None:
    """Make ``version_id`` the active version of team ``ident``'s ``bot`` (inside a transaction); it joins
    matchmaking with the lowest pass of the active versions (see :mod:`arena.stats.ladder_rule`)."""
    previous = ctx.conn.execute("SELECT version_id FROM league_active WHERE team_id = ? AND bot = ?",
                                (ident, bot)).fetchone()
    ctx.conn.execute("INSERT OR REPLACE INTO league_active (team_id, bot, version_id, chosen) VALUES (?, ?, ?, ?)",
                     (ident, bot, version_id, int(chosen)))
    if previous is not None and previous[0] == version_id:
        return
    lowest = ctx.conn.execute(
        "SELECT min(s.pass) FROM league_shares s JOIN league_active a ON a.version_id = s.version_id "
        "WHERE s.version_id != ?", (version_id,)).fetchone()[0]
    ctx.conn.execute("INSERT OR REPLACE INTO league_shares (version_id, pass, scheduled) VALUES (?, ?, 0)",
                     (version_id, lowest or 0.0))
    if previous is not None:
        drop_waiting(ctx, [previous[0]], kinds=(RANKED,))


def active_id(ctx: LeagueContext, ident: int, bot: str, label: str) -> int:
    """The id of the version of team ``ident``'s ``bot`` that plays, or an error naming ``label``."""
    row = ctx.conn.execute("SELECT version_id FROM league_active WHERE team_id = ? AND bot = ?",
                           (ident, bot)).fetchone()
    if row is None:
        raise ArenaError(f"{label} has no version that plays")
    return int(row[0])


def version_info(ctx: LeagueContext, version_id: int) -> VersionInfo:
    """A version as the commands and pages show it."""
    row = ctx.conn.execute(
        "SELECT v.id, t.name, v.bot, v.number, v.version, v.kind, v.status, v.build_log, v.submitted_at, "
        "a.version_id IS NOT NULL FROM league_versions v JOIN league_teams t ON t.id = v.team_id "
        "LEFT JOIN league_active a ON a.version_id = v.id WHERE v.id = ?", (version_id,)).fetchone()
    mu, sigma, games = rating(ctx, version_id)
    ident, team_name, bot, number, version, kind, status, log, submitted, active = row
    return VersionInfo(ident, team_name, bot, number, version, kind, status, log, submitted, bool(active), mu, sigma,
                       games)
