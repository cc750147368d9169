"""Commands that play tournaments and read results back: tournament, ladder, runs, show, ratings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.cli.app import app
from arena.cli.common import (
    Address,
    BotsDir,
    BuildTimeout,
    Db,
    ExecutorName,
    Options,
    Size,
    StartupTimeout,
    emit_table,
    err,
    games_progress,
    load_registry_reporting,
    out,
    parse_options,
    plugin_config,
    print_failures,
    run_failures,
    user_errors,
    warn,
)
from arena.core.bot import split_bot_list
from arena.core.errors import ArenaError
from arena.play.executor_choice import ExecutorChoice
from arena.play.executors import default_workers
from arena.play.limits import DEFAULT_GRACE, Limits, default_memory_limit, format_bytes, parse_memory
from arena.report.replay_page import build_replay_html
from arena.report.tables import FORMATS as OUTPUT_FORMATS
from arena.report.tables import export, render_console
from arena.stats.standings import Standings
from arena.storage.history import Recomputed, recompute
from arena.storage.queries import HistoryPoint, leaderboard, rating_history, run_standings, run_summaries
from arena.storage.store import Store
from arena.tournament.definition import FORMATS as TOURNAMENT_FORMATS
from arena.tournament.ladder import NEVER, LadderRound, check_ladder_maps, plan_round, play_round
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import open_run, play_stored_run, resume_config, resume_run
from arena.tournament.selection import command_line_definition, default_maps, load_maps
from arena.tournament.stored_versions import with_stored_versions

FormatOption = Annotated[list[str] | None, typer.Option(
    "--format", "-f", show_default=False,
    help="Tournament format (round-robin, gauntlet, swiss) and/or output format (table, md, csv, json); "
         "repeat or separate with commas: -f swiss,json.")]


def split_formats(values: list[str] | None) -> tuple[str | None, str]:
    """Sort ``--format`` values into the tournament format and the output format."""
    tournament, output = None, "table"
    seen_output = False
    for value in (piece.strip() for v in values or [] for piece in v.split(",") if piece.strip()):
        if value in TOURNAMENT_FORMATS:
            if tournament is not None and tournament != value:
                raise ArenaError(f"--format gives two tournament formats: {tournament} and {value}")
            tournament = value
        elif value in OUTPUT_FORMATS:
            if seen_output and output != value:
                raise ArenaError(f"--format gives two output formats: {output} and {value}")
            output, seen_output = value, True
        else:
            raise ArenaError(f"--format {value!r} is not a tournament format ({', '.join(TOURNAMENT_FORMATS)}) "
                             f"or an output format ({', '.join(OUTPUT_FORMATS)})")
    return tournament, output


OutputFormatOption = Annotated[list[str] | None, typer.Option(
    "--format", "-f", show_default=False, help="Output format: table, md, csv or json [default: table].")]


def _output_format(values: list[str] | None) -> str:
    tournament, output = split_formats(values)
    if tournament is not None:
        raise ArenaError(f"--format {tournament} only applies to tournaments")
    return output


def _show(standings: Standings, fmt: str) -> None:
    if fmt == "table":
        render_console(standings, out)
    else:
        typer.echo(export(standings, fmt), nl=False)


@app.command("tournament")
@user_errors
def tournament_command(
    targets: Annotated[list[str] | None, typer.Argument(
        help="A tournament file (tournaments/x.toml), or map files or names.", show_default=False)] = None,
    bots: Annotated[list[str] | None, typer.Option(
        "--bots", "-b", metavar="SPECS", help="Bot specs, comma separated [default: every bot that plays the game].",
        show_default=False)] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="Games per pairing per map, rounded up so every seating plays equally often "
        "[default: 10].", show_default=False)] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Worker processes [default: all cores].", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(help="Tournament seed [default: 0].", show_default=False)] = None,
    time_limit: Annotated[float | None, typer.Option(
        help="Seconds a bot may think per move [default: 1].", show_default=False)] = None,
    formats: FormatOption = None,
    gauntlet: Annotated[str | None, typer.Option(metavar="BOT", help="Play this bot against the field.",
                                                 show_default=False)] = None,
    rounds: Annotated[int | None, typer.Option(help="Rounds of a swiss tournament.", show_default=False)] = None,
    option: Options = None,
    size: Size = None,
    grace: Annotated[float, typer.Option(
        min=0, help="Seconds past the time limit before a bot is stopped (0 or more).")] = DEFAULT_GRACE,
    memory_limit: Annotated[str | None, typer.Option(
        metavar="SIZE", help="Memory per worker, e.g. 2G [default: an equal share of the machine's memory].",
        show_default=False)] = None,
    isolate: Annotated[bool, typer.Option(
        "--isolate", help="Run every bot in its own process, talking over a pipe.")] = False,
    build_timeout: BuildTimeout = None,
    startup_timeout: StartupTimeout = None,
    db: Db = None,
    resume: Annotated[int | None, typer.Option(
        help="Continue stored run RUN (rerunning the same command does this too).", show_default=False)] = None,
    new: Annotated[bool, typer.Option("--new", help="Start a new run even if this one is stored already.")] = False,
    bots_dir: BotsDir = None,
    executor: ExecutorName = None,
    address: Address = None,
) -> None:
    """Run a tournament (round robin, gauntlet or swiss); store every game; print standings."""
    fmt_tournament, fmt = split_formats(formats)
    if gauntlet and fmt_tournament not in (None, "gauntlet"):
        raise ArenaError(f"--gauntlet goes with a gauntlet, not a {fmt_tournament} tournament")
    config = plugin_config(bots_dir, build_timeout, startup_timeout)
    plan = None  # a new tournament is checked in full before the database is opened
    if resume is not None:
        if targets:
            raise ArenaError("--resume RUN continues a stored run: give no maps or tournament file")
    else:
        registry = load_registry_reporting(config)
        overrides = dict(bots=tuple(split_bot_list(bots)) if bots else None, games=games, workers=workers,
                         seed=seed, time_limit=time_limit, format=fmt_tournament or ("gauntlet" if gauntlet else None),
                         gauntlet=gauntlet, rounds=rounds, executor=executor, address=address)
        definition = command_line_definition(targets or [], registry, overrides, size=size,
                                             options=parse_options(option))
        definition, config = with_stored_versions(definition, db, registry, config)
        plan = plan_tournament(definition, registry)
        for line in plan.skipped:
            warn(line)
    with Store(db) as store:
        if plan is None:  # the run's own bot directories and stored versions, and this command's
            assert resume is not None  # there is no plan only when resuming
            config, gone = resume_config(store, resume, config)
            for directory in gone:
                warn(f"run {resume} loaded bots from {directory}, which no longer exists")
            registry = load_registry_reporting(config)
            opened = resume_run(store, resume, registry)
        else:
            opened = open_run(store, plan, new, config)
        run, run_id = opened.run, opened.run.run_id or 0
        if opened.state == "complete":
            err.print(f"run {run_id} already played this tournament; showing it (--new plays it again)",
                      highlight=False)
            _show(run.standings(), fmt)
            print_failures(run_failures(store, run_id), fmt)
            return
        if opened.state == "resumed" and resume is None:
            err.print(f"resuming run {run_id}: {opened.played_before} of {run.plan.total_games()} games already "
                      "played", highlight=False)
        stored = run.plan.definition
        choice = ExecutorChoice(executor or stored.executor, address or stored.address)
        worker_count = workers or stored.workers
        limits = Limits(grace=grace, isolate=isolate,
                        memory_limit=parse_memory(memory_limit) if memory_limit
                        else default_memory_limit(worker_count or default_workers()))
        with games_progress() as progress:
            task = progress.add_task(f"run {run_id}", total=run.plan.total_games(), completed=len(run.played))
            play_stored_run(store, run, registry, config, workers=worker_count, limits=limits,
                            on_game=lambda _: progress.advance(task), executor=choice)
        _show(run.standings(), fmt)
        print_failures(run_failures(store, run_id), fmt)
        err.print(f"run {run_id} stored in {store.path}; memory capped at {format_bytes(limits.memory_limit or 0)} "
                  f"per worker; Elo, Bradley-Terry and pairwise significance: arena report {run_id}",
                  style="dim", highlight=False)
        if run.interrupted:
            err.print(f"interrupted: {len(run.played)} of {run.plan.total_games()} games played; "
                      f"continue with: arena tournament --resume {run_id}", highlight=False)
            raise typer.Exit(130)


@app.command("runs")
@user_errors
def runs_command(db: Db = None, formats: OutputFormatOption = None) -> None:
    """List the stored runs: name, game, format, how many bots, the best rated at the end, status, duration."""
    fmt = _output_format(formats)
    with Store(db, read_only=True) as store:
        rows = [[str(s.run.id), s.run.name, s.run.game, s.run.format, str(s.bots), s.leader or "-", s.run.status,
                 f"{s.run.played}/{s.run.scheduled}", s.run.created_at[5:16].replace("T", " "), s.duration_text()]
                for s in run_summaries(store)]
    emit_table(["run", "name", "game", "format", "bots", "leader", "status", "games", "started", "took"], rows, fmt,
               "Runs", names=("run", "game", "format", "bots", "leader", "status", "games", "took"), prose=("name",))


@app.command("show")
@user_errors
def show_command(run: Annotated[int | None, typer.Argument(help="The run to show [default: the latest].",
                                                         show_default=False)] = None,
                 game_number: Annotated[int | None, typer.Argument(
                     metavar="GAME", help="One game of the run, by its number (as arena replay RUN GAME takes it): "
                     "its players, result, failures and the stderr of its program bots (with --html, its replay page).",
                     show_default=False)] = None,
                 db: Db = None, formats: OutputFormatOption = None,
                 html_file: Annotated[Path | None, typer.Option(
                     "--html", metavar="FILE", help="Write game GAME as a self-contained HTML replay page.",
                     show_default=False)] = None,
                 bots_dir: BotsDir = None,
                 game_option: Annotated[str | None, typer.Option(
                     "--game", hidden=True, help="Not a game's number: see GAME.")] = None) -> None:
    """Show a stored run's standings again (the latest run without RUN), one of its games (arena show RUN GAME),
    or write one of its games as an HTML replay page (arena show RUN GAME --html FILE)."""
    if game_option is not None:  # --game names a game (tron, catmouse) in every other command
        raise ArenaError(f"--game names a game in every command; give a game's number after the run: "
                         f"arena show {run if run is not None else 'RUN'} {game_option}")
    if game_number is None and html_file is not None:
        raise ArenaError("--html FILE writes one game: arena show RUN GAME --html FILE")
    if game_number is not None and html_file is None:
        with Store(db, read_only=True) as store:
            run_id = store.latest_run().id if run is None else run
            record = store.game(run_id, game_number).record
        out.print(game_summary(run_id, game_number, record), markup=False, highlight=False, soft_wrap=True)
        return
    if game_number is not None and html_file is not None:
        registry = load_registry_reporting(plugin_config(bots_dir))
        with Store(db, read_only=True) as store:
            run_id = store.latest_run().id if run is None else run
            record = store.game(run_id, game_number).record
        html_file.write_text(build_replay_html(record, registry), encoding="utf-8")
        err.print(f"replay page of run {run_id}, game {game_number} written to {html_file}", highlight=False)
        return
    fmt = _output_format(formats)
    with Store(db, read_only=True) as store:
        run_id = store.latest_run().id if run is None else run
        _show(run_standings(store, run_id), fmt)
        print_failures(run_failures(store, run_id), fmt)


def game_summary(run_id: int, game: int, record: dict) -> str:
    """One stored game in words: its players, result, each failure, and what each program bot wrote to stderr."""
    lines = [f"run {run_id}, game {game}: {record['game']} on {(record.get('map') or {}).get('name', '-')}, "
             f"seed {record['seed']}, {len(record['turns'])} turns"]
    for player in record["players"]:
        lines.append(f"  player {player['seat'] + 1}: {player['bot']} (version {player['version']})")
    lines.append(f"result: {record['result']['reason']}")
    for failure in record.get("failures", []):
        lines.append(f"failure: player {failure['seat'] + 1} {failure['kind']}: {failure['detail']}")
    for seat, text in sorted((record.get("stderr") or {}).items(), key=lambda item: int(item[0])):
        lines.append(f"stderr of player {int(seat) + 1}:")
        lines.extend(f"  {line}" for line in text.rstrip("\n").splitlines())
    return "\n".join(lines)


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    """A one-line chart of ``values``."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low or 1.0
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in values)


