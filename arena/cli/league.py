"""The ``arena league`` commands: make a league, run it as its organiser, and play its ladder from a terminal.

Each command is a few lines over :class:`arena.league.facade.League`; tokens are printed alone on stdout so
a script can capture them (``TOKEN=$(arena league add-team myleague alice)``), with a reminder on stderr
that they are shown only once.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.app import app
from arena.cli.common import Address, ExecutorName, command_group, emit_table, err, user_errors
from arena.cli.format_options import OutputFormatOption, output_format
from arena.cli.panels import LEAGUE
from arena.core.errors import ArenaError
from arena.league.exports import ExportTable
from arena.league.facade import League
from arena.league.ladder_lock import LadderLock
from arena.league.ladder_loop import LeagueLadder
from arena.play.executor_choice import ExecutorChoice
from arena.report.row_export import export_rows

league_app = command_group(app, "league", "Run a league: teams, tokens, submissions, a ladder that never stops.",
                           panel=LEAGUE)

Folder = Annotated[Path, typer.Argument(help="The league's folder (league.toml, maps/, arena.db).",
                                        show_default=False)]
TeamName = Annotated[str, typer.Argument(help="The team's name.", show_default=False)]


def _token(token: str, whose: str) -> None:
    """Print a new token alone on stdout, and on stderr that it is shown only once."""
    typer.echo(token)
    err.print(f"keep {whose} token: it is shown only now", highlight=False)


def _export(table: ExportTable, fmt: str) -> None:
    """Print a table to grade from as md, csv or json."""
    typer.echo(export_rows(table.headers, table.rows, fmt), nl=False)


def _bot_name(text: str) -> tuple[str, str]:
    team, sep, bot = text.partition("/")
    if not sep or not team or not bot:
        raise ArenaError(f"{text!r}: name a bot as team/bot")
    return team, bot


@league_app.command("new")
@user_errors
def new_command(
    folder: Annotated[Path, typer.Argument(help="A new (or empty) folder for the league.", show_default=False)],
    game: Annotated[str, typer.Option(help="The game the league plays.", show_default=False)],
    maps: Annotated[list[str], typer.Option("--map", help="A map (name or file) of the rotation; repeat it.",
                                            show_default=False)],
    seed: Annotated[int | None, typer.Option(help="The league's seed [default: a random one].",
                                             show_default=False)] = None,
) -> None:
    """Make a league and print the organiser's token (alone on stdout; it is shown only this once)."""
    league, token = League.create(folder, game, maps, seed)
    league.close()
    _token(token, "the organiser's")


@league_app.command("add-team")
@user_errors
def add_team_command(folder: Folder, name: TeamName) -> None:
    """Add a team and print its token (alone on stdout; it is shown only this once)."""
    with League.open(folder) as league:
        token = league.add_team(name)
    _token(token, f"team {name}'s")


