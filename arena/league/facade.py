"""The league facade: everything the ``arena league`` commands and the web server do, over one league folder.

A league folder holds ``league.toml`` (:mod:`arena.league.settings`), ``maps/`` and ``arena.db``: the store
every ``arena`` command reads, with the league's own tables (:mod:`arena.league.league_schema`). The league
is one stored run that never ends (its ranked games); unrated challenge games and the final are runs of
their own. Every game has a place in the league's queue (:mod:`arena.league.game_queue`), so every game can
be replayed.

:class:`League` only opens a league and hands each call to the module of its part: teams and tokens
(:mod:`~arena.league.teams`), versions (:mod:`~arena.league.versions`), the queue and what goes in it
(:mod:`~arena.league.game_queue`, :mod:`~arena.league.scheduling`), ratings
(:mod:`~arena.league.rating_updates`), the final (:mod:`~arena.league.final`), read views
(:mod:`~arena.league.read_views`) and maps (:mod:`~arena.league.league_maps`).

A :class:`League` holds one database connection: use it from one thread (open one per thread; opening is
cheap). Every change is committed at once, so any number of processes may open the same league.
"""

from __future__ import annotations

import secrets
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.maps import GameMap
from arena.league import (
    exports,
    final,
    game_queue,
    league_maps,
    league_schema,
    rating_updates,
    read_views,
    roster,
    scheduling,
)
from arena.league import teams as team_ops
from arena.league import versions as version_ops
from arena.league.context import CHALLENGE, FINAL, KINDS, RANKED, LeagueContext, put_state, registry
from arena.league.models import (
    BoardRow,
    BotInfo,
    FinalRow,
    GameInfo,
    Organiser,
    QueueEntry,
    Team,
    VersionInfo,
    WorkersInfo,
)
from arena.league.settings import DATABASE_FILE, MAPS_FOLDER, LeagueSettings, read_settings, write_settings
from arena.league.tokens import new_token, token_hash
from arena.play.referee import MatchOutcome, MatchSetup
from arena.plugins.registry import PluginConfig
from arena.plugins.stored import StoredBot
from arena.stats.ladder_rule import Candidate
from arena.storage.store import Store
from arena.tournament.selection import load_maps

PLAN_AHEAD = 8
"""Ranked matches the ladder queues at a time, once the ones before are played (few, so a new version
waits little; the same for any number of workers, so the games played do not depend on them)."""


