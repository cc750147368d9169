"""The pawn-race commands: ``arena solve pawnrace`` (perfect play on small boards), ``arena solve
pawnrace-claims`` (the paper's claims about small boards against the solver) and ``arena train pawnrace-td``
(tabular TD(lambda) self-play)."""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from arena.cli.common import (
    Options,
    command_group,
    err,
    games_progress,
    out,
    parse_options,
    user_errors,
)
from arena.cli.interrupts import stop_requests
from arena.cli.panels import RESEARCH
from arena.cli.reading_options import Init, LossReward, NetworkInputs, TableKey
from arena.core.errors import ArenaError
from arena.core.json_files import json_text, read_json_file
from arena.core.maps import resolve_map
from arena.engines.pawnrace.solver import Verdict, verdict
from arena.engines.pawnrace.td_model import save_model
from arena.games.pawnrace.game import PawnRaceGame, setup_from
from arena.games.pawnrace.rules import Setup
from arena.learning.pawnrace.readings import check_resumed, td_settings
from arena.learning.pawnrace.study import TRAINERS, PawnRaceStudy, key_note
from arena.learning.pawnrace.td_table import TdSettings
from arena.stats.playability import playability

PAPER = "Kalles and Kanellopoulos (2001)"
STUDY = PawnRaceStudy()
CHECKPOINT_FORMAT = "arena-pawnrace-td-checkpoint/1"


def add_commands(app: typer.Typer) -> None:
    """Add the pawn-race commands to the ``arena`` application."""
    solve = command_group(app, "solve", "Solve games exactly.", RESEARCH)
    solve.command("pawnrace")(user_errors(solve_command))
    solve.command("pawnrace-claims")(user_errors(claims_command))
    train = command_group(app, "train", "Train learning bots and reproduce published training runs.", RESEARCH)
    train.command("pawnrace-td")(user_errors(train_td_command))


def train_td_command(
    map_spec: Annotated[str, typer.Option("--map", "-m", help="The configuration to learn.")] = "pawnrace_5x5",
    option: Options = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Self-play games in all (a resumed run may raise it).")]
    = 5000,
    lam: Annotated[float, typer.Option("--lambda", help="Trace decay lambda.")] = 0.5,
    learning_rate: Annotated[float | None, typer.Option(
        "--learning-rate", "--alpha", help="The learning rate alpha; 0 is the no-learning control [default: 0.001].",
        show_default=False)] = None,
    init: Init = None,
    loss_reward: LossReward = None,
    network_inputs: NetworkInputs = None,
    key: TableKey = None,
    greedy: Annotated[float, typer.Option(help="Share of moves that are greedy (the rest are random).")] = 0.9,
    block: Annotated[int, typer.Option(help="Games per block of statistics (and per checkpoint).")] = 10_000,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    out: Annotated[Path, typer.Option("--out", help="Model file to write.")] = Path("runs/pawnrace-td/model.json"),
    resume: Annotated[bool, typer.Option("--resume", help="Continue the run saved beside the model file.")] = False,
    learner: Annotated[str, typer.Option(help="table (tabular) or network (nn: one neural network per side).")]
    = "table",
    fmt: Annotated[str, typer.Option("--format", "-f", help="Output format: table (a line per block) or json.")]
    = "table",
) -> None:
    """TD(lambda) self-play (Kalles and Kanellopoulos 2001): both sides learn; statistics per block."""
    if fmt not in ("table", "json"):
        raise ArenaError(f"--format {fmt!r} is not one of: table, json")
    checkpoint = out.with_name(out.stem + ".checkpoint.json")
    learner = STUDY.learner_named(learner)
    given = {"init": init, "loss_reward": loss_reward, "learning_rate": learning_rate,
             "network_inputs": network_inputs, "key": key}
    readings = {name: value for name, value in given.items() if value is not None}
    if resume:
        data = load_model_checkpoint(checkpoint)
        settings = replace(TdSettings(**data["settings"]), games=games)
        check_resumed(settings, readings)
        learner = data.get("learner", "table")
        trainer = TRAINERS[learner](settings, data)
    else:
        setup = setup_from(map_spec, parse_options(option))
        settings = td_settings(setup, learner, games, block, seed, readings, lam, greedy)
        trainer = TRAINERS[learner](settings)
    err.print(f"writing the model to {out} and the checkpoint to {checkpoint} (kept, so --resume can go on)",
              highlight=False, soft_wrap=True)

    def report(run: Any) -> None:
        stats, first = run.blocks[-1], (len(run.blocks) - 1) * run.settings.block
        line = print_line if fmt == "json" else out_console_print
        line(f"games {first:,}-{first + stats.games:,}: moves per player {stats.mean_moves:.2f} "
             f"(sd {stats.sd_moves:.2f}), white {stats.white / stats.games:.1%}, black "
             f"{stats.black / stats.games:.1%}, draws by the cap {stats.draws}, longest "
             f"{stats.longest} moves of both sides")

    def save(run: Any) -> None:
        save_model(checkpoint, {"format": CHECKPOINT_FORMAT, **run.checkpoint()})
        save_model(out, run.model())

    with stop_requests() as should_stop, games_progress() as progress:
        task = progress.add_task("self-play", total=settings.games, completed=trainer.played)
        finished = trainer.run(report, should_stop, save, lambda: progress.advance(task))
    save(trainer)
    if fmt == "json":
        rows = playability(trainer.blocks, settings.block)
        typer.echo(json_text({"model": str(out), "played": trainer.played, "settings": asdict(settings),
                              "blocks": [row.as_json() for row in rows], "white": rows[-1].white}))
    else:
        note = "" if learner != "table" else f"; {key_note(settings.key)}"
        out_console_print(f"{trainer.played:,} games (seed {settings.seed}){note}; model written to {out}; play it "
                          f"with td:model={out}")
    if not finished:
        err.print(f"stopped after {trainer.played:,} games; continue with --resume", highlight=False)
        raise typer.Exit(130)