@league_app.command("add-teams")
@user_errors
def add_teams_command(
    folder: Folder,
    roster: Annotated[Path, typer.Argument(
        help="A CSV file (UTF-8) with a 'name' column; its other columns are kept with each team.",
        show_default=False)],
    tokens: Annotated[Path, typer.Option(
        help="The CSV file to write: each team's name, token and roster columns, for a mail merge (mode 0600).",
        show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Replace the tokens file if it exists.")] = False,
) -> None:
    """Add every team of a roster at once and write their tokens to a CSV file; a bad roster adds none."""
    with League.open(folder) as league:
        added = league.add_teams(roster, tokens, force)
    err.print(f"added {added} teams; keep {tokens}: their tokens are shown only now", highlight=False,
              soft_wrap=True)


@league_app.command("remove-team")
@user_errors
def remove_team_command(folder: Folder, name: TeamName) -> None:
    """Remove a team: its token stops working and its bots stop playing (their games stay)."""
    with League.open(folder) as league:
        league.remove_team(name)
    err.print(f"removed team {name}", highlight=False)


@league_app.command("rename-team")
@user_errors
def rename_team_command(folder: Folder, name: TeamName,
                        new: Annotated[str, typer.Argument(help="Its new name.", show_default=False)]) -> None:
    """Rename a team."""
    with League.open(folder) as league:
        league.rename_team(name, new)
    err.print(f"renamed team {name} to {new}", highlight=False)


@league_app.command("rotate-token")
@user_errors
def rotate_token_command(folder: Folder, team: Annotated[str | None, typer.Argument(
        help="The team [default: the organiser's token].", show_default=False)] = None) -> None:
    """Replace a team's (or the organiser's) token and print the new one; the old one stops working."""
    with League.open(folder) as league:
        token = league.rotate_token(team)
    _token(token, f"team {team}'s new" if team else "the organiser's new")


@league_app.command("revoke-token")
@user_errors
def revoke_token_command(folder: Folder, team: TeamName) -> None:
    """Stop a team's token working, with no new one (rotate-token makes one)."""
    with League.open(folder) as league:
        league.revoke_token(team)
    err.print(f"team {team}'s token no longer works", highlight=False)


@league_app.command("submit")
@user_errors
def submit_command(
    folder: Folder,
    path: Annotated[Path, typer.Argument(help="A bot module (.py) or a folder with arena-bot.toml.",
                                         show_default=False)],
    team: Annotated[str, typer.Option(help="The team it is submitted for.", show_default=False)],
) -> None:
    """Submit a bot for a team, as the organiser, on the league's machine; print its version number."""
    with League.open(folder) as league:
        version = league.submit(league.team(team), path)
    state = "built" if version.status == "ready" else f"{version.status}: {version.build_log}"
    err.print(f"{version.label} version {version.number} ({version.version}): {state}", highlight=False,
              soft_wrap=True)
    typer.echo(version.number)
    if version.status != "ready":
        raise typer.Exit(1)


@league_app.command("activate")
@user_errors
def activate_command(
    folder: Folder,
    bot: Annotated[str, typer.Argument(help="The bot, as team/bot.", show_default=False)],
    number: Annotated[int | None, typer.Argument(
        help="The version that plays [default: the newest that built, and each new one].",
        show_default=False)] = None,
) -> None:
    """Choose which version of a team's bot plays."""
    team, name = _bot_name(bot)
    with League.open(folder) as league:
        version = league.set_active(league.team(team), name, number)
    err.print(f"{version.label} plays version {version.number}", highlight=False)


@league_app.command("disable")
@user_errors
def disable_command(
    folder: Folder,
    bot: Annotated[str, typer.Argument(help="The bot, as team/bot.", show_default=False)],
    number: Annotated[int, typer.Argument(help="The version to disable.", show_default=False)],
) -> None:
    """Disable a version: it never plays again (the bot's newest other version plays instead)."""
    team, name = _bot_name(bot)
    with League.open(folder) as league:
        league.disable(team, name, number)
    err.print(f"{bot} version {number} is disabled", highlight=False)


@league_app.command("pause")
@user_errors
def pause_command(folder: Folder) -> None:
    """Pause ranked play (challenges and the final still play)."""
    with League.open(folder) as league:
        league.pause()
    err.print("ranked play is paused", highlight=False)


@league_app.command("resume")
@user_errors
def resume_command(folder: Folder) -> None:
    """Resume ranked play."""
    with League.open(folder) as league:
        league.resume()
    err.print("ranked play resumes", highlight=False)


@league_app.command("recompute")
@user_errors
def recompute_command(folder: Folder) -> None:
    """Rate every ranked game again from scratch, leaving out the games of disabled versions."""
    with League.open(folder) as league:
        rated = league.recompute()
    err.print(f"rated {rated} ranked games", highlight=False)


@league_app.command("add-map")
@user_errors
def add_map_command(folder: Folder, spec: Annotated[str, typer.Argument(
        help="A map name or file; it is copied into the league.", show_default=False)]) -> None:
    """Add a map to the rotation."""
    with League.open(folder) as league:
        name = league.add_map(spec)
    err.print(f"added map {name}", highlight=False)


@league_app.command("teams")
@user_errors
def teams_command(folder: Folder, formats: OutputFormatOption = None) -> None:
    """List the teams, their bots and the roster columns kept with them (arena league add-teams)."""
    fmt = output_format(formats)
    with League.open(folder) as league:
        info = league.team_info()
        extra = [c for c in dict.fromkeys(c for kept in info.values() for c in kept) if c not in ("team", "bots")]
        rows = []
        for team in league.teams():
            bots = sorted({v.bot for v in league.versions(team)})
            rows.append([team.name, ", ".join(bots), *(info.get(team.name, {}).get(c, "") for c in extra)])
    emit_table(["team", "bots", *extra], rows, fmt, "teams", names=("team",), prose=tuple(extra))


@league_app.command("versions")
@user_errors
def versions_command(folder: Folder, team: TeamName, formats: OutputFormatOption = None) -> None:
    """List a team's versions, their builds and ratings."""
    fmt = output_format(formats)
    with League.open(folder) as league:
        versions = league.versions(team)
    rows = [[v.label, str(v.number), v.version, v.status, "yes" if v.active else "", f"{v.rating:.2f}",
             str(v.games), v.submitted_at, v.build_log] for v in versions]
    emit_table(["bot", "number", "version", "status", "active", "mu-3σ", "games", "submitted", "build"], rows, fmt,
               f"versions of team {team}", names=("bot", "version"), prose=("build",))


@league_app.command("standings")
@user_errors
def standings_command(folder: Folder, formats: OutputFormatOption = None) -> None:
    """The leaderboard: the active version of every team's bot, best first (md, csv, json: every column to
    grade from, failures by kind too)."""
    fmt = output_format(formats)
    with League.open(folder) as league:
        if fmt != "table":
            _export(league.standings_export(), fmt)
            return
        board = league.leaderboard()
        title = f"{league.game.name} league" + (" (ranked play paused)" if league.paused else "")
    rows = [[str(r.rank), r.label, str(r.number), f"{r.rating:.2f}", f"{r.mu:.2f} ± {r.sigma:.2f}", str(r.games),
             f"{r.wins}-{r.draws}-{r.losses}"] for r in board]
    emit_table(["rank", "bot", "version", "mu-3σ", "mu ± σ", "games", "W-D-L"], rows, fmt, title, names=("bot",))


@league_app.command("queue")
@user_errors
def queue_command(folder: Folder, limit: Annotated[int, typer.Option(help="Show at most this many.")] = 50,
                  formats: OutputFormatOption = None) -> None:
    """The games scheduled and not finished, in the order they are played."""
    fmt = output_format(formats)
    with League.open(folder) as league:
        entries = league.queue(limit)
    rows = [[str(e.id), e.kind, " vs ".join(e.players), e.map, str(e.seed), e.team or ""] for e in entries]
    emit_table(["game", "kind", "players", "map", "seed", "asked by"], rows, fmt, "queue", prose=("players",))


@league_app.command("workers")
@user_errors
def workers_command(folder: Folder, formats: OutputFormatOption = None) -> None:
    """What the league's ladder last reported: its executor, workers and state."""
    fmt = output_format(formats)
    with League.open(folder) as league:
        info = league.workers()
    if info is None:
        raise ArenaError(f"no ladder has run on {folder} yet (arena league run, or arena serve)")
    rows = [[info.executor, str(info.workers), info.state, str(info.pid), info.started_at, info.updated_at,
             str(info.games_played)]]
    emit_table(["executor", "workers", "state", "pid", "started", "last report", "games stored"], rows, fmt,
               "ladder")


@league_app.command("challenge")
@user_errors
def challenge_command(
    folder: Folder,
    bot: Annotated[str, typer.Argument(help="The challenging bot, as team/bot.", show_default=False)],
    opponent: Annotated[str, typer.Argument(help="Its opponent, as team/bot.", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 2,
) -> None:
    """Queue unrated games between two bots, for their team (they never touch ratings)."""
    team, name = _bot_name(bot)
    with League.open(folder) as league:
        ids = league.challenge(league.team(team), name, opponent, games)
    err.print(f"queued {len(ids)} challenge games: {', '.join(map(str, ids))}", highlight=False)


@league_app.command("final")
@user_errors
def final_command(
    folder: Folder,
    deadline: Annotated[str | None, typer.Option(
        help="Close submissions at this time (ISO, UTC unless it says) and play the final then [default: now].",
        show_default=False)] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", show_default=False,
        help="Games a pairing plays, seat orders and maps in turn [default: one per seat order and map].")] = None,
    fmt: Annotated[str, typer.Option(
        "--format", help="round-robin, single-elimination or double-elimination (a bracket seeded by the ladder; "
                         "two-player games).")] = "round-robin",
) -> None:
    """Close submissions and play the final: a round robin or a bracket of the active versions, in its own table."""
    with League.open(folder) as league:
        queued = league.start_final(deadline, games, fmt)
    err.print(f"the final ({fmt}) is queued: {queued} games" + (" in its first round" if fmt != "round-robin" else "")
              if queued else f"submissions close at {deadline}; the ladder queues the final then", highlight=False)


@league_app.command("final-table")
@user_errors
def final_table_command(folder: Folder, formats: OutputFormatOption = None) -> None:
    """The final's table: points (a win 1, a draw 1/2), W-D-L, the final's own rating, and the tiebreak that put
    each bot ahead of the next (md, csv, json: to grade from)."""
    fmt = output_format(formats)
    with League.open(folder) as league:
        if fmt != "table":
            _export(league.final_export(), fmt)
            return
        table = league.final_table()
        left = len(league.waiting(("final",)))
    rows = [[str(r.rank), r.label, str(r.number), str(r.seed), f"{r.points:g}", str(r.games),
             f"{r.wins}-{r.draws}-{r.losses}", f"{r.mu:.2f} ± {r.sigma:.2f}", r.tiebreak] for r in table]
    emit_table(["rank", "bot", "version", "seed", "points", "games", "W-D-L", "mu ± σ", "tiebreak"], rows, fmt,
               "final" + (f" ({left} games still to play)" if left else ""), names=("bot",))


@league_app.command("run")
@user_errors
def run_command(
    folder: Folder,
    workers: Annotated[int | None, typer.Option("--workers", "-w", show_default=False,
                                                help="Worker processes [default: all cores].")] = None,
    executor: ExecutorName = None,
    address: Address = None,
    games: Annotated[int | None, typer.Option("--games", "-n", show_default=False,
                                              help="Stop after storing this many games [default: never].")] = None,
) -> None:
    """Play the league's ladder in this terminal until Ctrl-C (arena serve runs it beside the web pages)."""
    if games is not None and games < 1:
        raise ArenaError("--games must be at least 1")
    League.open(folder).close()  # a folder that is no league fails here, in one line
    with LadderLock.take(folder, "arena league run") as lock:
        ladder = LeagueLadder(folder, ExecutorChoice(executor or "local", address), workers, max_games=games,
                              on_game=lambda idx: err.print(f"game {idx} stored", highlight=False), lock=lock)
        signal.signal(signal.SIGTERM, lambda *_: ladder.stop(timeout=0))
        try:
            ladder.run()
        except KeyboardInterrupt:
            ladder.stop(timeout=0)
    err.print(f"stored {ladder.games_played} games", highlight=False)


__all__ = ["league_app"]
