"""The ``arena`` command line: parse arguments, call the library, render. Nothing else."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.live import Live
from rich.markup import escape
from rich.text import Text

from arena import __version__
from arena.cli_common import (
    BotsDir,
    Format,
    Options,
    Size,
    _check_format,
    _config,
    _emit,
    _registry,
    _short_path,
    err,
    out,
    parse_options,
    user_errors,
    with_size,
)
from arena.errors import ArenaError
from arena.match import DEFAULT_TIME_LIMIT, MatchOutcome, MatchSetup, play, replay_position
from arena.plugins import PluginConfig, load_registry
from arena.runner import load_maps, select_bots

app = typer.Typer(
    help="Run tournaments between game-playing bots, rate them with TrueSkill, and show the standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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
    map_spec: Annotated[str | None, typer.Option(
        "--map", "-m", help="Map file or name [default: empty_room; with --size, snafu_15x15].",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game.")] = 0,
    time_limit: Annotated[float, typer.Option(help="Seconds a bot may think per move.")] = DEFAULT_TIME_LIMIT,
    delay: Annotated[float, typer.Option(help="Seconds between frames on a terminal.")] = 0.08,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Show only the final position.")] = False,
    option: Options = None,
    size: Size = None,
    bots_dir: BotsDir = None,
) -> None:
    """Play one game and show it move by move, then the result and its reason."""
    if time_limit <= 0:
        raise ArenaError("--time-limit must be positive")
    registry = _registry(_config(bots_dir))
    options = parse_options(option)
    (map_name,) = with_size(size, [map_spec] if map_spec else [], options) or ["empty_room"]
    game, (game_map,) = load_maps([map_name], registry, options=options)
    specs = tuple(registry.spec(text) for text in bots)
    for spec in specs:
        if not registry.bot(spec.name).cls.plays(game.name):
            raise ArenaError(f"bot {spec.name!r} does not play {game.name}")
    seats = game.num_players(game_map)
    if len(specs) != seats:
        raise ArenaError(f"{game_map.label} has {seats} seats: give {seats} bots, not {len(specs)}")
    setup = MatchSetup(game.name, specs, game_map, {**game_map.header, **options}, seed, time_limit)

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
    if registry.manager is None:
        return
    for impl in registry.manager.hook.register_commands.get_hookimpls():
        try:
            impl.function(app=app)
        except Exception as exc:  # one broken plugin must not take the command line down
            err.print(f"[yellow]warning:[/] plugin {escape(impl.plugin_name)}: register_commands failed: "
                      f"{escape(f'{type(exc).__name__}: {exc}')}", highlight=False, soft_wrap=True)


from arena import cli_analysis, cli_records, cli_results  # noqa: E402,F401 - register the other commands

_load_plugin_commands()


def main() -> None:
    """Entry point of the ``arena`` console script."""
    app()


__all__ = ["app", "err", "main", "out", "select_bots"]
