"""The Tron commands: ``arena import-aic`` (AI Challenge 2010 games as arena records), ``arena train
tron-eval`` (learn the weights of a linear evaluation from stored games), and for Snafu ``arena train
snafu-cla`` (train a collective learning automaton) and ``arena experiment snafu-scaling`` (Cloppert 2007's
15x15 -> 30x30 experiment)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from arena.cli.common import (
    Address,
    BotsDir,
    ExecutorName,
    Format,
    check_output_format,
    command_group,
    emit_table,
    err,
    games_progress,
    load_registry_reporting,
    out,
    plugin_config,
    user_errors,
)
from arena.cli.panels import RESEARCH, TOOLS
from arena.core.errors import ArenaError
from arena.core.json_files import json_text
from arena.games.tron.aichallenge import import_aic

if TYPE_CHECKING:
    from arena.play.task_pools import TaskPool


def add_commands(app: typer.Typer) -> None:
    """Add the Tron commands to the ``arena`` application."""
    app.command("import-aic", rich_help_panel=TOOLS)(user_errors(import_aic_command))
    train = command_group(app, "train", "Train learning bots and reproduce published training runs.", RESEARCH)
    train.command("tron-eval")(user_errors(train_eval_command))
    train.command("snafu-cla")(user_errors(train_cla_command))
    experiment = command_group(app, "experiment", "Run published experiments again.", RESEARCH)
    experiment.command("snafu-scaling")(user_errors(scaling_command))


PerceptionOption = Annotated[str, typer.Option(
    help="P measures the cells to the board's edge (edges, as the paper writes) or to the first wall, trail or "
         "head (trails).")]
RoundOption = Annotated[str, typer.Option(
    "--round", help="R is the round number (raw, as the paper writes) or the round over the board's cells "
                    "(scaled).")]
DictationOption = Annotated[str, typer.Option(
    help="The table's decision is played whatever it hits (any) or only onto an empty cell (safe).")]
WallsOption = Annotated[str, typer.Option(
    help="W is the occupied share of the half-planes ahead, left and right (half-planes) or of the lines of "
         "cells from the head to the edge (rays).")]
GrowthOption = Annotated[str, typer.Option(
    help="Every round's exact state enters the table (every-round), only rounds with the cell ahead occupied "
         "(turns), or a round updates the entry its state matched at c and only an unmatched state is added "
         "(matched).")]
CreditOption = Annotated[str, typer.Option(
    help="The game's reward goes to every move recorded (game) or to the last 10 (last).")]


def train_eval_command(
    db: Annotated[Path, typer.Option("--db", help="The results database whose tron games to learn from.")],
    out_path: Annotated[Path, typer.Option("--out", help="Weights file to write.")] = Path("weights.json"),
    seed: Annotated[int, typer.Option(help="Seed of the split of games into training and held out.")] = 0,
    holdout: Annotated[float, typer.Option(help="Fraction of the games held out.")] = 0.2,
    feature_names: Annotated[str, typer.Option(
        "--features", metavar="NAME,...",
        help="The features to fit, comma-separated, from: voronoi, parity, area, mobility, voronoi_near, "
             "chamber_cells, chamber_edges (the last two alone fit chamber's cells= and edges=).")
    ] = "voronoi,parity,area,mobility,voronoi_near",
) -> None:
    """Fit a linear Tron evaluation to stored games' results; use it with voronoi:weights=FILE."""
    from arena.learning.tron.dataset import build_dataset, records_from_db
    from arena.learning.tron.training import chamber_weights, save_weights, train
    from arena.plugins.registry import load_registry

    names = tuple(name.strip() for name in feature_names.split(",") if name.strip())
    records = records_from_db(db)
    data = build_dataset(records, load_registry(), names)
    result = train(data, seed=seed, holdout=holdout)
    save_weights(result, out_path)
    errs = result.errors
    out.print(f"{result.games['train']} training games ({result.positions['train']} positions), "
              f"{result.games['holdout']} held out ({result.positions['holdout']} positions), "
              f"{result.games['skipped']} skipped; seed {seed}", highlight=False, soft_wrap=True)
    pairs = zip(result.names, result.weights, strict=True)
    out.print("weights: " + ", ".join(f"{name} {weight:+.5f}" for name, weight in pairs),
              highlight=False, soft_wrap=True)
    as_chamber = chamber_weights(result)
    if as_chamber is not None:
        out.print(f"as chamber's own weights: chamber:cells={as_chamber[0]},edges={as_chamber[1]} "
                  "(version 2's are cells=2,edges=7; version 4, the default, has 7 and 7)",
                  highlight=False, soft_wrap=True)
    for label, train_key, held_key in (("learned", "train", "holdout"),
                                       ("voronoi only", "baseline_train", "baseline_holdout")):
        out.print(f"{label:>12}: training mse {errs[train_key]['mse']:.4f}, accuracy "
                  f"{errs[train_key]['accuracy']:.1%}; held-out mse {errs[held_key]['mse']:.4f}, accuracy "
                  f"{errs[held_key]['accuracy']:.1%}", highlight=False, soft_wrap=True)
    out.print(f"weights written to {out_path}", highlight=False, soft_wrap=True)


