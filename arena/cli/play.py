"""``arena play``: one game shown move by move, then its result and reason."""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from typing import Annotated, Any

import typer
from rich.live import Live
from rich.markup import escape
from rich.text import Text

from arena.cli.app import app
from arena.cli.common import (
    BotsDir,
    BuildTimeout,
    Options,
    SandboxFlag,
    Size,
    StartupTimeout,
    load_registry_reporting,
    out,
    parse_options,
    plugin_config,
    user_errors,
)
from arena.cli.panels import PLAY
from arena.cli.players import seat_names, with_bot_names
from arena.cli.timing import ClockOption, FirstMove, TimeControlOption, TimeLimit, timing
from arena.core.bot import BotSpec
from arena.core.game import player_name
from arena.play.referee import MatchOutcome, play, replay_position
from arena.play.sandbox import SandboxLimits
from arena.play.sandbox.players import SandboxedBots
from arena.play.strays import swept
from arena.report.time_use import time_use_lines
from arena.storage.sources import use_stored_versions
from arena.tournament.single_game import single_game


@app.command("play", rich_help_panel=PLAY)
@user_errors
def play_command(
    bots: Annotated[list[str], typer.Argument(help="One bot spec per seat, e.g. random floodfill.")],
    map_spec: Annotated[str | None, typer.Option(
        "--map", "-m", help="Map file or name [default: the first default map of the game all the bots play, as "
        "`arena games` lists them].",
        show_default=False)] = None,
    game_name: Annotated[str | None, typer.Option(
        "--game", metavar="GAME", help="The game to play [default: the game all the bots play]; one played "
        "without maps (such as openspiel:connect_four) is set up by its options (-o).", show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game.")] = 0,
    time_limit: TimeLimit = None,
    time_control: TimeControlOption = None,
    first_move: FirstMove = None,
    clock: ClockOption = None,
    delay: Annotated[float, typer.Option(min=0, help="Seconds between frames on a terminal (0 or more).")] = 0.08,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Show only the final position.")] = False,
    option: Options = None,
    size: Size = None,
    sandbox: SandboxFlag = False,
    build_timeout: BuildTimeout = None,
    startup_timeout: StartupTimeout = None,
    bots_dir: BotsDir = None,
) -> None:
    """Play one game and show it move by move, then the result and its reason.

    Players are numbered from 1, as the board draws them. In a game with roles, each bot is seated in a role it
    plays (cat and mouse: the cat is player 1). Without colours (output piped, or NO_COLOR set), each
    player's trail is drawn with its own letter.
    """
    move_limit, control = timing(time_limit, time_control, first_move, clock)
    config = plugin_config(bots_dir, build_timeout, startup_timeout, SandboxLimits() if sandbox else None)
    registry = load_registry_reporting(config)
    bots, config = use_stored_versions(bots, None, registry, config)
    game, game_map, setup = single_game(bots, registry, map_spec=map_spec, size=size, options=parse_options(option),
                                        seed=seed, time_limit=move_limit, time_control=control,
                                        game_name=game_name)
    specs = setup.bots
    make_bot = SandboxedBots(config, SandboxLimits(), registry) if sandbox else None

    names = seat_names([spec.label for spec in specs], game.roles)
    animate = out.is_terminal and not quiet
    colour = out.color_system is not None  # else the plain drawing, which tells players apart without colour

    def frame(state: Any, actions: Any) -> Text:
        moves = " ".join(f"{seat + 1}:{action}" for seat, action in sorted(actions.items()))
        turn_line = f"turn {len(frames_seen)}  {moves}\n" if actions else "start\n"
        return Text.from_markup(escape(turn_line) + state.render(color=colour))

    frames_seen: list[int] = []
    out.print(f"[bold]{game.name}[/] on {escape(game_map.name)}, seed {seed}: {escape('  '.join(names))}")
    if animate:
        with Live(console=out, auto_refresh=False) as live:
            def on_turn(state: Any, actions: Any) -> None:
                frames_seen.append(1)
                live.update(frame(state, actions), refresh=True)
                time.sleep(delay)

            outcome = swept(setup, registry, make_bot, partial(play, setup, registry, on_turn, make_bot=make_bot))
    else:
        def on_turn(state: Any, actions: Any) -> None:
            frames_seen.append(1)
            if not quiet:
                out.print(frame(state, actions))

        outcome = swept(setup, registry, make_bot, partial(play, setup, registry, on_turn, make_bot=make_bot))
        if quiet:
            out.print(Text.from_markup(replay_position(setup, outcome, registry).render(color=colour)))
    _print_result(outcome, specs, names)
    if not control.is_plain or move_limit is None:
        _print_time_use(outcome.record(setup), names)


def _print_result(outcome: MatchOutcome, specs: Sequence[BotSpec], names: Sequence[str]) -> None:
    placing = ", ".join(f"{name} rank {rank}" for name, rank in zip(names, outcome.ranks, strict=True))
    out.print(f"[bold]Result[/] after {outcome.turns} turns: {escape(placing)} (rank 1 is best)", soft_wrap=True)
    out.print(f"[bold]Reason:[/] {escape(with_bot_names(outcome.reason, [spec.label for spec in specs]))}",
              soft_wrap=True)
    think = ", ".join(f"{name} {t:.3f} s" for name, t in zip(names, outcome.think_time, strict=True))
    out.print(f"Thinking time: {escape(think)}", style="dim", soft_wrap=True)
    for seat, failure in sorted(outcome.failures.items()):
        if failure.traceback:
            out.print(f"Traceback of {player_name(seat)} ({escape(specs[seat].label)}), its own code:",
                      highlight=False)
            out.print(failure.traceback, markup=False, highlight=False, soft_wrap=True)
    for seat, text in sorted(outcome.stderr.items()):
        out.print(f"Log of {player_name(seat)} ({escape(specs[seat].label)}):", style="dim", highlight=False)
        for line in text.rstrip("\n").splitlines():
            out.print(f"  {line}", style="dim", markup=False, highlight=False, soft_wrap=True)
    if outcome.strays:
        out.print(f"{outcome.strays} process(es) the bots started outlived the game and were killed (not known to be "
                  "one player's)", style="dim", soft_wrap=True)




def _print_time_use(record: dict[str, Any], names: Sequence[str]) -> None:
    for line in time_use_lines(record, names):
        out.print(escape(line), style="dim", soft_wrap=True)
