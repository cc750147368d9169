"""The ``ladder`` command: continue the persistent TrueSkill ladder of a game by some rounds."""

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
    SandboxFlag,
    StartupTimeout,
    emit_table,
    err,
    games_progress,
    load_registry_reporting,
    plugin_config,
    user_errors,
    warn,
)
from arena.cli.format_options import OutputFormatOption, output_format
from arena.cli.panels import PLAY
from arena.cli.timing import ClockOption, FirstMove, TimeControlOption, TimeLimit, timing
from arena.core.errors import ArenaError
from arena.play.executor_choice import ExecutorChoice
from arena.play.executors import default_workers
from arena.play.limits import Limits, default_memory_limit
from arena.play.sandbox import SandboxLimits, require_sandbox
from arena.storage.store import Store
from arena.tournament.persistent_ladder import NEVER, LadderRound, check_ladder_maps, plan_round, play_round
from arena.tournament.selection import default_maps, load_maps


@app.command("ladder", rich_help_panel=PLAY)
@user_errors
def ladder_command(
    maps: Annotated[list[str] | None, typer.Argument(
        help="Maps the rounds cycle through [default: the default maps of the game whose maps need no header].",
        show_default=False)] = None,
    rounds: Annotated[int, typer.Option(help="Rounds to play now.")] = 1,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per pairing per round.")] = 2,
    seed: Annotated[int, typer.Option(help="Seed; each round's games derive from it and the round number.")] = 0,
    time_limit: TimeLimit = None,
    time_control: TimeControlOption = None,
    first_move: FirstMove = None,
    clock: ClockOption = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", show_default=False,
                                                help="Worker processes [default: all cores].")] = None,
    sandbox: SandboxFlag = False,
    build_timeout: BuildTimeout = None,
    startup_timeout: StartupTimeout = None,
    db: Db = None,
    formats: OutputFormatOption = None,
    bots_dir: BotsDir = None,
    executor: ExecutorName = None,
    address: Address = None,
) -> None:
    """Continue the persistent TrueSkill ladder by N rounds; bots new in bots/ join automatically."""
    fmt = output_format(formats)
    if rounds < 1 or games < 1:
        raise ArenaError("--rounds and --games must be at least 1")
    move_limit, control = timing(time_limit, time_control, first_move, clock)
    config = plugin_config(bots_dir, build_timeout, startup_timeout, SandboxLimits() if sandbox else None)
    registry = load_registry_reporting(config)
    game, game_maps = load_maps(maps or default_maps(registry), registry)
    check_ladder_maps(game, game_maps)
    sandbox_limits = SandboxLimits() if sandbox else None
    if sandbox_limits is not None:
        require_sandbox()
    limits = Limits(memory_limit=default_memory_limit(workers or default_workers()), sandbox=sandbox_limits)
    with Store(db) as store, ExecutorChoice(executor or "local", address).start(workers, config, limits,
                                                                              registry) as pool:
        for _ in range(rounds):
            planned = plan_round(store, registry, game, game_maps, sandbox_limits, games)
            for line in planned.left_out:
                warn(line)
            with games_progress() as progress:
                task = progress.add_task(f"ladder round {planned.number}", total=planned.game_count(games))
                played = play_round(store, registry, pool, game, game_maps, games, seed, move_limit,
                                    lambda _: progress.advance(task),  # noqa: B023 - called only in this round
                                    planned=planned, time_control=control, sandbox=sandbox_limits)
            err.print(ladder_round_summary(played, len(planned.entries)), highlight=False, soft_wrap=True)
        ladder = store.ladder(game.name)
        bots = {row["id"]: row for row in store.bot_rows()}
    live = {(entry.name, entry.version) for entry in registry.bots.values()}
    rows = [[bots[bot]["label"], bots[bot]["version"], f"{mu - 3 * sigma:.2f}", f"{mu:.2f} ± {sigma:.2f}",
             str(played_games), "never" if last == NEVER else str(last),
             "playing" if (bots[bot]["name"], bots[bot]["version"]) in live else "retired"]
            for (bot, _), (mu, sigma, played_games, last, *_) in sorted(ladder.items(),
                                                                          key=lambda kv: -(kv[1].mu - 3 * kv[1].sigma))]
    emit_table(["bot", "version", "mu-3σ", "mu ± σ", "games", "last round", "status"], rows, fmt, f"{game.name} ladder",
               names=("bot", "version", "status"))


def ladder_round_summary(played: LadderRound, bots: int) -> str:
    """What a ladder round did, in one sentence."""
    sat_out = f"; {', '.join(played.sat_out)} sat out (a round plays one match per two bots)" if played.sat_out else ""
    return (f"round {played.number} (run {played.run_id}): {bots} bots in {len(played.pairs)} pairings played "
            f"{played.games} games{sat_out}")


__all__ = ["ladder_round_summary"]