def print_line(text: str) -> None:
    """A line of progress on stderr."""
    err.print(text, highlight=False, soft_wrap=True)


def out_console_print(text: str) -> None:
    """A line of results on stdout."""
    out.print(text, highlight=False, soft_wrap=True)


def load_model_checkpoint(path: Path) -> dict[str, Any]:
    """The checkpoint of a stopped TD run, or a one-line error."""
    data = read_json_file(path, "no checkpoint to resume from", "not a readable checkpoint")
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ArenaError(f"{path}: not a pawn-race TD checkpoint")
    return data


def solve_command(
    maps: Annotated[list[str] | None, typer.Argument(help="Pawn-race maps [default: pawnrace_5x5].",
                                                     show_default=False)] = None,
    option: Options = None,
) -> None:
    """Who wins each pawn-race configuration with perfect play, and in how many moves."""
    extra = parse_options(option)
    verdicts = []
    for spec in maps or list(PawnRaceGame.default_maps):
        verdicts.append((resolve_map(spec).name, verdict(setup_from(spec, extra))))
    table = Table(title="Perfect play", title_justify="left")
    for header in ("map", "n", "a", "pawns", "removal", "positions", "winner", "moves (both)", "winner's moves"):
        table.add_column(header)
    for name, found in verdicts:
        table.add_row(name, *_cells(found))
    out.print(table)


def claims_command() -> None:
    """The paper's two claims about small boards, against the solver's verdict under this arena's rules."""
    small = verdict(Setup(5, 2, 1))
    rows = [(f"the first player wins n=5, a=2, beta=1 in the minimum of 4 moves ({PAPER})",
             f"{small.winner} wins in {small.winner_moves} moves of its own",
             small.winner == "white" and small.winner_moves == 4)]
    seconds = [found for n in (5, 6) for a in (1, 2) for removal in ("all", "mover")
               for found in [verdict(Setup(n, a, 1, removal))]]
    black = [found for found in seconds if found.winner == "black"]
    detail = ", ".join(f"n={f.setup.n} a={f.setup.a} removal={f.setup.removal}" for f in black)
    rows.append((f"the second player can never win with beta = 1 ({PAPER})",
                 f"black wins {len(black)} of {len(seconds)} boards with n <= 6" + (f": {detail}" if black else ""),
                 not black))
    table = Table(title="The paper's claims, solved", title_justify="left")
    for header in ("claim", "solver", "holds"):
        table.add_column(header)
    for claim, found, holds in rows:
        table.add_row(claim, found, "yes" if holds else "no")
    out.print(table)


def _cells(found: Verdict) -> list[str]:
    setup = found.setup
    winner = found.winner or "draw"
    moves = str(found.plies) if found.winner else "-"
    return [str(setup.n), str(setup.a), str(setup.pawns), setup.removal, f"{found.positions:,}", winner, moves,
            str(found.winner_moves) if found.winner else "-"]