@app.command("ratings")
@user_errors
def ratings_command(
    game: Annotated[str | None, typer.Option(help="Only this game.", show_default=False)] = None,
    latest: Annotated[bool, typer.Option("--latest", help="Only the newest version of each bot.")] = False,
    history: Annotated[str | None, typer.Option(
        metavar="BOT", help="A bot's rating after each run it played, version by version, with the change.",
        show_default=False)] = None,
    recompute_all: Annotated[bool, typer.Option(
        "--recompute", help="Recompute every stored rating from the stored games and compare.")] = False,
    db: Db = None,
    formats: OutputFormatOption = None,
) -> None:
    """The leaderboard across all stored runs (per bot version), a bot's history, or a recomputation."""
    fmt = _output_format(formats)
    with Store(db, read_only=not recompute_all) as store:
        if recompute_all:
            result: Recomputed = recompute(store)
            typer.echo(f"recomputed {result.checked} stored ratings from the games: "
                       + ("all equal to the stored ones" if result.differing == 0
                          else f"{result.differing} differed and were replaced"))
            return
        if history is not None:
            points = rating_history(store, history)
            if not points:
                raise ArenaError(f"no stored ratings for bot {history!r}")
            rows = [[str(p.rating.run_id), p.rating.version + (f" ({p.rating.role})" if p.rating.role else ""),
                     f"{p.rating.conservative:.2f}", "first run" if p.change is None else f"{p.change:+.2f}",
                     f"{p.rating.mu:.2f} ± {p.rating.sigma:.2f}", str(p.rating.games)] for p in points]
            emit_table(["after run", "version", "mu-3σ", "change", "mu ± σ", "games"], rows, fmt,
                       f"{history} over time", names=("after run", "version"))
            if fmt == "table":
                for version, values in _by_version(points).items():
                    out.print(f"{version}: mu-3σ by run {sparkline(values)}", highlight=False)
            return
        rows = [[r.game, r.label, r.version, r.role or "", f"{r.conservative:.2f}", f"{r.mu:.2f} ± {r.sigma:.2f}",
                 str(r.games)] for r in leaderboard(store, game, latest)]
    emit_table(["game", "bot", "version", "role", "mu-3σ", "mu ± σ", "games"], rows, fmt, "Ratings across all runs",
               names=("game", "bot", "version", "role"))


