"""Training runs and solves as the command line runs them: settings from options, maps and checkpoints,
live progress, Ctrl-C to stop (saving a checkpoint), ``--resume`` to go on."""

from __future__ import annotations

import dataclasses
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from arena.core.errors import ArenaError
from arena.core.maps import GameMap, resolve_map
from arena.games.catmouse.board import CAT, MOUSE, Layout
from arena.games.catmouse.game import CatMouseGame, move_limit
from arena.games.catmouse.layouts import layout_from_map, layout_rows
from arena.games.catmouse.policies import Policy, PolicyError, load_policy, save_policy

DEFAULT_FULL_MAP = "catmouse_8x7"
DEFAULT_WINDOW_MAP = "catmouse_5x5"
DEFAULT_OPPONENTS = {"cat": ("random", "wary"), "mouse": ("random", "greedy")}


def load_board(spec: str) -> tuple[GameMap, Layout, dict[str, str]]:
    """A catmouse map, its board and its resolved options."""
    game_map = resolve_map(spec)
    game = game_map.header.get("game", "tron")
    if game != CatMouseGame.name:
        raise ArenaError(f"{game_map.label} is a {game} map, not a catmouse map")
    layout = layout_from_map(game_map)
    try:
        options = CatMouseGame.resolve_options(game_map.header)
    except ArenaError as exc:
        raise ArenaError(f"{game_map.label}: {exc}") from None
    return game_map, layout, options


def checkpoint_path(out: Path, checkpoint: Path | None) -> Path:
    """The checkpoint file: as given, else the policy file's name with ``.checkpoint.json``."""
    return checkpoint if checkpoint is not None else out.with_name(out.stem + ".checkpoint.json")


@contextmanager
def stop_requests() -> Iterator[Callable[[], bool]]:
    """While active, Ctrl-C asks the run to stop after the current iteration instead of killing it."""
    requested = [False]

    def handler(signum: int, frame: Any) -> None:
        requested[0] = True

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: Ctrl-C cannot reach us anyway
        yield lambda: requested[0]
        return
    try:
        yield lambda: requested[0]
    finally:
        signal.signal(signal.SIGINT, previous)


def merge_settings(stored: Any, given: dict[str, Any], resumable: tuple[str, ...] = ("iterations",)) -> Any:
    """Settings of a resumed run: the stored ones, where every option given must agree (``iterations`` may grow)."""
    changes = {}
    for key, value in given.items():
        if value is None:
            continue
        current = getattr(stored, key)
        if key in resumable:
            changes[key] = value
        elif value != current:
            raise ArenaError(f"--{key.replace('_', '-')} {value!r} differs from the checkpoint's {current!r}; "
                             "leave it out to resume, or start afresh without --resume")
    return dataclasses.replace(stored, **changes)


def damaged_guard(path: Path, build: Callable[[], Any]) -> Any:
    """``build()``, with a damaged checkpoint (missing or malformed fields) reported in one line."""
    try:
        return build()
    except ArenaError as exc:
        raise ArenaError(f"{path}: the checkpoint is damaged ({exc})") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ArenaError(f"{path}: the checkpoint is damaged ({type(exc).__name__}: {exc})") from None


def resumed_settings(path: Path, kind: str, from_json: Any, map_spec: str | None, given: dict[str, Any]
                     ) -> tuple[dict[str, Any], Any]:
    """A checkpoint's data and its settings with the given ones applied, checked against ``--map``."""
    from arena.learning.catmouse.checkpoint import load_checkpoint

    data = load_checkpoint(path, kind)
    settings = damaged_guard(path, lambda: from_json(data["settings"]))
    if map_spec is not None:
        _, layout, _ = load_board(map_spec)
        if tuple(layout_rows(layout)) != settings.board:
            raise ArenaError(f"--map {map_spec} is not the board of the checkpoint; leave it out to resume")
    settings = merge_settings(settings, given)
    if settings.iterations < data["iteration"]:
        raise ArenaError(f"--iterations {settings.iterations} is fewer than the {data['iteration']} "
                         "the checkpoint has done")
    return data, settings


def _progress(console: Console) -> Progress:
    return Progress(MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("{task.fields[status]}"), console=console,
                    transient=True, disable=not console.is_terminal)


