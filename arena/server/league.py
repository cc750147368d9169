"""The league facade: everything the ``arena league`` commands and the web server do, over one league folder.

A league folder holds ``league.toml`` (:mod:`arena.server.settings`), ``maps/`` and ``arena.db``: the store
every ``arena`` command reads, with the league's own tables (:mod:`arena.server.schema`). The league is
one stored run that never ends (its ranked games); unrated challenge games and the final are runs of their
own. Every game has a place in the league's queue: its id, the index it is stored under in its run, and
what its seed derives from (with the league's seed), so every game can be replayed.

A :class:`League` holds one database connection: use it from one thread (open one per thread; opening
is cheap). Every change is committed at once, so any number of processes may open the same league.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path
from typing import Any

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.play.referee import MatchOutcome, MatchSetup
from arena.plugins.registry import PluginConfig, Registry, load_registry
from arena.plugins.stored import StoredBot
from arena.server import sandboxing, schema
from arena.server.matchmaking import Candidate, plan_matches
from arena.server.models import (
    BoardRow,
    BotInfo,
    FinalRow,
    GameInfo,
    Organiser,
    QueueEntry,
    Seat,
    Team,
    VersionInfo,
    WorkersInfo,
)
from arena.server.names import check_name
from arena.server.ratings import Player, RatingState, outcome_of
from arena.server.settings import DATABASE_FILE, MAPS_FOLDER, LeagueSettings, read_settings, write_settings
from arena.server.submissions import prepare_submission
from arena.server.tokens import matches, new_token, token_hash
from arena.stats.ratings import Rating, environment, rate, smoothed_draw_rate
from arena.storage.store import Store, now
from arena.tournament.schedules import game_seed, seat_assignments
from arena.tournament.selection import load_maps

RANKED, CHALLENGE, FINAL = "ranked", "challenge", "final"
READY, FAILED, DISABLED = "ready", "failed", "disabled"
PLAN_AHEAD = 8
"""Ranked matches the ladder queues at a time, once the ones before are played (few, so a new version
waits little; the same for any number of workers, so the games played do not depend on them)."""


@functools.cache
def _registry() -> Registry:
    """The games (a league's bots come from its database, never from a folder)."""
    return load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))


