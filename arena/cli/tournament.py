"""The ``tournament`` command: plan or resume a run, play it, store every game, print the standings."""

from __future__ import annotations

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
    SandboxFlag,
    Size,
    StartupTimeout,
    confined_config,
    err,
    games_progress,
    load_registry_reporting,
    parse_options,
    plugin_config,
    print_failures,
    run_failures,
    user_errors,
    warn,
)
from arena.cli.format_options import FormatOption, show_standings, split_formats
from arena.cli.openings_options import OpeningsCount, OpeningsFile, OpeningsOrder, OpeningsPlies
from arena.cli.panels import PLAY
from arena.cli.time_use import print_time_use
from arena.cli.timing import ClockOption, FirstMove, TimeControlOption, TimeLimit
from arena.core.bot import split_bot_list
from arena.core.errors import ArenaError
from arena.play.executor_choice import ExecutorChoice
from arena.play.executors import default_workers
from arena.play.limits import DEFAULT_GRACE, Limits, default_memory_limit, format_bytes, parse_memory
from arena.play.sandbox.limits import SandboxLimits
from arena.storage.store import Store
from arena.tournament.definition import load_definition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import open_run, play_stored_run, resume_config, resume_run
from arena.tournament.selection import command_line_definition
from arena.tournament.stored_versions import with_stored_versions


@app.command("tournament", rich_help_panel=PLAY)
@user_errors
def tournament_command(
    targets: Annotated[list[str] | None, typer.Argument(
        help="A tournament file (tournaments/x.toml), or map files or names (none with --game for a game "
        "played without maps).", show_default=False)] = None,
    game: Annotated[str | None, typer.Option(
        "--game", metavar="GAME", help="The game to play: the maps' game, or one played without maps (such as "
        "openspiel:connect_four), set up by its options (-o).", show_default=False)] = None,
    bots: Annotated[list[str] | None, typer.Option(
        "--bots", "-b", metavar="SPECS", help="Bot specs, comma separated [default: every bot that plays the game].",
        show_default=False)] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="Games per pairing per map, rounded up so every seating plays equally often "
        "[default: 10; with --openings, 2: one in each seat].", show_default=False)] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Worker processes [default: all cores].", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(help="Tournament seed [default: 0].", show_default=False)] = None,
    time_limit: TimeLimit = None,
    time_control: TimeControlOption = None,
    first_move: FirstMove = None,
    clock: ClockOption = None,
    formats: FormatOption = None,
    gauntlet: Annotated[str | None, typer.Option(metavar="BOT", help="Play this bot against the field.",
                                                 show_default=False)] = None,
    rounds: Annotated[int | None, typer.Option(help="Rounds of a swiss tournament.", show_default=False)] = None,
    option: Options = None,
    size: Size = None,
    openings: OpeningsFile = None,
    openings_order: OpeningsOrder = None,
    openings_plies: OpeningsPlies = None,
    openings_count: OpeningsCount = None,
    grace: Annotated[float, typer.Option(
        min=0, help="Seconds past the time limit before a bot is stopped (0 or more).")] = DEFAULT_GRACE,
    memory_limit: Annotated[str | None, typer.Option(
        metavar="SIZE", help="Memory per worker, e.g. 2G [default: an equal share of the machine's memory].",
        show_default=False)] = None,
    isolate: Annotated[bool, typer.Option(
        "--isolate", help="Run every bot in its own process, talking over a pipe.")] = False,
    sandbox: SandboxFlag = False,
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
    config = plugin_config(bots_dir, build_timeout, startup_timeout, SandboxLimits() if sandbox else None)
    plan = None  # a new tournament is checked in full before the database is opened
    if resume is not None:
        if targets or openings:
            raise ArenaError("--resume RUN continues a stored run: give no maps, openings or tournament file")
    else:
        files = [target for target in targets or [] if target.endswith(".toml")]
        if files and not sandbox:  # a tournament file's sandbox checks bot modules confined too
            config = confined_config(config, load_definition(files[0]).sandbox)
        registry = load_registry_reporting(config)
        overrides = dict(game=game, bots=tuple(split_bot_list(bots)) if bots else None, games=games, workers=workers,
                         seed=seed, time_limit=time_limit, format=fmt_tournament or ("gauntlet" if gauntlet else None),
                         gauntlet=gauntlet, rounds=rounds, executor=executor, address=address,
                         sandbox=SandboxLimits() if sandbox else None, time_control=time_control,
                         first_move=first_move, clock=clock, openings=openings, openings_order=openings_order,
                         openings_plies=openings_plies, openings_count=openings_count)
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
            kept = store.run(resume).definition.get("sandbox")  # a sandboxed run stays sandboxed
            config = confined_config(config, None if kept is None else SandboxLimits.from_json(kept))
            for directory in gone:
                warn(f"run {resume} loaded bots from {directory}, which no longer exists")
            registry = load_registry_reporting(config)
            opened = resume_run(store, resume, registry)
            if sandbox and opened.run.plan.definition.sandbox is None:
                raise ArenaError(f"run {resume} plays its bots unconfined; a sandboxed run is a new run: "
                                 "give its maps or tournament file with --sandbox")
        else:
            opened = open_run(store, plan, new, config)
        run, run_id = opened.run, opened.run.run_id or 0
        if opened.state == "complete":
            err.print(f"run {run_id} already played this tournament; showing it (--new plays it again)",
                      highlight=False)
            show_standings(run.standings(), fmt)
            print_failures(run_failures(store, run_id), fmt)
            print_time_use(store, run_id, fmt)
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
            try:
                play_stored_run(store, run, registry, config, workers=worker_count, limits=limits,
                                on_game=lambda _: progress.advance(task), executor=choice)
            except ArenaError:  # the executor could not start (say, a cluster refused us): keep no empty run
                if opened.state == "new":
                    store.discard_unplayed_run(run_id)
                raise
        show_standings(run.standings(), fmt)
        print_failures(run_failures(store, run_id), fmt)
        print_time_use(store, run_id, fmt)
        err.print(f"run {run_id} stored in {store.path}; memory capped at {format_bytes(limits.memory_limit or 0)} "
                  f"per worker; Elo, Bradley-Terry and pairwise significance: arena report {run_id}",
                  style="dim", highlight=False)
        if run.interrupted:
            err.print(f"interrupted: {len(run.played)} of {run.plan.total_games()} games played; "
                      f"continue with: arena tournament --resume {run_id}", highlight=False)
            raise typer.Exit(130)