class League:
    """An open league (see the module's docstring)."""

    def __init__(self, folder: Path, settings: LeagueSettings, store: Store, game: type[Game],
                 maps: list[GameMap]):
        self.ctx = LeagueContext(folder, settings, store, game, maps)

    @property
    def folder(self) -> Path:
        """The league's folder."""
        return self.ctx.folder

    @property
    def settings(self) -> LeagueSettings:
        """The league's settings (``league.toml``)."""
        return self.ctx.settings

    @property
    def store(self) -> Store:
        """The league's store."""
        return self.ctx.store

    @property
    def conn(self) -> sqlite3.Connection:
        """The store's database connection."""
        return self.ctx.conn

    @property
    def game(self) -> type[Game]:
        """The game the league plays."""
        return self.ctx.game

    @property
    def maps(self) -> list[GameMap]:
        """The maps in rotation, in the order of :attr:`LeagueSettings.maps`."""
        return self.ctx.maps

    # --- opening ------------------------------------------------------------------------------------

    @classmethod
    def create(cls, folder: str | Path, game: str, maps: Sequence[str], seed: int | None = None) -> tuple[League, str]:
        """Make a new league in ``folder`` (new or empty) for ``game`` on ``maps`` (names or files, copied into
        the folder); returns it and the organiser's token, which is shown this once."""
        folder = Path(folder)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise ArenaError(f"{folder}: exists and is not an empty folder; a league needs a folder of its own")
        games = registry()
        games.game(game)  # an unknown game is named as such, with the games there are
        found, loaded = load_maps(list(maps), games, game)
        league_maps.check_players(found, loaded)
        names = league_maps.map_file_names(loaded)
        settings = LeagueSettings(found.name, tuple(names), seed if seed is not None else secrets.randbelow(2**31))
        created = not folder.exists()
        try:
            (folder / MAPS_FOLDER).mkdir(parents=True, exist_ok=True)
            for game_map, name in zip(loaded, names, strict=True):
                (folder / MAPS_FOLDER / name).write_text(league_maps.map_text(game_map))
            store = Store(folder / DATABASE_FILE)
            token = new_token("org")
            with store.transaction():
                league_schema.create_tables(store.conn)
                run_id = store.create_run(f"{found.name} league", found.name, "league", {"game": found.name},
                                          f"league-{found.name}", 0)
                for key, value in (("ranked_run", run_id), ("organiser_token", token_hash(token)),
                                   ("paused", False), ("rated_idx", 0), ("ties", 0), ("pairs", 0)):
                    put_state(store, key, value)
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
        if not league_schema.has_tables(store.conn):
            store.close()
            raise ArenaError(f"{folder / DATABASE_FILE}: holds no league")
        if league_schema.needs_upgrade(store.conn):
            with store.transaction():
                league_schema.upgrade(store.conn)  # the tables a newer arena added, for a league made before it
        game, maps = load_maps([str(folder / MAPS_FOLDER / name) for name in settings.maps], registry(),
                               settings.game)
        return cls(folder, settings, store, game, maps)

    def close(self) -> None:
        """Close the database connection."""
        self.store.close()

    def __enter__(self) -> League:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- teams and tokens (arena.league.teams) ------------------------------------------------------

    def authenticate(self, token: str) -> Team | Organiser | None:
        """Who ``token`` belongs to: a team, the organiser, or nobody."""
        return team_ops.authenticate(self.ctx, token)

    def teams(self) -> list[Team]:
        """Every team, by name."""
        return team_ops.teams(self.ctx)

    def team(self, name: str) -> Team:
        """The team called ``name``, or an error naming the teams there are."""
        return team_ops.team(self.ctx, name)

    def add_team(self, name: str) -> str:
        """Add team ``name``; returns its token, which is shown this once."""
        return team_ops.add_team(self.ctx, name)

    def add_teams(self, roster_path: str | Path, tokens_path: str | Path, force: bool = False) -> int:
        """Add every team of the roster CSV at ``roster_path`` (a ``name`` column; its other columns are kept
        with each team) and write their tokens, beside each row's name and columns, to a new CSV
        ``tokens_path`` only its owner may read (``force``: it may replace one). All of them or none: a bad
        roster is an :class:`ArenaError` and adds nothing. Returns how many teams were added."""
        for given, what in ((Path(roster_path), "roster"), (Path(tokens_path), "tokens file")):
            if self.ctx.store.holds(given):
                raise ArenaError(f"{given}: is the league's database, not a {what}; name a CSV file")
        entries = roster.read_roster(Path(roster_path))
        return roster.add_teams(self.ctx, entries, Path(tokens_path), force)

    def team_info(self) -> dict[str, dict[str, str]]:
        """The roster columns kept with each team added from a roster, by team name."""
        return roster.team_info(self.ctx)

    def rename_team(self, old: str, new: str) -> None:
        """Rename a team (its bots become ``new/bot``; stored games keep the name they were played under)."""
        team_ops.rename_team(self.ctx, old, new)

    def remove_team(self, name: str) -> None:
        """Remove a team: its token stops working, its bots stop playing and leave the leaderboard (its
        games stay stored)."""
        team_ops.remove_team(self.ctx, name)

    def rotate_token(self, team: str | None = None) -> str:
        """A new token for ``team`` (``None``: the organiser); the old one stops working. Returns the new one."""
        return team_ops.rotate_token(self.ctx, team)

    def revoke_token(self, team: str) -> None:
        """Stop ``team``'s token working, with no new one (until :meth:`rotate_token`)."""
        team_ops.revoke_token(self.ctx, team)

    # --- submissions and versions (arena.league.versions) -------------------------------------------

    def submit(self, team: Team, path: str | Path) -> VersionInfo:
        """Submit the bot at ``path`` (a ``.py`` module or a folder with ``arena-bot.toml``) as the next version
        of ``team``'s bot of that name, building it first. A version that builds becomes the bot's active
        version (unless the team chose one with :meth:`set_active`); one whose build fails or takes too
        long is kept with its log and never plays. The same source submitted again is the same version."""
        return version_ops.submit(self.ctx, team, path)

    def versions(self, team: Team | str, bot: str | None = None) -> list[VersionInfo]:
        """A team's versions (of ``bot``, or of every bot), newest first."""
        return version_ops.versions(self.ctx, team, bot)

    def set_active(self, team: Team, bot: str, number: int | None) -> VersionInfo:
        """Make version ``number`` of ``team``'s ``bot`` the one that plays; ``None`` goes back to the newest
        version that built (and follows each new one again)."""
        return version_ops.set_active(self.ctx, team, bot, number)

    def disable(self, team: str, bot: str, number: int) -> None:
        """The organiser disables a version: it never plays again, and its waiting games are dropped. The
        bot's newest other version that built plays instead, if there is one."""
        version_ops.disable(self.ctx, team, bot, number)

    # --- play control -------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether ranked play is paused (challenges and the final still play)."""
        return game_queue.paused(self.ctx)

    def pause(self) -> None:
        """Pause ranked play; its waiting games are dropped (the games in hand finish and count)."""
        game_queue.pause(self.ctx)

    def resume(self) -> None:
        """Resume ranked play."""
        game_queue.resume(self.ctx)

    def add_map(self, spec: str) -> str:
        """Add a map (a name or a file, copied into the league) to the rotation; returns its file name."""
        return league_maps.add_map(self.ctx, spec)

    # --- reading (arena.league.read_views) ----------------------------------------------------------

    def change_stamp(self) -> tuple[Any, ...]:
        """A value equal only while nothing the league's pages show has changed (see
        :func:`arena.league.read_views.change_stamp`)."""
        return read_views.change_stamp(self.ctx)

    def leaderboard(self) -> list[BoardRow]:
        """The active version of every team's bot, best first by ``mu - 3 sigma``."""
        return read_views.leaderboard(self.ctx)

    def bot(self, team: str, bot: str, games: int = 20) -> BotInfo:
        """A team's bot: its versions, newest first, and its ``games`` newest games."""
        return read_views.bot_info(self.ctx, team, bot, games)

    def games(self, bot: str | None = None, limit: int = 50, kind: str | None = None) -> list[GameInfo]:
        """The newest finished games (of ``team/bot``, of one ``kind``), newest first."""
        return read_views.finished_games(self.ctx, bot, limit, kind)

    def game_info(self, game_id: int) -> GameInfo:
        """A finished game of the league, or an :class:`ArenaError`."""
        return read_views.game_info(self.ctx, game_id)

    def rating_history(self, version_id: int, points: int | None = None) -> list[tuple[int, float, float]]:
        """A version's ``(game id, mu, sigma)`` after each of its rated games, oldest first (its first role's,
        in a game with roles); with ``points``, only that many of the newest."""
        return read_views.rating_history(self.ctx, version_id, points)

    def head_to_head(self, team: str, bot: str) -> list[tuple[str, int, int, int]]:
        """``team``'s ``bot`` (any version) against every bot it met in ranked games: ``(team/bot, wins, draws,
        losses)``, by opponent, a win meaning a better rank in that game."""
        return read_views.head_to_head(self.ctx, team, bot)

    def game_record(self, game_id: int) -> dict[str, Any]:
        """A finished game's record (``arena-record/1``), which the replay viewer shows."""
        return read_views.game_record(self.ctx, game_id)

    def queue(self, limit: int = 100) -> list[QueueEntry]:
        """The games scheduled and not finished, in the order they are played."""
        return read_views.queue(self.ctx, limit)

    def workers(self) -> WorkersInfo | None:
        """What the ladder last reported (``None`` if no ladder has run on this league)."""
        return read_views.workers(self.ctx)

    def report_workers(self, info: WorkersInfo) -> None:
        """The ladder's report of itself, for :meth:`workers`."""
        read_views.report_workers(self.ctx, info)

    # --- challenges and the final (arena.league.scheduling, arena.league.final) ---------------------

    def challenge(self, team: Team, bot: str, opponent: str, games: int) -> list[int]:
        """Queue ``games`` unrated games of ``team``'s ``bot`` against ``opponent`` (``team/bot``), seats
        alternating; returns their ids. Never rated; limited to :attr:`LeagueSettings.challenge_games` per
        request and :attr:`LeagueSettings.challenge_waiting` waiting per team."""
        return scheduling.challenge(self.ctx, team, bot, opponent, games)

    def start_final(self, deadline: str | None = None, games: int | None = None, fmt: str | None = None) -> int:
        """Close submissions and play the final (see :mod:`arena.league.final`): ``fmt`` ``round-robin`` (every
        group of players, the default), ``single-elimination`` or ``double-elimination`` (a bracket seeded by
        the ladder), ``games`` games a pairing (default: one per seat order and map), in its own run and table.
        With ``deadline`` (ISO time, UTC), submissions close then and the ladder queues the final once it has
        passed; returns how many games were queued now."""
        return final.start_final(self.ctx, deadline, games, fmt)

    def final_due(self) -> bool:
        """Whether a deadline has passed with the final not queued yet (the ladder then queues it)."""
        return final.final_due(self.ctx)

    def advance_final(self) -> int:
        """A bracket final's next wave, once none of its games is waiting (the ladder calls it every turn);
        returns how many games were queued."""
        return final.advance_final(self.ctx)

    def final_started(self) -> bool:
        """Whether the final has been queued."""
        return self.ctx.get("final_run") is not None

    def deadline(self) -> str | None:
        """When submissions close and the final is queued (ISO time, UTC), if a deadline is set."""
        return read_views.deadline(self.ctx)

    def failure_counts(self) -> dict[tuple[str, str, int], dict[str, int]]:
        """How often each active version failed in its ranked games, by kind, keyed by ``(team, bot, number)``
        (see :func:`arena.league.exports.failure_counts`)."""
        return exports.failure_counts(self.ctx)

    def disabled_bots(self) -> list[tuple[str, str, int]]:
        """The bots no version of plays because theirs were disabled: ``(team, bot, newest disabled number)``."""
        return read_views.disabled_bots(self.ctx)

    def standings_export(self) -> exports.ExportTable:
        """The leaderboard as a table to grade from (:mod:`arena.league.exports`): rank, team, bot, version,
        rating (mu - 3 sigma), mu, sigma, games, wins, draws, losses and failures by kind."""
        return exports.standings_table(self.ctx, self.leaderboard())

    def final_export(self) -> exports.ExportTable:
        """The final's table as a table to grade from (:mod:`arena.league.exports`); an error if there is no
        final."""
        return exports.final_export(self.final_table())

    def final_table(self) -> list[FinalRow]:
        """The final's table, best first, each row with the tiebreak that put it ahead of the next (see
        :mod:`arena.league.final`); an error if there is no final."""
        return final.final_table(self.ctx)

    def final_table_rows(self) -> list[dict[str, Any]]:
        """The final's table as plain dicts, the ``tiebreak`` column included (what exports write)."""
        return final.final_table_rows(self.ctx)

    def final_bracket(self) -> dict[str, Any] | None:
        """A bracket final's matches as they stand (``None`` for a round robin)."""
        return final.final_bracket(self.ctx)

    def final_summary(self) -> dict[str, Any]:
        """The final for the API: format, games a pairing, games waiting, table and bracket."""
        return final.final_summary(self.ctx)

    def recompute(self) -> int:
        """Rate every stored ranked game again from scratch, in queue order, leaving out the games of
        disabled versions; returns how many games were rated."""
        return rating_updates.recompute(self.ctx)

    # --- what the ladder calls ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Players in each of the league's games."""
        return self.ctx.players

    def waiting(self, kinds: Sequence[str] = KINDS) -> list[int]:
        """The ids of the queued games not finished yet, in queue order."""
        return game_queue.waiting(self.ctx, kinds)

    def schedule_ranked(self, matches: int) -> int:
        """Queue the next ``matches`` ranked matches by the matchmaking rule (unless ranked play is paused or
        too few bots play); returns how many games were queued."""
        return scheduling.schedule_ranked(self.ctx, matches)

    def candidates(self) -> list[Candidate]:
        """The active versions as matchmaking sees them."""
        return scheduling.candidates(self.ctx)

    def setups(self, ids: Sequence[int]) -> list[MatchSetup]:
        """The games to play for queue entries ``ids``."""
        return game_queue.setups(self.ctx, ids)

    def play_bots(self, ids: Sequence[int], active: bool = False) -> tuple[StoredBot, ...]:
        """The versions the games ``ids`` play (and, with ``active``, every active version), as the workers
        register them (``team/bot@version``)."""
        return game_queue.play_bots(self.ctx, ids, active)

    def record_outcome(self, setup: MatchSetup, outcome: MatchOutcome) -> bool:
        """Store a finished game the moment it ends, and rate every ranked game that is now next in queue
        order, all in one transaction; ``False`` (nothing stored) if the game is stored already or was
        dropped from the queue meanwhile."""
        return rating_updates.record_outcome(self.ctx, setup, outcome)

    def play_config_for(self, ids: Sequence[int]) -> PluginConfig:
        """The plugin configuration the workers play games ``ids`` with (see :mod:`arena.league.sandboxing`)."""
        return game_queue.play_config_for(self.ctx, ids)


__all__ = ["CHALLENGE", "FINAL", "PLAN_AHEAD", "RANKED", "League"]