def _by_version(points: list[HistoryPoint]) -> dict[str, list[float]]:
    series: dict[str, list[float]] = {}
    for point in points:
        version = point.rating.version + (f" ({point.rating.role})" if point.rating.role else "")
        series.setdefault(version, []).append(point.rating.conservative)
    return series


@app.command("ladder")
@user_errors
def ladder_command(
    maps: Annotated[list[str] | None, typer.Argument(
        help="Maps the rounds cycle through [default: the default maps of the game whose maps need no header].",
        show_default=False)] = None,
    rounds: Annotated[int, typer.Option(help="Rounds to play now.")] = 1,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per pairing per round.")] = 2,
    seed: Annotated[int, typer.Option(help="Seed; each round's games derive from it and the round number.")] = 0,
    time_limit: Annotated[float, typer.Option(help="Seconds a bot may think per move.")] = 1.0,
    workers: Annotated[int | None, typer.Option("--workers", "-w", show_default=False,
                                                help="Worker processes [default: all cores].")] = None,
    build_timeout: BuildTimeout = None,
    startup_timeout: StartupTimeout = None,
    db: Db = None,
    formats: OutputFormatOption = None,
    bots_dir: BotsDir = None,
    executor: ExecutorName = None,
    address: Address = None,
) -> None:
    """Continue the persistent TrueSkill ladder by N rounds; bots new in bots/ join automatically."""
    fmt = _output_format(formats)
    if rounds < 1 or games < 1 or time_limit <= 0:
        raise ArenaError("--rounds and --games must be at least 1 and --time-limit positive")
    config = plugin_config(bots_dir, build_timeout, startup_timeout)
    registry = load_registry_reporting(config)
    game, game_maps = load_maps(maps or default_maps(registry), registry)
    check_ladder_maps(game, game_maps)
    limits = Limits(memory_limit=default_memory_limit(workers or default_workers()))
    with Store(db) as store, ExecutorChoice(executor or "local", address).start(workers, config, limits,
                                                                              registry) as pool:
        for _ in range(rounds):
            planned = plan_round(store, registry, game, game_maps)
            for line in planned.left_out:
                warn(line)
            with games_progress() as progress:
                task = progress.add_task(f"ladder round {planned.number}", total=planned.game_count(games))
                played = play_round(store, registry, pool, game, game_maps, games, seed, time_limit,
                                    lambda _: progress.advance(task),  # noqa: B023 - called only in this round
                                    planned=planned)
            err.print(ladder_round_summary(played, len(planned.entries)), highlight=False, soft_wrap=True)
        ladder = store.ladder(game.name)
        bots = {row["id"]: row for row in store.bot_rows()}
    live = {(entry.name, entry.version) for entry in registry.bots.values()}
    rows = [[bots[bot]["label"], bots[bot]["version"], f"{mu - 3 * sigma:.2f}", f"{mu:.2f} ± {sigma:.2f}",
             str(played_games), "never" if last == NEVER else str(last),
             "playing" if (bots[bot]["name"], bots[bot]["version"]) in live else "retired"]
            for (bot, _), (mu, sigma, played_games, last) in sorted(ladder.items(),
                                                                      key=lambda kv: -(kv[1][0] - 3 * kv[1][1]))]
    emit_table(["bot", "version", "mu-3σ", "mu ± σ", "games", "last round", "status"], rows, fmt, f"{game.name} ladder",
               names=("bot", "version", "status"))


def ladder_round_summary(played: LadderRound, bots: int) -> str:
    """What a ladder round did, in one sentence."""
    sat_out = (f"; {', '.join(played.sat_out)} sat out (an odd number of bots: one waits for the next round)"
               if played.sat_out else "")
    return (f"round {played.number} (run {played.run_id}): {bots} bots in {len(played.pairs)} pairings played "
            f"{played.games} games{sat_out}")


__all__ = ["ladder_round_summary", "sparkline", "split_formats"]