def train_full(map_spec: str | None, given: dict[str, Any], out: Path | None, checkpoint: Path | None, resume: bool,
               every: int, quiet: bool, out_console: Console, err_console: Console) -> None:
    """``arena train catmouse-full``: run (or resume) a version-1 training and write both policies."""
    from arena.learning.catmouse.checkpoint import save_checkpoint
    from arena.learning.catmouse.full import FullSettings, FullTrainer

    if every < 1:
        raise ArenaError("--every must be at least 1")
    out = out or Path("catmouse-full.json")
    path = checkpoint_path(out, checkpoint)
    if resume:
        data, settings = resumed_settings(path, "full", FullSettings.from_json, map_spec, given)
        trainer = damaged_guard(path, lambda: FullTrainer(settings, data))
    else:
        _, layout, options = load_board(map_spec or DEFAULT_FULL_MAP)
        values = {key: value for key, value in given.items() if value is not None}
        values.setdefault("first", options["first"])
        settings = FullSettings(tuple(layout_rows(layout)), **values)
        trainer = FullTrainer(settings)

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

    def save(run: FullTrainer) -> None:
        save_checkpoint(path, "full", run.checkpoint())

    with stop_requests() as should_stop, status:
        task = status.add_task("", total=settings.iterations, completed=trainer.iteration, status="")
        finished = trainer.run(report, every=min(every, 1000), should_stop=should_stop, on_checkpoint=save)
    save(trainer)
    save_policy(trainer.policy({"complete": finished}), out)
    wins = trainer.wins
    winner = ("cat", "mouse")[trainer.winner]
    out_console.print(f"{trainer.iteration:,} iterations ({settings.variant} rules, seed {settings.seed}): the "
                      f"mouse won {wins['mouse']:,}, the cat {wins['cat']:,}; now the {winner} wins in "
                      f"{trainer.moves} moves", highlight=False)
    out_console.print(f"policies for both roles written to {escape(str(out))}; play them with "
                      f"hillclimb:policy={escape(str(out))}", highlight=False)
    if not finished:
        err_console.print(f"stopped at iteration {trainer.iteration:,}; continue with --resume "
                          f"(checkpoint {escape(str(path))})", highlight=False)
        raise typer.Exit(130)


def train_window(map_spec: str | None, given: dict[str, Any], out: Path | None, checkpoint: Path | None,
                 resume: bool, quiet: bool, out_console: Console, err_console: Console) -> None:
    """``arena train catmouse-window``: run (or resume) a version-2 training and write the window policy."""
    from arena.learning.catmouse.checkpoint import save_checkpoint
    from arena.learning.catmouse.window import WindowSettings, WindowTrainer

    out = out or Path("catmouse-window.json")
    path = checkpoint_path(out, checkpoint)
    if resume:
        data, settings = resumed_settings(path, "window", WindowSettings.from_json, map_spec, given)
        trainer = damaged_guard(path, lambda: WindowTrainer(settings, data))
    else:
        _, layout, options = load_board(map_spec or DEFAULT_WINDOW_MAP)
        values = {key: value for key, value in given.items() if value is not None}
        role = values.setdefault("role", "cat")
        values.setdefault("opponents", DEFAULT_OPPONENTS.get(role, ()))
        values.setdefault("first", options["first"])
        values.setdefault("repeat", options["repeat"] == "on")
        if "max_moves" not in values:
            limit = move_limit(options, layout)
            if limit is None:
                raise ArenaError("window training needs a move limit: give --max-moves")
            values["max_moves"] = limit
        settings = WindowSettings(tuple(layout_rows(layout)), **values)
        trainer = WindowTrainer(settings)
    existing = _existing_window_policy(out, settings.role)

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

    def save(run: WindowTrainer) -> None:
        save_checkpoint(path, "window", run.checkpoint())

    with stop_requests() as should_stop, status:
        task = status.add_task("", total=settings.iterations, completed=trainer.iteration, status="")
        finished = trainer.run(report, should_stop=should_stop, on_checkpoint=save)
    save(trainer)
    policy = trainer.policy({"complete": finished})
    if existing is not None:
        policy.moves = {**existing.moves, **policy.moves}
        policy.training = {**existing.training, **policy.training}
    save_policy(policy, out)
    for line in milestone_lines(trainer.milestones, settings.games, noun):
        out_console.print(line, highlight=False)
    score = trainer.score
    out_console.print(f"after {trainer.iteration} iterations (seed {settings.seed}) vs {trainer.opponent}: {noun} "
                      f"{score.wins}/{settings.games}, average moves {score.moves:.3f}, average distance "
                      f"{score.distance:.4f}; {trainer.played:,} games at {trainer.games_per_second():,.0f} games/s",
                      highlight=False)
    kept = f" (kept the {', '.join(sorted(set(existing.moves) - {settings.role}))} policy already there)" \
        if existing is not None and set(existing.moves) - {settings.role} else ""
    out_console.print(f"{settings.role} window policy written to {escape(str(out))}{kept}; play it on any board "
                      f"with hillclimb:policy={escape(str(out))}", highlight=False)
    if not finished:
        err_console.print(f"stopped at iteration {trainer.iteration}; continue with --resume "
                          f"(checkpoint {escape(str(path))})", highlight=False)
        raise typer.Exit(130)


