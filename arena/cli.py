"""The ``arena`` command line: parse arguments, call the library, render. Nothing else."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from arena import __version__
from arena.bot import split_bot_list
from arena.errors import ArenaError
from arena.executors import default_workers
from arena.match import DEFAULT_TIME_LIMIT, MatchOutcome, MatchSetup, play, replay_position
from arena.plugins import PluginConfig, Registry, load_registry
from arena.report import FORMATS, export, render_console
from arena.runner import load_maps, plan_round_robin, play_schedule, select_bots

app = typer.Typer(
    help="Run tournaments between game-playing bots, rate them with TrueSkill, and show the standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

BotsDir = Annotated[list[Path] | None, typer.Option(
    "--bots-dir", help="Another directory of bot modules (repeatable).", show_default=False)]
Format = Annotated[str, typer.Option("--format", "-f", help=f"Output format: {', '.join(FORMATS)}.")]


def user_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn an :class:`ArenaError` into one line on stderr and exit status 1."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except ArenaError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None

    return wrapper


def _config(bots_dir: list[Path] | None) -> PluginConfig:
    return PluginConfig(bot_dirs=tuple(str(d) for d in bots_dir or ()))


def _registry(config: PluginConfig) -> Registry:
    registry = load_registry(config)
    for problem in registry.problems:
        err.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    return registry


def _short_path(source: str) -> str:
    try:
        return str(Path(source).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return source


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ArenaError(f"--format {fmt!r} is not one of: {', '.join(FORMATS)}")


def _emit(headers: list[str], rows: list[list[str]], fmt: str, title: str) -> None:
    from tabulate import tabulate

    if fmt == "table":
        table = Table(title=title, title_justify="left")
        for index, header in enumerate(headers):
            table.add_column(header, no_wrap=index == 0, overflow="fold")
        for row in rows:
            table.add_row(*(escape(cell) for cell in row))
        out.print(table)
    elif fmt == "json":
        import json

        out.print_json(json.dumps([dict(zip(headers, row, strict=True)) for row in rows]))
    elif fmt == "csv":
        import csv
        import io

        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows([headers, *rows])
        typer.echo(buffer.getvalue(), nl=False)
    else:
        typer.echo(tabulate(rows, headers, tablefmt="github"))


@app.command("games")
@user_errors
def games_command(fmt: Format = "table", bots_dir: BotsDir = None) -> None:
    """List the games the plugins registered."""
    _check_format(fmt)
    registry = _registry(_config(bots_dir))
    rows = []
    for name, game in sorted(registry.games.items()):
        players = str(game.min_players) if game.min_players == game.max_players else \
            f"{game.min_players}-{game.max_players}"
        options = ", ".join(f"{k} ({'|'.join(o.choices)})" for k, o in game.options.items())
        rows.append([name, players, ", ".join(game.roles) or "-", options or "-", game.description])
    _emit(["game", "players", "roles", "options", "description"], rows, fmt, "Games")


@app.command("bots")
@user_errors
def bots_command(
    game: Annotated[str | None, typer.Option(help="Only bots that play this game.")] = None,
    fmt: Format = "table",
    bots_dir: BotsDir = None,
) -> None:
    """List the bots found: name, games, version (hash of the source) and where each was found."""
    _check_format(fmt)
    registry = _registry(_config(bots_dir))
    if game is not None:
        registry.game(game)
    rows = [
        [entry.name, ", ".join(entry.games), entry.version, _short_path(entry.source), entry.description]
        for name, entry in sorted(registry.bots.items())
        if game is None or entry.cls.plays(game)
    ]
    _emit(["bot", "games", "version", "found in", "description"], rows, fmt, "Bots")


@app.command("plugins")
@user_errors
def plugins_command(fmt: Format = "table", bots_dir: BotsDir = None) -> None:
    """List the loaded plugins: built-ins, entry points (group "arena") and bot directories."""
    _check_format(fmt)
    registry = _registry(_config(bots_dir))
    rows = [[p.name, p.kind, p.location, ", ".join(p.hooks)] for p in registry.plugins]
    _emit(["plugin", "kind", "location", "hooks"], rows, fmt, "Plugins")


@app.command("play")
@user_errors
def play_command(
    bots: Annotated[list[str], typer.Argument(help="One bot spec per seat, e.g. random floodfill.")],
    map_spec: Annotated[str, typer.Option("--map", "-m", help="Map file or name.")] = "empty_room",
    seed: Annotated[int, typer.Option(help="Seed of the game.")] = 0,
    time_limit: Annotated[float, typer.Option(help="Seconds a bot may think per move.")] = DEFAULT_TIME_LIMIT,
    delay: Annotated[float, typer.Option(help="Seconds between frames on a terminal.")] = 0.08,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Show only the final position.")] = False,
    bots_dir: BotsDir = None,
) -> None:
    """Play one game and show it move by move, then the result and its reason."""
    if time_limit <= 0:
        raise ArenaError("--time-limit must be positive")
    registry = _registry(_config(bots_dir))
    game, (game_map,) = load_maps([map_spec], registry)
    specs = tuple(registry.spec(text) for text in bots)
    for spec in specs:
        if not registry.bot(spec.name).cls.plays(game.name):
            raise ArenaError(f"bot {spec.name!r} does not play {game.name}")
    seats = game.num_players(game_map)
    if len(specs) != seats:
        raise ArenaError(f"{game_map.label} has {seats} seats: give {seats} bots, not {len(specs)}")
    setup = MatchSetup(game.name, specs, game_map, dict(game_map.header), seed, time_limit)

    legend = "  ".join(f"{seat + 1}={spec.label}" for seat, spec in enumerate(specs))
    animate = out.is_terminal and not quiet

    def frame(state: Any, actions: Any) -> Text:
        moves = " ".join(f"{seat + 1}:{action}" for seat, action in sorted(actions.items()))
        turn_line = f"turn {len(frames_seen)}  {moves}\n" if actions else "start\n"
        return Text.from_markup(escape(turn_line) + state.render(color=True))

    frames_seen: list[int] = []
    out.print(f"[bold]{game.name}[/] on {escape(game_map.name)}, seed {seed}: {escape(legend)}")
    if animate:
        with Live(console=out, auto_refresh=False) as live:
            def on_turn(state: Any, actions: Any) -> None:
                frames_seen.append(1)
                live.update(frame(state, actions), refresh=True)
                time.sleep(delay)

            outcome = play(setup, registry, on_turn)
    else:
        def on_turn(state: Any, actions: Any) -> None:
            frames_seen.append(1)
            if not quiet:
                out.print(frame(state, actions))

        outcome = play(setup, registry, on_turn)
        if quiet:
            out.print(Text.from_markup(replay_position(setup, outcome, registry).render(color=True)))
    _print_result(outcome, specs)


def _print_result(outcome: MatchOutcome, specs: Any) -> None:
    placing = ", ".join(f"{spec.label}: {rank}" for spec, rank in zip(specs, outcome.ranks, strict=True))
    out.print(f"[bold]Result[/] after {outcome.turns} turns: {escape(placing)} (rank 1 is best)")
    out.print(f"[bold]Reason:[/] {escape(outcome.reason)}")
    think = ", ".join(f"{spec.label} {t:.3f} s" for spec, t in zip(specs, outcome.think_time, strict=True))
    out.print(f"Thinking time: {escape(think)}", style="dim")


class _RateColumn(ProgressColumn):
    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "- games/s", style="progress.data.speed")


@app.command("tournament")
@user_errors
def tournament_command(
    maps: Annotated[list[str], typer.Argument(help="Map files or names; every pairing plays on every map.")],
    bots: Annotated[list[str] | None, typer.Option(
        "--bots", "-b", help="Bot specs, comma separated (default: every bot that plays the game).",
        show_default=False)] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per pairing per map (rounded up so every "
                                       "seating plays equally often).")] = 10,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Worker processes (default: all cores).",
                                                show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Tournament seed; each game's seed derives from it.")] = 0,
    time_limit: Annotated[float, typer.Option(help="Seconds a bot may think per move.")] = DEFAULT_TIME_LIMIT,
    fmt: Format = "table",
    bots_dir: BotsDir = None,
) -> None:
    """Run a round robin on the maps and print TrueSkill standings and head-to-head scores."""
    _check_format(fmt)
    config = _config(bots_dir)
    registry = _registry(config)
    run = plan_round_robin(maps, split_bot_list(bots or []), registry, games=games, seed=seed, time_limit=time_limit)
    workers = default_workers() if workers is None else workers

    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), _RateColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), console=err, disable=not err.is_terminal, transient=True,
    )
    with progress:
        task = progress.add_task("games", total=len(run.setups))
        play_schedule(run, registry, config, workers, lambda _: progress.advance(task))

    standings = run.standings()
    if fmt == "table":
        render_console(standings, out)
    else:
        typer.echo(export(standings, fmt), nl=False)
    if run.interrupted:
        err.print(f"interrupted: {len(run.outcomes)} of {len(run.setups)} games played", highlight=False)
        raise typer.Exit(130)


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[bool, typer.Option("--version", help="Show the version and exit.")] = False,
) -> None:
    if version:
        typer.echo(f"arena {__version__}")
        raise typer.Exit()


def _load_plugin_commands() -> None:
    try:
        registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    except ArenaError:
        return
    if registry.manager is not None:
        registry.manager.hook.register_commands(app=app)


_load_plugin_commands()


def main() -> None:
    """Entry point of the ``arena`` console script."""
    app()


__all__ = ["app", "main", "select_bots"]