def import_aic_command(
    files: Annotated[list[Path], typer.Argument(help="Games recorded by the AI Challenge 2010 referee.")],
    records: Annotated[Path, typer.Option(help="Directory for the arena records.")] = Path("aic-records"),
    bots_dir: BotsDir = None,
) -> None:
    """Turn AI Challenge 2010 games (map rows, then N/E/S/W moves) into arena records."""
    registry = load_registry_reporting(plugin_config(bots_dir))
    records.mkdir(parents=True, exist_ok=True)
    failed = 0
    for file in files:
        try:
            record = import_aic(file, registry)
        except ArenaError as exc:
            err.print(f"[red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
            failed += 1
            continue
        (records / f"{file.stem}.json").write_text(json.dumps(record, indent=1) + "\n")
    err.print(f"{len(files) - failed} imported into {records}" + (f", {failed} failed" if failed else ""),
              highlight=False)
    if failed:
        raise typer.Exit(1)


def train_cla_command(
    strategy: Annotated[str, typer.Option(help="Features and parameters, e.g. POWR:t=3 or PO:t=4,c=0.5,"
                                               "reward=4/-4/-1 (t and reward default to the paper's).")]
    = "POWR:t=3",
    size: Annotated[str, typer.Option(help="The open board, WIDTHxHEIGHT.")] = "15x15",
    games: Annotated[int, typer.Option("--games", "-n", help="Games against the pseudo-random opponent.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the games.")] = 0,
    table: Annotated[Path | None, typer.Option(help="Start from this table file (else an empty table).",
                                               show_default=False)] = None,
    out_path: Annotated[Path, typer.Option("--out", help="Table file to write.")] = Path("table.json"),
    every: Annotated[int, typer.Option(help="Print the cumulative success every this many games.")] = 100,
    perception: PerceptionOption = "edges",
    round_scale: RoundOption = "raw",
    dictation: DictationOption = "any",
    walls: WallsOption = "half-planes",
    growth: GrowthOption = "every-round",
    credit: CreditOption = "game",
) -> None:
    """Train a Snafu collective learning automaton (Cloppert 2007) against the pseudo-random opponent.

    The switches (--perception, --round, --dictation, --walls, --growth, --credit) are those of
    ``arena experiment snafu-scaling``; play the table with the same ones."""
    from arena.engines.tron.snafu.reading import Reading
    from arena.engines.tron.snafu.strategy import parse_strategy
    from arena.engines.tron.snafu.table import TABLE_FORMAT, load_table, save_table
    from arena.games.tron.snafu import parse_size
    from arena.learning.tron.snafu.automaton import Automaton

    chosen = parse_strategy(strategy)
    reading = Reading(perception, round_scale, dictation, walls, growth, credit)
    width, height = parse_size(size)
    if games < 1 or every < 1:
        raise ArenaError("--games and --every must be at least 1")
    start = load_table(table)[0] if table is not None else None
    if start is not None and start.dim != chosen.dim:
        raise ArenaError(f"{table} holds {start.dim}-number states; features {chosen.features} need {chosen.dim}")
    automaton = Automaton(chosen, start, reading)
    tally = {"played": 0, "total": 0}

    def report(outcome: int, rounds: int) -> None:
        tally["played"] += 1
        tally["total"] += outcome
        played = tally["played"]
        if played % every == 0 or played == games:
            out.print(f"game {played:>6,}: success {tally['total'] / played:+.4f}, table {len(automaton.table):,} "
                      "entries", highlight=False, soft_wrap=True)

    out.print(f"training {chosen.label} ({chosen.spec}, reading: {reading.label}) on {width}x{height}, {games:,} "
              f"games, seed {seed}",
              highlight=False, soft_wrap=True)
    automaton.play(width, height, games, seed, on_game=report)
    settings = {**chosen.settings(), "size": f"{width}x{height}", "games": games, "seed": seed,
                "start_table": str(table) if table else None, **reading.settings()}
    switches = "".join(f",{name}={value}" for name, value in reading.changes.items())
    save_table(out_path, automaton.table, settings)
    out.print(f"table ({TABLE_FORMAT}, {len(automaton.table):,} entries) written to {out_path}; play it with "
              f"cla:{chosen.spec}{switches},table={out_path}", highlight=False, soft_wrap=True)


def scaling_command(
    strategy: Annotated[list[str] | None, typer.Option(
        help="A strategy such as POWR:t=3 (repeatable) [default: the paper's six].", show_default=False)] = None,
    reps: Annotated[int, typer.Option(help="Repetitions per strategy.")] = 100,
    workers: Annotated[int | None, typer.Option(
        help="Repetitions at once [default: 1 locally, every CPU of a Ray cluster].", show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole experiment.")] = 0,
    train_games: Annotated[int, typer.Option(help="Training games on the small board.")] = 1000,
    test_games: Annotated[int, typer.Option(help="Games on the large board, trained and untrained each.")] = 500,
    results: Annotated[Path, typer.Option(help="Results file (JSON lines): an existing one is resumed.")]
    = Path("runs/snafu-scaling/results.jsonl"),
    fmt: Format = "table",
    plot: Annotated[Path | None, typer.Option(help="Also draw the success curves to this .png or .svg file.",
                                              show_default=False)] = None,
    executor: ExecutorName = None,
    address: Address = None,
    perception: PerceptionOption = "edges",
    round_scale: RoundOption = "raw",
    dictation: DictationOption = "any",
    walls: WallsOption = "half-planes",
    growth: GrowthOption = "every-round",
    credit: CreditOption = "game",
    frozen: Annotated[bool, typer.Option(
        "--frozen", help="Play 30x30 without learning: the trained table as training left it against an empty "
                         "table that never learns (which plays as the pseudo-random opponent).")] = False,
    readings_tried: Annotated[int, typer.Option(
        help="How many readings (switch combinations) were tried before choosing this one: reported, and "
             "p_all_readings is Holm's p times it.")] = 1,
) -> None:
    """Cloppert (2007): train on 15x15, then trained against untrained on 30x30, with a per-repetition test.

    The primary test takes one success difference (trained minus untrained, after the last 30x30 game) per
    repetition, with Holm's correction across the strategies; the paper's z pooled over games (which treats
    games as independent) and Welch's t are secondary. The switches (--perception, --round, --dictation,
    --walls, --growth, --credit) choose readings of what the paper leaves open; their defaults are its
    literal reading. They and --frozen are part of the results file's settings."""
    from arena.cli.interrupts import stop_requests
    from arena.engines.tron.snafu.reading import Reading
    from arena.engines.tron.snafu.strategy import PAPER_STRATEGIES, parse_strategy
    from arena.learning.tron.snafu.experiment import ResultsFile, ScalingSettings, run_experiment
    from arena.learning.tron.snafu.summary import (
        GROWTH_HEADERS,
        HEADERS,
        correct,
        growth_rows,
        summarise,
        summary_json,
        summary_row,
    )

    check_output_format(fmt)
    reading = Reading(perception, round_scale, dictation, walls, growth, credit)
    chosen = [parse_strategy(text) for text in strategy] if strategy else list(PAPER_STRATEGIES)
    if (reps < 1 or (workers is not None and workers < 1) or train_games < 1 or test_games < 1
            or readings_tried < 1):
        raise ArenaError("--reps, --workers, --train-games, --test-games and --readings-tried must be at least 1")
    start_pool = None
    if executor not in (None, "local") or address is not None:
        from arena.play.executor_choice import ExecutorChoice

        choice, registry = ExecutorChoice(executor or "local", address), load_registry_reporting(plugin_config(None))
        registry.task_pool(choice.name)  # an executor that cannot run tasks fails here, before any work

        def start_pool(size: int | None) -> TaskPool:
            return choice.task_pool(size, registry)
    if plot is not None:
        from arena.learning.tron.snafu.plots import check_plot_path

        check_plot_path(plot)
    store = ResultsFile(results, ScalingSettings(seed, train_games, test_games, reading=reading, frozen=frozen))
    total = reps * len(chosen)
    done = sum(1 for s in chosen for rep in range(reps) if (s.label, rep) in store.done)
    err.print(f"results in {results} (reading: {reading.label}): {done} of {total} repetitions already done",
              highlight=False, soft_wrap=True)
    with stop_requests() as should_stop, games_progress() as progress:
        task = progress.add_task("snafu-scaling", total=total, completed=done, unit="repetitions")
        finished = run_experiment(store, chosen, reps, workers, should_stop, lambda _: progress.advance(task),
                                  start_pool)
    summaries = [summarise(s.label, found) for s in chosen if (found := store.repetitions(s, reps))]
    correct(summaries)
    if summaries and fmt == "json":
        typer.echo(json_text([summary_json(summary, reading.settings(), frozen, readings_tried)
                              for summary in summaries]))
    elif summaries:
        mode = "frozen on 30x30 against a non-learning empty table" if frozen else "both learning on 30x30"
        emit_table(HEADERS, [summary_row(summary) for summary in summaries], fmt,
                   f"Snafu scaling (Cloppert 2007), reading {reading.label} ({readings_tried} tried), {mode}: "
                   f"success mean ± sd over repetitions, seed {seed}; verdict by the per-repetition test, "
                   "Holm-corrected across strategies", names=("strategy",))
        emit_table(GROWTH_HEADERS, [row for summary in summaries for row in growth_rows(summary)], fmt,
                   "Table growth while training (mean over repetitions)", names=("strategy",))
    if plot is not None and summaries:
        from arena.learning.tron.snafu.plots import plot_curves

        plot_curves(summaries, plot)
        err.print(f"success curves drawn to {plot}", highlight=False, soft_wrap=True)
    if not finished:
        err.print("stopped; run the same command again to resume", highlight=False)
        raise typer.Exit(130)