class League:
    """An open league (see the module's docstring)."""

    def __init__(self, folder: Path, settings: LeagueSettings, store: Store, game: type[Game],
                 maps: list[GameMap]):
        self.folder = folder
        self.settings = settings
        self.store = store
        self.game = game
        self.maps = maps
        self.conn = store.conn

    # --- opening ------------------------------------------------------------------------------------

    @classmethod
    def create(cls, folder: str | Path, game: str, maps: Sequence[str], seed: int | None = None) -> tuple[League, str]:
        """Make a new league in ``folder`` (new or empty) for ``game`` on ``maps`` (names or files, copied into
        the folder); returns it and the organiser's token, which is shown this once."""
        folder = Path(folder)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise ArenaError(f"{folder}: exists and is not an empty folder; a league needs a folder of its own")
        registry = _registry()
        registry.game(game)  # an unknown game is named as such, with the games there are
        found, loaded = load_maps(list(maps), registry, game)
        _check_players(found, loaded)
        names = _map_file_names(loaded)
        settings = LeagueSettings(found.name, tuple(names), seed if seed is not None else secrets.randbelow(2**31))
        created = not folder.exists()
        try:
            (folder / MAPS_FOLDER).mkdir(parents=True, exist_ok=True)
            for game_map, name in zip(loaded, names, strict=True):
                (folder / MAPS_FOLDER / name).write_text(_map_text(game_map))
            store = Store(folder / DATABASE_FILE)
            token = new_token("org")
            with store.transaction():
                schema.create_tables(store.conn)
                run_id = store.create_run(f"{found.name} league", found.name, "league", {"game": found.name},
                                          f"league-{found.name}", 0)
                _put(store, "ranked_run", run_id)
                _put(store, "organiser_token", token_hash(token))
                _put(store, "paused", False)
                _put(store, "rated_idx", 0)
                _put(store, "ties", 0)
                _put(store, "pairs", 0)
            write_settings(folder, settings)
        except BaseException:
            if created:
                shutil.rmtree(folder, ignore_errors=True)
            raise
        return cls(folder, settings, store, found, loaded), token

    @classmethod
    def open(cls, folder: str | Path) -> League:
        """Open the league in ``folder``; an :class:`ArenaError` if it is none."""
        folder = Path(folder)
        settings = read_settings(folder)
        if not (folder / DATABASE_FILE).is_file():
            raise ArenaError(f"{folder}: its database {DATABASE_FILE} is missing")
        store = Store(folder / DATABASE_FILE)
        if not schema.has_tables(store.conn):
            store.close()
            raise ArenaError(f"{folder / DATABASE_FILE}: holds no league")
        with store.transaction():
            schema.create_tables(store.conn)  # the tables a newer arena added, for a league made before it
        registry = _registry()
        game, maps = load_maps([str(folder / MAPS_FOLDER / name) for name in settings.maps], registry,
                               settings.game)
        return cls(folder, settings, store, game, maps)

    def close(self) -> None:
        """Close the database connection."""
        self.store.close()

    def __enter__(self) -> League:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- signing in ---------------------------------------------------------------------------------

    def authenticate(self, token: str) -> Team | Organiser | None:
        """Who ``token`` belongs to: a team, the organiser, or nobody."""
        if matches(token, _get(self.store, "organiser_token")):
            return Organiser()
        row = self.conn.execute("SELECT id, name FROM league_teams WHERE token_hash = ?",
                                (token_hash(token),)).fetchone()
        return Team(*row) if row else None

    # --- teams --------------------------------------------------------------------------------------

    def teams(self) -> list[Team]:
        """Every team, by name."""
        return [Team(*row) for row in self.conn.execute("SELECT id, name FROM league_teams ORDER BY name")]

    def team(self, name: str) -> Team:
        """The team called ``name``, or an error naming the teams there are."""
        row = self.conn.execute("SELECT id, name FROM league_teams WHERE name = ?", (name,)).fetchone()
        if row is None:
            known = ", ".join(t.name for t in self.teams()) or "none yet"
            raise ArenaError(f"no team {name!r} in this league (teams: {known})")
        return Team(*row)

    def add_team(self, name: str) -> str:
        """Add team ``name``; returns its token, which is shown this once."""
        check_name(name, "team")
        token = new_token("team")
        with self.store.transaction():
            if self.conn.execute("SELECT 1 FROM league_teams WHERE name = ?", (name,)).fetchone():
                raise ArenaError(f"team {name!r} exists already")
            self.conn.execute("INSERT INTO league_teams (name, token_hash, created_at) VALUES (?, ?, ?)",
                              (name, token_hash(token), now()))
        return token

    def rename_team(self, old: str, new: str) -> None:
        """Rename a team (its bots become ``new/bot``; stored games keep the name they were played under)."""
        team = self.team(old)
        check_name(new, "team")
        with self.store.transaction():
            if self.conn.execute("SELECT 1 FROM league_teams WHERE name = ?", (new,)).fetchone():
                raise ArenaError(f"team {new!r} exists already")
            self.conn.execute("UPDATE league_teams SET name = ? WHERE id = ?", (new, team.id))

    def remove_team(self, name: str) -> None:
        """Remove a team: its token stops working, its bots stop playing and leave the leaderboard (its
        games stay stored)."""
        team = self.team(name)
        with self.store.transaction():
            ids = [row[0] for row in self.conn.execute("SELECT id FROM league_versions WHERE team_id = ?", (team.id,))]
            self.conn.execute("DELETE FROM league_active WHERE team_id = ?", (team.id,))
            self.conn.execute("UPDATE league_versions SET status = ? WHERE team_id = ? AND status = ?",
                              (DISABLED, team.id, READY))
            self.conn.execute("UPDATE league_teams SET token_hash = NULL, name = ? WHERE id = ?",
                              (f"removed-{team.id}-{team.name}"[:32], team.id))
            self._drop_waiting(ids)

    def rotate_token(self, team: str | None = None) -> str:
        """A new token for ``team`` (``None``: the organiser); the old one stops working. Returns the new one."""
        token = new_token("team" if team else "org")
        if team is None:
            with self.store.transaction():
                _put(self.store, "organiser_token", token_hash(token))
            return token
        found = self.team(team)
        with self.store.transaction():
            self.conn.execute("UPDATE league_teams SET token_hash = ? WHERE id = ?", (token_hash(token), found.id))
        return token

    def revoke_token(self, team: str) -> None:
        """Stop ``team``'s token working, with no new one (until :meth:`rotate_token`)."""
        found = self.team(team)
        with self.store.transaction():
            self.conn.execute("UPDATE league_teams SET token_hash = NULL WHERE id = ?", (found.id,))

    # --- submissions --------------------------------------------------------------------------------

    def submit(self, team: Team, path: str | Path) -> VersionInfo:
        """Submit the bot at ``path`` (a ``.py`` module or a folder with ``arena-bot.toml``) as the next version
        of ``team``'s bot of that name, building it first. A version that builds becomes the bot's active
        version (unless the team chose one with :meth:`set_active`); one whose build fails or takes too
        long is kept with its log and never plays. The same source submitted again is the same version."""
        sandboxing.require()
        deadline = _get(self.store, "deadline")
        if _get(self.store, "frozen") or (deadline is not None and now() >= deadline):
            raise ArenaError("submissions are closed: the league's final has begun")
        submission = prepare_submission(Path(path), self.game.name, self.game.roles, self.settings.build_timeout,
                                        self.settings.upload_bytes, self.settings.upload_files,
                                        self.settings.build_bytes)
        with self.store.transaction():
            same = self.conn.execute("SELECT id FROM league_versions WHERE team_id = ? AND bot = ? AND version = ?",
                                     (team.id, submission.bot, submission.version)).fetchone()
            if same is not None:
                return self._version(same[0])
            number = self.conn.execute("SELECT coalesce(max(number), 0) + 1 FROM league_versions "
                                       "WHERE team_id = ? AND bot = ?", (team.id, submission.bot)).fetchone()[0]
            cursor = self.conn.execute(
                "INSERT INTO league_versions (team_id, bot, number, version, kind, defines, status, build_log, "
                "submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (team.id, submission.bot, number, submission.version, submission.kind, submission.bot,
                 READY if submission.built else FAILED, submission.log, now()))
            version_id = int(cursor.lastrowid or 0)
            self.conn.executemany("INSERT INTO league_files (version_id, path, mode, data) VALUES (?, ?, ?, ?)",
                                  [(version_id, name, mode, data) for name, mode, data in submission.files])
            chosen = self.conn.execute("SELECT chosen FROM league_active WHERE team_id = ? AND bot = ?",
                                       (team.id, submission.bot)).fetchone()
            if submission.built and not (chosen and chosen[0]):
                self._activate(team.id, submission.bot, version_id, chosen=False)
        return self._version(version_id)

    def versions(self, team: Team | str, bot: str | None = None) -> list[VersionInfo]:
        """A team's versions (of ``bot``, or of every bot), newest first."""
        team_id = team.id if isinstance(team, Team) else self.team(team).id
        where, params = ("AND bot = ?", (team_id, bot)) if bot else ("", (team_id,))
        ids = [row[0] for row in self.conn.execute(
            f"SELECT id FROM league_versions WHERE team_id = ? {where} ORDER BY bot, number DESC", params)]
        return [self._version(i) for i in ids]

    def set_active(self, team: Team, bot: str, number: int | None) -> VersionInfo:
        """Make version ``number`` of ``team``'s ``bot`` the one that plays; ``None`` goes back to the newest
        version that built (and follows each new one again)."""
        with self.store.transaction():
            if number is None:
                row = self.conn.execute("SELECT id FROM league_versions WHERE team_id = ? AND bot = ? AND status = ? "
                                        "ORDER BY number DESC LIMIT 1", (team.id, bot, READY)).fetchone()
                if row is None:
                    raise ArenaError(f"{team.name}/{bot} has no version that built")
                self._activate(team.id, bot, row[0], chosen=False)
                return self._version(row[0])
            row = self.conn.execute("SELECT id, status FROM league_versions WHERE team_id = ? AND bot = ? "
                                    "AND number = ?", (team.id, bot, number)).fetchone()
            if row is None:
                raise ArenaError(f"{team.name}/{bot} has no version {number}")
            if row[1] != READY:
                raise ArenaError(f"{team.name}/{bot} version {number} cannot play: it is {row[1]}")
            self._activate(team.id, bot, row[0], chosen=True)
        return self._version(row[0])

    def disable(self, team: str, bot: str, number: int) -> None:
        """The organiser disables a version: it never plays again, and its waiting games are dropped. The
        bot's newest other version that built plays instead, if there is one."""
        found = self.team(team)
        with self.store.transaction():
            row = self.conn.execute("SELECT id FROM league_versions WHERE team_id = ? AND bot = ? AND number = ?",
                                    (found.id, bot, number)).fetchone()
            if row is None:
                raise ArenaError(f"{team}/{bot} has no version {number}")
            self.conn.execute("UPDATE league_versions SET status = ? WHERE id = ?", (DISABLED, row[0]))
            active = self.conn.execute("SELECT version_id FROM league_active WHERE team_id = ? AND bot = ?",
                                       (found.id, bot)).fetchone()
            if active is not None and active[0] == row[0]:
                self.conn.execute("DELETE FROM league_active WHERE team_id = ? AND bot = ?", (found.id, bot))
                newest = self.conn.execute("SELECT id FROM league_versions WHERE team_id = ? AND bot = ? AND "
                                           "status = ? ORDER BY number DESC LIMIT 1", (found.id, bot, READY)).fetchone()
                if newest is not None:
                    self._activate(found.id, bot, newest[0], chosen=False)
            self._drop_waiting([row[0]])

    def _activate(self, team_id: int, bot: str, version_id: int, chosen: bool) -> None:
        """Make ``version_id`` the active version of the bot (inside a transaction); it joins matchmaking with
        the lowest pass of the active versions (see :mod:`arena.server.matchmaking`)."""
        previous = self.conn.execute("SELECT version_id FROM league_active WHERE team_id = ? AND bot = ?",
                                     (team_id, bot)).fetchone()
        self.conn.execute("INSERT OR REPLACE INTO league_active (team_id, bot, version_id, chosen) VALUES (?, ?, ?, ?)",
                          (team_id, bot, version_id, int(chosen)))
        if previous is not None and previous[0] == version_id:
            return
        lowest = self.conn.execute(
            "SELECT min(s.pass) FROM league_shares s JOIN league_active a ON a.version_id = s.version_id "
            "WHERE s.version_id != ?", (version_id,)).fetchone()[0]
        self.conn.execute("INSERT OR REPLACE INTO league_shares (version_id, pass, scheduled) VALUES (?, ?, 0)",
                          (version_id, lowest or 0.0))
        if previous is not None:
            self._drop_waiting([previous[0]], kinds=(RANKED,))

    def _drop_waiting(self, version_ids: Sequence[int], kinds: Sequence[str] = (RANKED, CHALLENGE, FINAL)) -> None:
        """Drop the unplayed games of these versions from the queue (inside a transaction)."""
        wanted = set(version_ids)
        for idx, kind, versions in self.conn.execute(
                "SELECT idx, kind, versions FROM league_queue q WHERE NOT EXISTS "
                "(SELECT 1 FROM games g WHERE g.run_id = q.run_id AND g.idx = q.idx)").fetchall():
            if kind in kinds and wanted & set(json.loads(versions)):
                self.conn.execute("DELETE FROM league_queue_players WHERE idx = ?", (idx,))
                self.conn.execute("DELETE FROM league_queue WHERE idx = ?", (idx,))

    def _version(self, version_id: int) -> VersionInfo:
        row = self.conn.execute(
            "SELECT v.id, t.name, v.bot, v.number, v.version, v.kind, v.status, v.build_log, v.submitted_at, "
            "a.version_id IS NOT NULL FROM league_versions v JOIN league_teams t ON t.id = v.team_id "
            "LEFT JOIN league_active a ON a.version_id = v.id WHERE v.id = ?", (version_id,)).fetchone()
        mu, sigma, games = self._rating(version_id)
        ident, team, bot, number, version, kind, status, log, submitted, active = row
        return VersionInfo(ident, team, bot, number, version, kind, status, log, submitted, bool(active), mu, sigma,
                           games)

    def _rating(self, version_id: int) -> tuple[float, float, int]:
        """A version's rating (its roles' averaged) and games; a version not rated yet shows the rating it
        will start from."""
        rows = self.conn.execute("SELECT mu, sigma, games FROM league_ratings WHERE version_id = ?",
                                 (version_id,)).fetchall()
        if rows:
            return (sum(r[0] for r in rows) / len(rows), sum(r[1] for r in rows) / len(rows), max(r[2] for r in rows))
        state = self._rating_state()
        starts = [state.start_of((version_id, role), self._predecessor) for role in self._roles()]
        return sum(s.mu for s in starts) / len(starts), sum(s.sigma for s in starts) / len(starts), 0

    def _roles(self) -> tuple[str | None, ...]:
        return self.game.roles or (None,)

    # --- play control -------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether ranked play is paused (challenges and the final still play)."""
        return bool(_get(self.store, "paused"))

    def pause(self) -> None:
        """Pause ranked play; its waiting games are dropped (the games in hand finish and count)."""
        with self.store.transaction():
            _put(self.store, "paused", True)
            waiting = self.waiting((RANKED,))
            self.conn.executemany("DELETE FROM league_queue_players WHERE idx = ?", [(idx,) for idx in waiting])
            self.conn.executemany("DELETE FROM league_queue WHERE idx = ?", [(idx,) for idx in waiting])

    def resume(self) -> None:
        """Resume ranked play."""
        with self.store.transaction():
            _put(self.store, "paused", False)

    def add_map(self, spec: str) -> str:
        """Add a map (a name or a file, copied into the league) to the rotation; returns its file name."""
        registry = _registry()
        _, loaded = load_maps([spec], registry, self.game.name)
        _check_players(self.game, [*self.maps, *loaded])
        name = _map_file_names(loaded, taken=self.settings.maps)[0]
        (self.folder / MAPS_FOLDER / name).write_text(_map_text(loaded[0]))
        self.settings = self.settings.with_maps((*self.settings.maps, name))
        write_settings(self.folder, self.settings)
        self.maps.append(loaded[0])
        return name

    # --- reading ------------------------------------------------------------------------------------

    def leaderboard(self) -> list[BoardRow]:
        """The active version of every team's bot, best first by ``mu - 3 sigma``."""
        rows = []
        for version_id, team, bot, number, version in self.conn.execute(
                "SELECT v.id, t.name, v.bot, v.number, v.version FROM league_active a "
                "JOIN league_versions v ON v.id = a.version_id JOIN league_teams t ON t.id = a.team_id"):
            mu, sigma, games = self._rating(version_id)
            wins, draws, losses, last = self.conn.execute(
                "SELECT coalesce(sum(wins), 0), coalesce(sum(draws), 0), coalesce(sum(losses), 0), max(last_idx) "
                "FROM league_ratings WHERE version_id = ?", (version_id,)).fetchone()
            rows.append((mu - 3 * sigma, team, bot, number, version, mu, sigma, games, wins, draws, losses, last))
        rows.sort(key=lambda r: (-r[0], r[1], r[2]))
        return [BoardRow(rank, *row[1:]) for rank, row in enumerate(rows, 1)]

    def bot(self, team: str, bot: str, games: int = 20) -> BotInfo:
        """A team's bot: its versions, newest first, and its ``games`` newest games."""
        found = self.team(team)
        versions = self.versions(found, bot)
        if not versions:
            raise ArenaError(f"team {team} has no bot {bot!r}")
        return BotInfo(team, bot, tuple(versions), tuple(self.games(f"{team}/{bot}", games)))

    def games(self, bot: str | None = None, limit: int = 50, kind: str | None = None) -> list[GameInfo]:
        """The newest finished games (of ``team/bot``, of one ``kind``), newest first."""
        if limit < 1:
            raise ArenaError("limit must be at least 1")
        clauses, params = [], []
        if kind is not None:
            clauses.append("q.kind = ?")
            params.append(kind)
        if bot is not None:
            team, _, name = bot.partition("/")
            ids = [str(v.id) for v in self.versions(team, name)] if name else []
            if not ids:
                raise ArenaError(f"no bot {bot!r} in this league (name it team/bot)")
            clauses.append(f"q.idx IN (SELECT idx FROM league_queue_players WHERE version_id IN ({','.join(ids)}))")
        where = ("AND " + " AND ".join(clauses)) if clauses else ""
        rows = self.conn.execute(
            "SELECT q.idx FROM league_queue q JOIN games g ON g.run_id = q.run_id AND g.idx = q.idx "
            f"WHERE 1 = 1 {where} ORDER BY g.id DESC LIMIT ?", [*params, limit]).fetchall()
        return [self.game_info(idx) for (idx,) in rows]

    def game_info(self, game_id: int) -> GameInfo:
        """A finished game of the league, or an :class:`ArenaError`."""
        queued = self.conn.execute("SELECT kind, run_id, versions, seed FROM league_queue WHERE idx = ?",
                                   (game_id,)).fetchone()
        stored = None if queued is None else self.conn.execute(
            "SELECT ranks, reason, failures, map, finished_at, seats FROM games WHERE run_id = ? AND idx = ?",
            (queued[1], game_id)).fetchone()
        if queued is None or stored is None:
            raise ArenaError(f"no finished game {game_id} in this league")
        kind, _, versions, seed = queued
        ranks, reason, failures, map_name, finished, seats = stored
        ranks, failures, seats = json.loads(ranks), json.loads(failures), json.loads(seats)
        players = []
        for seat, version_id in enumerate(json.loads(versions)):
            team, bot, number = self._names(version_id)
            players.append(Seat(team, bot, number, seats[seat].get("role"), ranks[seat], failures.get(str(seat))))
        return GameInfo(game_id, kind, tuple(players), reason, map_name, seed, finished)

    def rating_history(self, version_id: int, points: int | None = None) -> list[tuple[int, float, float]]:
        """A version's ``(game id, mu, sigma)`` after each of its rated games, oldest first (its first role's,
        in a game with roles); with ``points``, only that many of the newest."""
        limit = -1 if points is None else points
        rows = self.conn.execute(
            "SELECT idx, mu, sigma FROM league_history WHERE version_id = ? AND role = (SELECT min(role) FROM "
            "league_history WHERE version_id = ?) ORDER BY idx DESC LIMIT ?", (version_id, version_id, limit))
        return [(idx, mu, sigma) for idx, mu, sigma in reversed(rows.fetchall())]

    def head_to_head(self, team: str, bot: str, recent: int = 5000) -> list[tuple[str, int, int, int]]:
        """``team``'s ``bot`` (any version) against every bot it met in its ``recent`` newest ranked games:
        ``(team/bot, wins, draws, losses)``, by opponent, a win meaning a better rank in that game."""
        mine = {v.id for v in self.versions(team, bot)}
        if not mine:
            raise ArenaError(f"team {team} has no bot {bot!r}")
        marks = ",".join("?" * len(mine))
        rows = self.conn.execute(
            "SELECT q.versions, g.ranks FROM league_queue q JOIN games g ON g.run_id = q.run_id AND g.idx = q.idx "
            f"WHERE q.kind = ? AND EXISTS (SELECT 1 FROM json_each(q.versions) WHERE value IN ({marks})) "
            "ORDER BY q.idx DESC LIMIT ?", (RANKED, *mine, recent)).fetchall()
        names: dict[int, str] = {}
        tally: dict[str, list[int]] = {}
        for versions, ranks in rows:
            seats, places = json.loads(versions), json.loads(ranks)
            for seat, version_id in enumerate(seats):
                if version_id not in mine:
                    continue
                for other, other_id in enumerate(seats):
                    if other_id in mine:
                        continue
                    if other_id not in names:
                        other_team, other_bot, _ = self._names(other_id)
                        names[other_id] = f"{other_team}/{other_bot}"
                    counts = tally.setdefault(names[other_id], [0, 0, 0])
                    counts[0 if places[seat] < places[other] else 1 if places[seat] == places[other] else 2] += 1
        return [(label, counts[0], counts[1], counts[2]) for label, counts in sorted(tally.items())]

    def game_record(self, game_id: int) -> dict[str, Any]:
        """A finished game's record (``arena-record/1``), which the replay viewer shows."""
        self.game_info(game_id)
        run_id = self.conn.execute("SELECT run_id FROM league_queue WHERE idx = ?", (game_id,)).fetchone()[0]
        return self.store.game(run_id, game_id).record

    def _names(self, version_id: int) -> tuple[str, str, int]:
        row = self.conn.execute("SELECT t.name, v.bot, v.number FROM league_versions v JOIN league_teams t "
                                "ON t.id = v.team_id WHERE v.id = ?", (version_id,)).fetchone()
        return row[0], row[1], row[2]

    # --- challenges and the final -------------------------------------------------------------------

    def challenge(self, team: Team, bot: str, opponent: str, games: int) -> list[int]:
        """Queue ``games`` unrated games of ``team``'s ``bot`` against ``opponent`` (``team/bot``), seats
        alternating; returns their ids. Never rated; limited to :attr:`LeagueSettings.challenge_games` per
        request and :attr:`LeagueSettings.challenge_waiting` waiting per team."""
        if games < 1 or games > self.settings.challenge_games:
            raise ArenaError(f"a challenge is 1 to {self.settings.challenge_games} games")
        if self.players != 2:
            raise ArenaError("challenges are for two-player leagues")
        mine = self._active_id(team.id, bot, f"{team.name}/{bot}")
        other_team, _, other_bot = opponent.partition("/")
        theirs = self._active_id(self.team(other_team).id, other_bot, opponent)
        if mine == theirs:
            raise ArenaError("a bot cannot challenge itself")
        with self.store.transaction():
            waiting = self.conn.execute(
                "SELECT count(*) FROM league_queue q WHERE kind = ? AND team_id = ? AND NOT EXISTS "
                "(SELECT 1 FROM games g WHERE g.run_id = q.run_id AND g.idx = q.idx)",
                (CHALLENGE, team.id)).fetchone()[0]
            if waiting + games > self.settings.challenge_waiting:
                raise ArenaError(f"team {team.name} has {waiting} challenge games waiting; at most "
                                 f"{self.settings.challenge_waiting} may wait, try again when they are played")
            run_id = self._run(CHALLENGE)
            seatings = seat_assignments(self.game, [BotSpec(str(mine)), BotSpec(str(theirs))], None)
            ids = []
            for n in range(games):
                seating = [int(spec.name) for spec in seatings[n % len(seatings)]]
                ids.append(self._enqueue(CHALLENGE, run_id, seating, n, team.id))
        return ids

    def _active_id(self, team_id: int, bot: str, label: str) -> int:
        row = self.conn.execute("SELECT version_id FROM league_active WHERE team_id = ? AND bot = ?",
                                (team_id, bot)).fetchone()
        if row is None:
            raise ArenaError(f"{label} has no version that plays")
        return int(row[0])

    def start_final(self, deadline: str | None = None) -> int:
        """Close submissions and play the final: a round robin of the active versions (every group of
        players on every map, in every seat rotation), its own run and table. With ``deadline`` (ISO time,
        UTC), submissions close then and the ladder queues the final once it has passed; returns how many
        games were queued now."""
        if _get(self.store, "final_run") is not None:
            raise ArenaError("the final has been played or queued already")
        if deadline is not None:
            moment = _parse_time(deadline)
            if moment > now():
                with self.store.transaction():
                    _put(self.store, "deadline", moment)
                return 0
        with self.store.transaction():
            _put(self.store, "frozen", True)
            active = [row[0] for row in self.conn.execute("SELECT version_id FROM league_active ORDER BY version_id")]
            if len(active) < self.players:
                raise ArenaError(f"a final needs at least {self.players} bots that play; there are {len(active)}")
            run_id = self._run(FINAL)
            queued = 0
            for match, group in enumerate(combinations(active, self.players)):
                for map_number in range(len(self.maps)):
                    seatings = seat_assignments(self.game, [BotSpec(str(v)) for v in group], None)
                    for seating in seatings:
                        number = match * len(self.maps) + map_number  # the match's map is number % maps
                        self._enqueue(FINAL, run_id, [int(s.name) for s in seating], number)
                        queued += 1
        return queued

    def final_due(self) -> bool:
        """Whether a deadline has passed with the final not queued yet (the ladder then queues it)."""
        deadline = _get(self.store, "deadline")
        return deadline is not None and now() >= deadline and _get(self.store, "final_run") is None

    def final_table(self) -> list[FinalRow]:
        """The final's table: points, W-D-L and the final's own TrueSkill rating (its games alone), best
        first by points, then rating; an error if there is no final."""
        run_id = _get(self.store, "final_run")
        if run_id is None:
            raise ArenaError("this league has had no final (start one with `arena league final`)")
        games: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        for versions, ranks in self.conn.execute(
                "SELECT q.versions, g.ranks FROM league_queue q JOIN games g ON g.run_id = q.run_id AND "
                "g.idx = q.idx WHERE q.kind = ? ORDER BY q.idx", (FINAL,)):
            games.append((tuple(json.loads(versions)), tuple(json.loads(ranks))))
        ratings, _ = rate(games)
        counts: dict[int, list[float]] = {}
        for versions, ranks in games:
            for seat, version in enumerate(versions):
                tally = counts.setdefault(version, [0, 0, 0, 0.0])
                result = outcome_of(seat, ranks)
                tally[("win", "draw", "loss").index(result)] += 1
                tally[3] += {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
        rows = sorted(counts.items(), key=lambda kv: (-kv[1][3], -ratings[kv[0]].conservative, kv[0]))
        table = []
        for rank, (version, (wins, draws, losses, points)) in enumerate(rows, 1):
            team, bot, number = self._names(version)
            table.append(FinalRow(rank, team, bot, number, int(wins + draws + losses), int(wins), int(draws),
                                  int(losses), points, ratings[version].mu, ratings[version].sigma))
        return table

    # --- the organiser's views ----------------------------------------------------------------------

    def queue(self, limit: int = 100) -> list[QueueEntry]:
        """The games scheduled and not finished, in the order they are played."""
        rows = self.conn.execute(
            "SELECT q.idx, q.kind, q.versions, q.map, q.seed, t.name FROM league_queue q LEFT JOIN league_teams t "
            "ON t.id = q.team_id WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.run_id = q.run_id AND "
            "g.idx = q.idx) ORDER BY q.idx LIMIT ?", (limit,)).fetchall()
        entries = []
        for idx, kind, versions, map_name, seed, team in rows:
            players = tuple("{}/{}#{}".format(*self._names(v)) for v in json.loads(versions))
            entries.append(QueueEntry(idx, kind, players, map_name, seed, team))
        return entries

    def workers(self) -> WorkersInfo | None:
        """What the ladder last reported (``None`` if no ladder has run on this league)."""
        row = self.conn.execute("SELECT value FROM league_workers WHERE key = 'ladder'").fetchone()
        return WorkersInfo(**json.loads(row[0])) if row else None

    def report_workers(self, info: WorkersInfo) -> None:
        """The ladder's report of itself, for :meth:`workers`."""
        with self.store.transaction():
            self.conn.execute("INSERT OR REPLACE INTO league_workers VALUES ('ladder', ?)",
                              (json.dumps(info.__dict__),))

    def recompute(self) -> int:
        """Rate every stored ranked game again from scratch, in queue order, leaving out the games of
        disabled versions; returns how many games were rated."""
        with self.store.transaction():
            self.conn.execute("DELETE FROM league_ratings")
            self.conn.execute("DELETE FROM league_history")
            for key, value in (("rated_idx", 0), ("ties", 0), ("pairs", 0)):
                _put(self.store, key, value)
            return self._rate_ready()

    # --- what the ladder calls ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Players in each of the league's games."""
        return self.game.num_players(self.maps[0])

    def waiting(self, kinds: Sequence[str] = (RANKED, CHALLENGE, FINAL)) -> list[int]:
        """The ids of the queued games not finished yet, in queue order."""
        marks = ",".join("?" * len(kinds))
        return [row[0] for row in self.conn.execute(
            f"SELECT idx FROM league_queue q WHERE kind IN ({marks}) AND NOT EXISTS "
            "(SELECT 1 FROM games g WHERE g.run_id = q.run_id AND g.idx = q.idx) ORDER BY idx", tuple(kinds))]

    def schedule_ranked(self, matches: int) -> int:
        """Queue the next ``matches`` ranked matches by the matchmaking rule (unless ranked play is paused or
        too few bots play); returns how many games were queued."""
        if self.paused:
            return 0
        with self.store.transaction():
            candidates = self.candidates()
            games_per_match = len(seat_assignments(self.game, [BotSpec(str(i)) for i in range(self.players)], None))
            env = environment(smoothed_draw_rate(int(_get(self.store, "ties")), int(_get(self.store, "pairs"))))
            planned, after = plan_matches(candidates, self.players, games_per_match, matches, env)
            if not planned:
                return 0
            self.conn.executemany("UPDATE league_shares SET pass = ?, scheduled = ? WHERE version_id = ?",
                                  [(c.pass_, c.scheduled, c.key) for c in after])
            run_id = int(_get(self.store, "ranked_run"))
            queued = 0
            for match in planned:
                match_number = int(_get(self.store, "matches", 0))
                _put(self.store, "matches", match_number + 1)
                seatings = seat_assignments(self.game, [BotSpec(str(c.key)) for c in match], None)
                for seating in seatings:
                    self._enqueue(RANKED, run_id, [int(s.name) for s in seating], match_number)
                    queued += 1
        return queued

    def candidates(self) -> list[Candidate]:
        """The active versions as matchmaking sees them."""
        found = []
        for version_id, pass_, scheduled in self.conn.execute(
                "SELECT a.version_id, s.pass, s.scheduled FROM league_active a JOIN league_shares s "
                "ON s.version_id = a.version_id JOIN league_versions v ON v.id = a.version_id "
                "WHERE v.status = ? ORDER BY a.version_id", (READY,)):
            mu, sigma, _ = self._rating(version_id)
            found.append(Candidate(version_id, mu, sigma, pass_, scheduled))
        return found

    def _enqueue(self, kind: str, run_id: int, versions: list[int], match: int, team_id: int | None = None) -> int:
        """Append one game to the queue (inside a transaction): its map rotates with the match, its seed is the
        league's seed and the match's first place in the queue."""
        idx = int(_get(self.store, "next_idx", 0))
        _put(self.store, "next_idx", idx + 1)
        first = self.conn.execute("SELECT min(idx) FROM league_queue WHERE kind = ? AND match = ? AND run_id = ?",
                                  (kind, match, run_id)).fetchone()[0]
        seed = game_seed(self.settings.seed, idx if first is None else first)
        map_name = self.settings.maps[match % len(self.settings.maps)]
        self.conn.execute("INSERT INTO league_queue (idx, kind, run_id, match, versions, map, seed, team_id, "
                          "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          (idx, kind, run_id, match, json.dumps(versions), map_name, seed, team_id, now()))
        self.conn.executemany("INSERT OR IGNORE INTO league_queue_players (version_id, idx) VALUES (?, ?)",
                              [(version_id, idx) for version_id in versions])
        self.conn.execute("UPDATE runs SET scheduled = max(scheduled, ?) WHERE id = ?", (idx + 1, run_id))
        return idx

    def _run(self, kind: str) -> int:
        """The stored run of ``kind`` games, made the first time (inside a transaction)."""
        key = f"{kind}_run"
        run_id = _get(self.store, key)
        if run_id is None:
            name = f"{self.game.name} league {'challenges' if kind == CHALLENGE else 'final'}"
            run_id = self.store.create_run(name, self.game.name, f"league-{kind}", {"game": self.game.name},
                                           f"league-{kind}-{self.game.name}", 0)
            _put(self.store, key, run_id)
        return int(run_id)

    def setups(self, ids: Sequence[int]) -> list[MatchSetup]:
        """The games to play for queue entries ``ids``."""
        by_name = {name: game_map for name, game_map in zip(self.settings.maps, self.maps, strict=True)}
        setups = []
        for idx in ids:
            versions, map_name, seed = self.conn.execute("SELECT versions, map, seed FROM league_queue WHERE idx = ?",
                                                         (idx,)).fetchone()
            game_map = by_name[map_name]
            specs = tuple(self._spec(v) for v in json.loads(versions))
            setups.append(MatchSetup(self.game.name, specs, game_map, dict(game_map.header), seed,
                                     self.settings.time_limit, idx))
        return setups

    def _spec(self, version_id: int) -> BotSpec:
        team, bot, _ = self._names(version_id)
        version = self.conn.execute("SELECT version FROM league_versions WHERE id = ?", (version_id,)).fetchone()[0]
        return BotSpec(f"{team}/{bot}@{version}", alias=f"{team}/{bot}")

    def play_bots(self, ids: Sequence[int], active: bool = False) -> tuple[StoredBot, ...]:
        """The versions the games ``ids`` play (and, with ``active``, every active version), as the workers
        register them (``team/bot@version``)."""
        wanted: set[int] = set()
        for idx in ids:
            wanted.update(json.loads(self.conn.execute("SELECT versions FROM league_queue WHERE idx = ?",
                                                       (idx,)).fetchone()[0]))
        if active:
            wanted.update(row[0] for row in self.conn.execute("SELECT version_id FROM league_active"))
        bots = []
        for version_id in sorted(wanted):
            team, bot, _ = self._names(version_id)
            version, kind, defines = self.conn.execute(
                "SELECT version, kind, defines FROM league_versions WHERE id = ?", (version_id,)).fetchone()
            files = tuple((p, m, bytes(d)) for p, m, d in self.conn.execute(
                "SELECT path, mode, data FROM league_files WHERE version_id = ? ORDER BY path", (version_id,)))
            bots.append(StoredBot(f"{team}/{bot}", version, kind, files, defines=defines))
        return tuple(bots)

    def record_outcome(self, setup: MatchSetup, outcome: MatchOutcome) -> bool:
        """Store a finished game the moment it ends, and rate every ranked game that is now next in queue
        order, all in one transaction; ``False`` (nothing stored) if the game is stored already or was
        dropped from the queue meanwhile."""
        with self.store.transaction():
            queued = self.conn.execute("SELECT kind, run_id, versions FROM league_queue WHERE idx = ?",
                                       (outcome.index,)).fetchone()
            if queued is None:
                return False
            kind, run_id, versions = queued
            if self.conn.execute("SELECT 1 FROM games WHERE run_id = ? AND idx = ?",
                                 (run_id, outcome.index)).fetchone():
                return False
            seats = []
            for seat, version_id in enumerate(json.loads(versions)):
                seats.append({"label": setup.bots[seat].label, "bot_id": self._store_bot(version_id),
                              "role": self.game.roles[seat] if self.game.roles else None})
            self.store.add_game(run_id, outcome.index, seats, outcome.ranks, outcome.reason, outcome.failure_kinds,
                                outcome.think_time, outcome.duration, outcome.turns, outcome.record(setup))
            if kind == RANKED:
                self._rate_ready()
        return True

    def _store_bot(self, version_id: int) -> int:
        row = self.conn.execute("SELECT store_bot_id, version FROM league_versions WHERE id = ?",
                                (version_id,)).fetchone()
        if row[0] is not None:
            return int(row[0])
        team, bot, number = self._names(version_id)
        bot_id = self.store.bot_id(f"{team}/{bot}", f"{team}/{bot}", row[1], f"league: {team}/{bot} version {number}")
        self.conn.execute("UPDATE league_versions SET store_bot_id = ? WHERE id = ?", (bot_id, version_id))
        return bot_id

    def _rate_ready(self) -> int:
        """Rate the stored ranked games next in queue order (inside a transaction); how many were rated."""
        start = int(_get(self.store, "rated_idx"))
        state = self._rating_state()
        disabled = {row[0] for row in self.conn.execute("SELECT id FROM league_versions WHERE status = ?", (DISABLED,))}
        rated = 0
        next_idx = start
        touched: dict[Player, list[int]] = {}
        for idx, run_id, versions in self.conn.execute(
                "SELECT idx, run_id, versions FROM league_queue WHERE kind = ? AND idx >= ? ORDER BY idx",
                (RANKED, start)).fetchall():
            stored = self.conn.execute("SELECT ranks, seats FROM games WHERE run_id = ? AND idx = ?",
                                       (run_id, idx)).fetchone()
            if stored is None:
                break
            next_idx = idx + 1
            version_ids = json.loads(versions)
            if disabled & set(version_ids):
                continue
            ranks = json.loads(stored[0])
            roles = [seat.get("role") for seat in json.loads(stored[1])]
            players: list[Player] = [(v, role) for v, role in zip(version_ids, roles, strict=True)]
            state.add_game(players, ranks, self._predecessor)
            self.conn.executemany(
                "INSERT OR REPLACE INTO league_history (version_id, role, idx, mu, sigma) VALUES (?, ?, ?, ?, ?)",
                [(v, role or "", idx, state.ratings[(v, role)].mu, state.ratings[(v, role)].sigma)
                 for v, role in players])
            for seat, player in enumerate(players):
                tally = touched.setdefault(player, self._tally(player))
                tally[("win", "draw", "loss").index(outcome_of(seat, ranks))] += 1
                tally[3] = idx
            rated += 1
        for player, (wins, draws, losses, last) in touched.items():
            rating = state.ratings[player]
            self.conn.execute(
                "INSERT OR REPLACE INTO league_ratings (version_id, role, mu, sigma, games, wins, draws, losses, "
                "last_idx) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (player[0], player[1] or "", rating.mu, rating.sigma, state.games[player], wins, draws, losses, last))
        _put(self.store, "rated_idx", next_idx)
        _put(self.store, "ties", state.ties)
        _put(self.store, "pairs", state.pairs)
        return rated

    def _tally(self, player: Player) -> list[int]:
        row = self.conn.execute("SELECT wins, draws, losses, last_idx FROM league_ratings WHERE version_id = ? "
                                "AND role = ?", (player[0], player[1] or "")).fetchone()
        return list(row) if row else [0, 0, 0, -1]

    def _rating_state(self) -> RatingState:
        state = RatingState(ties=int(_get(self.store, "ties")), pairs=int(_get(self.store, "pairs")))
        for version_id, role, mu, sigma, games in self.conn.execute(
                "SELECT version_id, role, mu, sigma, games FROM league_ratings"):
            state.ratings[(version_id, role or None)] = Rating(mu, sigma)
            state.games[(version_id, role or None)] = games
        return state

    def _predecessor(self, version_id: int) -> int | None:
        """The same team's previous version of the same bot, if any."""
        row = self.conn.execute(
            "SELECT p.id FROM league_versions v JOIN league_versions p ON p.team_id = v.team_id AND p.bot = v.bot "
            "AND p.number < v.number WHERE v.id = ? ORDER BY p.number DESC LIMIT 1", (version_id,)).fetchone()
        return int(row[0]) if row else None

    def play_config_for(self, ids: Sequence[int]) -> PluginConfig:
        """The plugin configuration the workers play games ``ids`` with (see :mod:`arena.server.sandboxing`)."""
        return sandboxing.play_config(self.play_bots(ids), self.settings.build_timeout)


# --- the league_state table -------------------------------------------------------------------------


def _get(store: Store, key: str, default: Any = None) -> Any:
    row = store.conn.execute("SELECT value FROM league_state WHERE key = ?", (key,)).fetchone()
    return json.loads(row[0]) if row else default


def _put(store: Store, key: str, value: Any) -> None:
    store.conn.execute("INSERT OR REPLACE INTO league_state VALUES (?, ?)", (key, json.dumps(value)))


# --- maps -------------------------------------------------------------------------------------------


def _check_players(game: type[Game], maps: Sequence[GameMap]) -> None:
    counts = {game.num_players(m) for m in maps}
    if len(counts) > 1:
        raise ArenaError(f"a league's maps must all seat the same number of players; these seat "
                         f"{', '.join(str(c) for c in sorted(counts))}")


def _map_file_names(maps: Sequence[GameMap], taken: Sequence[str] = ()) -> list[str]:
    names: list[str] = []
    for game_map in maps:
        base = Path(game_map.path).name if game_map.path else f"{game_map.name}.txt"
        stem, suffix = Path(base).stem, Path(base).suffix or ".txt"
        name, n = base, 2
        while name in names or name in taken:
            name, n = f"{stem}-{n}{suffix}", n + 1
        names.append(name)
    return names


def _map_text(game_map: GameMap) -> str:
    if game_map.path and os.path.isfile(game_map.path):
        return Path(game_map.path).read_text()
    return game_map.text


def _parse_time(text: str) -> str:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ArenaError(f"deadline {text!r}: expected an ISO time such as 2026-12-18T17:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


__all__ = ["CHALLENGE", "FINAL", "RANKED", "League"]
