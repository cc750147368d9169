"""``arena train catmouse-full`` and ``catmouse-window`` at the terminal: live progress, Ctrl-C to stop
after the current iteration (saving a checkpoint), and the summary. The runs themselves are
:mod:`arena.learning.catmouse.runs`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arena.cli.interrupts import stop_requests
from arena.core.errors import ArenaError
from arena.learning.catmouse.runs import (
    TrainingRun,
    milestone_lines,
    open_full_run,
    open_window_run,
    write_full_policies,
    write_window_policy,
)

STOPPED_EXIT_CODE = 130


def _progress(console: Console) -> Progress:
    return Progress(MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("{task.fields[status]}"), console=console,
                    transient=True, disable=not console.is_terminal)


def _announce(run: TrainingRun, err_console: Console) -> None:
    err_console.print(f"writing the policy to {escape(str(run.out))} and the checkpoint to "
                      f"{escape(str(run.checkpoint))} (kept, so --resume can continue or extend the run)",
                      highlight=False, soft_wrap=True)


def _stopped(run: TrainingRun, iteration: str, err_console: Console) -> None:
    err_console.print(f"stopped at iteration {iteration}; continue with --resume "
                      f"(checkpoint {escape(str(run.checkpoint))})", highlight=False)
    raise typer.Exit(STOPPED_EXIT_CODE)


def train_full(map_spec: str | None, given: dict[str, Any], out: Path | None, checkpoint: Path | None, resume: bool,
               every: int, quiet: bool, out_console: Console, err_console: Console) -> None:
    """Run (or resume) a version-1 training with progress every ``every`` iterations; write both policies."""
    if every < 1:
        raise ArenaError("--every must be at least 1")
    run = open_full_run(map_spec, given, out, checkpoint, resume)
    _announce(run, err_console)
    trainer, settings = run.trainer, run.trainer.settings
    status = _progress(err_console)

    def report(progress: Any) -> None:
        line = (f"iteration {progress.iteration:>7,}: wins cat {progress.wins['cat']:,}, mouse "
                f"{progress.wins['mouse']:,}; now the {progress.winner} wins in {progress.moves} moves, "
                f"distance {progress.distance}; last {every:,}: average moves {progress.mean_moves:.2f}, "
                f"average distance {progress.mean_distance:.2f}")
        if status.disable:
            if not quiet and (progress.iteration % every == 0 or progress.iteration == progress.iterations):
                err_console.print(line, highlight=False)
        else:
            status.update(task, completed=progress.iteration,
                          status=f"wins cat {progress.wins['cat']:,} mouse {progress.wins['mouse']:,} | now "
                                 f"{progress.winner} in {progress.moves}, distance {progress.distance} | average "
                                 f"moves {progress.mean_moves:.1f}, distance {progress.mean_distance:.2f}")
            if progress.iteration % every == 0 and not quiet:
                status.console.print(line, highlight=False)

    with stop_requests() as should_stop, status:
        task = status.add_task("", total=settings.iterations, completed=trainer.iteration, status="")
        finished = trainer.run(report, every=min(every, 1000), should_stop=should_stop,
                               on_checkpoint=lambda _: run.save_checkpoint())
    write_full_policies(run, finished)
    wins = trainer.wins
    winner = ("cat", "mouse")[trainer.winner]
    out_console.print(f"{trainer.iteration:,} iterations ({settings.variant} rules, seed {settings.seed}): the "
                      f"mouse won {wins['mouse']:,}, the cat {wins['cat']:,}; now the {winner} wins in "
                      f"{trainer.moves} moves", highlight=False)
    out_console.print(f"policies for both roles written to {escape(str(run.out))}; play them with "
                      f"hillclimb:policy={escape(str(run.out))}", highlight=False)
    if not finished:
        _stopped(run, f"{trainer.iteration:,}", err_console)


def train_window(map_spec: str | None, given: dict[str, Any], out: Path | None, checkpoint: Path | None,
                 resume: bool, quiet: bool, out_console: Console, err_console: Console) -> None:
    """Run (or resume) a version-2 training, showing each improvement; write the window policy."""
    run = open_window_run(map_spec, given, out, checkpoint, resume)
    _announce(run, err_console)
    trainer, settings = run.trainer, run.trainer.settings
    status = _progress(err_console)
    noun = "wins" if settings.role == "cat" else "escapes"

    def report(progress: Any) -> None:
        score = progress.score
        line = (f"iteration {progress.iteration:>4} (vs {progress.opponent} #{progress.phase_iteration}): "
                f"{noun} {score.wins}/{progress.games}, average moves {score.moves:.3f}, "
                f"average distance {score.distance:.4f}{' (improved)' if progress.improved else ''}")
        if status.disable:
            if not quiet:
                err_console.print(line, highlight=False)
        else:
            status.update(task, completed=progress.iteration,
                          status=f"vs {progress.opponent} | {noun} {score.wins}/{progress.games} | average moves "
                                 f"{score.moves:.2f}, distance {score.distance:.3f} | "
                                 f"{progress.games_per_second:,.0f} games/s")
            if progress.improved and not quiet:
                status.console.print(line, highlight=False)

    with stop_requests() as should_stop, status:
        task = status.add_task("", total=settings.iterations, completed=trainer.iteration, status="")
        finished = trainer.run(report, should_stop=should_stop, on_checkpoint=lambda _: run.save_checkpoint())
    kept = write_window_policy(run, finished)
    for line in milestone_lines(trainer.milestones, settings.games, noun):
        out_console.print(line, highlight=False)
    score = trainer.score
    out_console.print(f"after {trainer.iteration} iterations (seed {settings.seed}) vs {trainer.opponent}: {noun} "
                      f"{score.wins}/{settings.games}, average moves {score.moves:.3f}, average distance "
                      f"{score.distance:.4f}; {trainer.played:,} games at {trainer.games_per_second():,.0f} games/s",
                      highlight=False)
    kept_note = f" (kept the {', '.join(kept)} policy already there)" if kept else ""
    out_console.print(f"{settings.role} window policy written to {escape(str(run.out))}{kept_note}; play it on any "
                      f"board with hillclimb:policy={escape(str(run.out))}", highlight=False)
    if not finished:
        _stopped(run, str(trainer.iteration), err_console)