def milestone_lines(milestones: list[dict[str, Any]], games: int, noun: str) -> list[str]:
    """The milestones of a window run in words."""
    lines = []
    for milestone in milestones:
        if milestone["event"] == "start":
            lines.append(f"iteration {milestone['iteration']}: starts against {milestone['opponent']} with "
                         f"{noun} {milestone['wins']}/{games}")
        else:
            lines.append(f"iteration {milestone['iteration']}: {noun} {games}/{games} against "
                         f"{milestone['opponent']}, {milestone['phase_iteration']} iterations after starting on it")
    return lines


def _existing_window_policy(out: Path, role: str) -> Policy | None:
    if not out.exists():
        return None
    try:
        policy = load_policy(out)
    except PolicyError:
        return None
    return policy if policy.kind == "window" else None


def solve_maps(specs: list[str], console: Console) -> None:
    """``arena solve catmouse``: the perfect-play result of each map under its options."""
    from arena.games.catmouse.solver import cached_solution

    if not specs:
        raise ArenaError("give at least one map")
    table = Table(title="Perfect play", title_justify="left")
    for header in ("map", "board", "first", "winner", "moves", "mouse moves allowed"):
        table.add_column(header)
    for spec in specs:
        game_map, layout, options = load_board(spec)
        solution = cached_solution(layout)
        first = CAT if options["first"] == "cat" else MOUSE
        plies = solution.moves_to_catch(layout.cat_start, layout.mouse_start, first)
        limit = move_limit(options, layout)
        winner = "mouse"
        if plies is not None and (limit is None or mouse_moves_before_catch(plies, first) < limit):
            winner = "cat"
        table.add_row(escape(game_map.name), f"{layout.height}x{layout.width}", options["first"], winner,
                      "-" if plies is None else str(plies), "unlimited" if limit is None else str(limit))
    console.print(table)


def mouse_moves_before_catch(plies: int, first: int) -> int:
    """How many moves the mouse has completed before the move ``plies`` (of both players) that catches it."""
    return (plies - 1) // 2 if first == CAT else plies // 2


def parity(smallest: int, largest: int, fmt: str, console: Console) -> None:
    """``arena solve catmouse-parity``: the solver's verdict against the article's parity claim."""
    from arena.games.catmouse.parity import parity_table

    if fmt not in ("table", "md"):
        raise ArenaError(f"--format {fmt!r} is not one of: table, md")
    if not 1 <= smallest <= largest or largest > 30:
        raise ArenaError("give 1 <= --min <= --max <= 30")
    if largest * largest < 2:
        raise ArenaError("a board needs at least two cells")
    text = parity_table(smallest, largest)
    if fmt == "md":
        typer.echo(text.markdown())
    else:
        console.print("The winner with perfect play from the corners, and the move (of both players) that "
                      "catches the mouse; rows down, columns across.", highlight=False)
        for first, rows in text.cells.items():
            table = Table(title=f"{first.capitalize()} moves first", title_justify="left")
            table.add_column("rows")
            for cols in text.sizes:
                table.add_column(str(cols), justify="right")
            for size, row in zip(text.sizes, rows, strict=True):
                table.add_row(str(size), *row)
            console.print(table)
        console.print(text.summary(), highlight=False)
