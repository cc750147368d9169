"""Teams and their tokens: who a token belongs to, adding, renaming and removing teams, new and revoked tokens.

Tokens are stored hashed (:mod:`arena.league.tokens`); a new one is returned once, to be shown once.
"""

from __future__ import annotations

from arena.core.errors import ArenaError
from arena.league.context import DISABLED, READY, LeagueContext
from arena.league.game_queue import drop_waiting
from arena.league.models import Organiser, Team
from arena.league.names import check_name
from arena.league.tokens import matches, new_token, token_hash
from arena.storage.store import now


def authenticate(ctx: LeagueContext, token: str) -> Team | Organiser | None:
    """Who ``token`` belongs to: a team, the organiser, or nobody."""
    if matches(token, ctx.get("organiser_token")):
        return Organiser()
    row = ctx.conn.execute("SELECT id, name FROM league_teams WHERE token_hash = ?", (token_hash(token),)).fetchone()
    return Team(*row) if row else None


def teams(ctx: LeagueContext) -> list[Team]:
    """Every team, by name."""
    return [Team(*row) for row in ctx.conn.execute("SELECT id, name FROM league_teams ORDER BY name")]


def team(ctx: LeagueContext, name: str) -> Team:
    """The team called ``name``, or an error naming the teams there are."""
    row = ctx.conn.execute("SELECT id, name FROM league_teams WHERE name = ?", (name,)).fetchone()
    if row is None:
        known = ", ".join(t.name for t in teams(ctx)) or "none yet"
        raise ArenaError(f"no team {name!r} in this league (teams: {known})")
    return Team(*row)


def team_id(ctx: LeagueContext, which: Team | str) -> int:
    """The id of a team given as itself or by name."""
    return which.id if isinstance(which, Team) else team(ctx, which).id


def add_team(ctx: LeagueContext, name: str) -> str:
    """Add team ``name``; returns its token."""
    check_name(name, "team")
    token = new_token("team")
    with ctx.store.transaction():
        _check_free(ctx, name)
        ctx.conn.execute("INSERT INTO league_teams (name, token_hash, created_at) VALUES (?, ?, ?)",
                         (name, token_hash(token), now()))
    return token


def rename_team(ctx: LeagueContext, old: str, new: str) -> None:
    """Rename a team (its bots become ``new/bot``; stored games keep the name they were played under)."""
    found = team(ctx, old)
    check_name(new, "team")
    with ctx.store.transaction():
        _check_free(ctx, new)
        ctx.conn.execute("UPDATE league_teams SET name = ? WHERE id = ?", (new, found.id))


def _check_free(ctx: LeagueContext, name: str) -> None:
    if ctx.conn.execute("SELECT 1 FROM league_teams WHERE name = ?", (name,)).fetchone():
        raise ArenaError(f"team {name!r} exists already")


def remove_team(ctx: LeagueContext, name: str) -> None:
    """Remove a team: its token stops working, its bots stop playing and leave the leaderboard (its games stay
    stored)."""
    found = team(ctx, name)
    with ctx.store.transaction():
        ids = [row[0] for row in ctx.conn.execute("SELECT id FROM league_versions WHERE team_id = ?", (found.id,))]
        ctx.conn.execute("DELETE FROM league_active WHERE team_id = ?", (found.id,))
        ctx.conn.execute("UPDATE league_versions SET status = ? WHERE team_id = ? AND status = ?",
                         (DISABLED, found.id, READY))
        ctx.conn.execute("UPDATE league_teams SET token_hash = NULL, name = ? WHERE id = ?",
                         (f"removed-{found.id}-{found.name}"[:32], found.id))
        drop_waiting(ctx, ids)


def rotate_token(ctx: LeagueContext, name: str | None = None) -> str:
    """A new token for team ``name`` (``None``: the organiser); the old one stops working. Returns the new one."""
    token = new_token("team" if name else "org")
    if name is None:
        with ctx.store.transaction():
            ctx.put("organiser_token", token_hash(token))
        return token
    found = team(ctx, name)
    with ctx.store.transaction():
        ctx.conn.execute("UPDATE league_teams SET token_hash = ? WHERE id = ?", (token_hash(token), found.id))
    return token


def revoke_token(ctx: LeagueContext, name: str) -> None:
    """Stop team ``name``'s token working, with no new one (until :func:`rotate_token`)."""
    found = team(ctx, name)
    with ctx.store.transaction():
        ctx.conn.execute("UPDATE league_teams SET token_hash = NULL WHERE id = ?", (found.id,))
