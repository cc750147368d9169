"""``arena playability GAME``: the design verdict from self-play learners' games, for any game that registers
a playability study (today: the pawn race), for one seed or several at once beside the paper's figures."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from arena.cli.app import app
from arena.cli.common import (
    Address,
    ExecutorName,
    Options,
    check_output_format,
    emit_table,
    err,
    games_progress,
    load_registry_reporting,
    out,
    parse_options,
    plugin_config,
    user_errors,
)
from arena.cli.panels import RESEARCH
from arena.cli.reading_options import Init, LossReward, NetworkInputs, TableKey
from arena.core.errors import ArenaError
from arena.core.json_files import json_text
from arena.learning.playability import PlayabilityStudy, PublishedRow, StudyRun, train_seeds
from arena.report.playability import playability_page
from arena.stats.playability import LONG_GAME, PlayabilityRow, playability
from arena.stats.seeds import PooledRow, pooled

MAX_SEEDS = 1000


@app.command("playability", rich_help_panel=RESEARCH)
@user_errors
def playability_command(
    game: Annotated[str, typer.Argument(help="The game whose design to judge (one with a registered study, such "
                                             "as pawnrace).")],
    map_spec: Annotated[str | None, typer.Option("--map", "-m", help="The configuration [default: the study's].",
                                                 show_default=False)] = None,
    option: Options = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Self-play games to learn from (per seed).")] = 10_000,
    block: Annotated[int, typer.Option(help="Games per block of statistics.")] = 10_000,
    learner: Annotated[str | None, typer.Option(help="The learner, e.g. table or network (nn) for pawnrace "
                                                     "[default: the study's first].", show_default=False)] = None,
    model: Annotated[Path | None, typer.Option(help="Read the statistics a trained model recorded instead of "
                                                    "training.", show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the training.")] = 0,
    seeds: Annotated[str | None, typer.Option(
        help="Train under several seeds, e.g. 0-9 or 0,3,7: each seed's table, then the seeds pooled with "
             "intervals over games and over seeds.", show_default=False)] = None,
    init: Init = None,
    loss_reward: LossReward = None,
    learning_rate: Annotated[float | None, typer.Option(
        help="The learning rate alpha; 0 is the no-learning control [default: 0.001].", show_default=False)] = None,
    network_inputs: NetworkInputs = None,
    key: TableKey = None,
    workers: Annotated[int | None, typer.Option(
        help="Seeds trained at once with --seeds [default: 1 locally, every CPU of a Ray cluster].",
        show_default=False)] = None,
    executor: ExecutorName = None,
    address: Address = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="Output format: table, md, csv or json.")] = "table",
    html_file: Annotated[Path | None, typer.Option("--html", help="Also write a page with the charts.",
                                                   show_default=False)] = None,
) -> None:
    """The design verdict: fairness and length of self-play learners' games, block by block (Kalles and
    Kanellopoulos 2001), with the perfect-play verdict where the board is small enough to solve."""
    registry = load_registry_reporting(plugin_config(None))
    # register_studies takes PlayabilityStudy instances; the registry, below learning, knows only their game.
    study = cast(PlayabilityStudy, registry.study(game))
    chosen = study.learner_named(learner)
    check_output_format(fmt)
    given = {"init": init, "loss_reward": loss_reward, "learning_rate": learning_rate,
             "network_inputs": network_inputs, "key": key}
    readings = {name: value for name, value in given.items() if value is not None}
    study.check_readings(readings, chosen)
    if workers is not None and workers < 1:
        raise ArenaError("--workers must be at least 1")
    map_name, extra = map_spec or study.default_map, parse_options(option)
    if model is None:
        study.check_configuration(map_name, extra)
    if seeds is not None:
        if model is not None or html_file is not None:
            raise ArenaError("--seeds trains a run per seed: it takes neither --model nor --html")
        chosen_seeds = parse_seeds(seeds)
        pool = None
        if workers not in (None, 1) or executor not in (None, "local") or address is not None:
            from arena.play.executor_choice import ExecutorChoice

            choice = ExecutorChoice(executor or "local", address)
            size = workers if workers is not None or choice.name != "local" else 1
            pool = choice.task_pool(size, registry)
        with games_progress() as progress:
            task = progress.add_task("seeds", total=len(chosen_seeds), unit="seeds")
            if pool is None:
                runs = train_seeds(study, map_name, extra, chosen, games, block, chosen_seeds, readings,
                                   on_seed=lambda _: progress.advance(task))
            else:
                with pool:
                    runs = train_seeds(study, map_name, extra, chosen, games, block, chosen_seeds, readings, pool,
                                       on_seed=lambda _: progress.advance(task))
        show_seeds(chosen_seeds, runs, fmt)
        return
    if model is not None:
        if readings:
            raise ArenaError("--model reads a trained run: its settings are the model's")
        run = study.recorded(str(model))
    else:
        with games_progress() as progress:
            task = progress.add_task("self-play", total=games)
            kwargs: dict[str, Any] = {"readings": readings} if readings else {}
            run = study.train(map_name, extra, chosen, games, block, seed,
                              on_game=lambda: progress.advance(task), **kwargs)
    show(run, fmt, html_file)


def parse_seeds(text: str) -> list[int]:
    """The seeds ``0-9``, ``0,3,7`` or ``4`` name (in order, each once); anything else is a one-line error."""
    found: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            first, last = int(low), int(high) if high else int(low)
            if first < 0 or last < first:
                raise ValueError
            found.extend(seed for seed in range(first, last + 1) if seed not in found)
            if len(found) > MAX_SEEDS:
                raise ArenaError(f"--seeds names more than {MAX_SEEDS} seeds")
    except ValueError:
        raise ArenaError(f"--seeds {text!r} is not a list of seeds such as 0-9 or 0,3,7") from None
    return found


def show(run: StudyRun, fmt: str, html_file: Path | None) -> None:
    """Print a study's rows in ``fmt`` (beside the paper's, where it gives them) and, with ``html_file``, write
    its page."""
    rows = playability(run.blocks, run.block_size)
    if fmt == "json":
        typer.echo(json_text({"title": run.title, "settings": run.settings,
                              "blocks": [row.as_json(run.sides) for row in rows],
                              run.sides[0]: rows[-1].white, "perfect_play": run.perfect_play,
                              "paper": _published_json(run.published)}))
    else:
        _emit_run(run, rows, fmt, run.title, titled=True)
        if run.perfect_play:
            out.print(run.perfect_play, highlight=False, soft_wrap=True)
        if run.published:
            _emit_beside(run.published, rows, fmt, "The paper beside this run: shares of all games")
    if html_file is not None:
        html_file.write_text(playability_page(run.title, rows, run.perfect_play, run.sides), encoding="utf-8")
        err.print(f"playability page written to {html_file}", highlight=False)


def show_seeds(seeds: list[int], runs: list[StudyRun], fmt: str) -> None:
    """Print each seed's rows and the seeds pooled, beside the paper's figures where it gives them."""
    first = runs[0]
    rows = pooled([run.blocks for run in runs], first.block_size)
    if fmt == "json":
        per_seed = []
        for seed, run in zip(seeds, runs, strict=True):
            seed_rows = playability(run.blocks, run.block_size)
            per_seed.append({"seed": seed, "blocks": [row.as_json(run.sides) for row in seed_rows],
                             run.sides[0]: seed_rows[-1].white})
        settings = {k: v for k, v in first.settings.items() if k != "seed"}
        typer.echo(json_text({"title": first.title, "settings": settings, "seeds": per_seed,
                              "pooled": [row.as_json() for row in rows], run.sides[0]: rows[-1].white,
                              "perfect_play": first.perfect_play, "paper": _published_json(first.published)}))
        return
    for seed, run in zip(seeds, runs, strict=True):
        _emit_run(run, playability(run.blocks, run.block_size), fmt, f"Seed {seed}: {run.title}", titled=True)
    side, other = first.sides
    headers = ["block", "seeds", "games", "moves/player", "sd", f">{LONG_GAME} moves", side, "95% (games)", other,
               "draws", f"{side} of decided", f"{side} of decided (mean of seeds)", "95% (seeds)", "seeds' range",
               f"p(mean {side} of decided=half)"]
    table = [[row.label, str(row.seeds), f"{row.games:,}", f"{row.mean_moves:.2f}", f"{row.sd_moves:.2f}",
              f"{row.long:.1%}", f"{row.white:.2%}", _interval(row.white_interval), f"{row.black:.2%}",
              f"{row.draw:.2%}", _share(row.white_decided), _share(row.seed_mean), _interval(row.seed_interval),
              _range(row), _p_value(row.p_half)] for row in rows]
    _titled(headers, table, fmt, f"Seeds {_seeds_text(seeds)} pooled: {first.title} (shares of all games; the "
                                 f"seeds test on each seed's share of its decided games, draws left out)")
    if first.perfect_play:
        out.print(first.perfect_play, highlight=False, soft_wrap=True)
    if first.published:
        _emit_beside(first.published, rows, fmt, "The paper beside the seeds pooled: shares of all games")


def _titled(headers: list[str], rows: list[list[str]], fmt: str, title: str) -> None:
    """A table with its title, which ``md`` prints as a line of its own (the console shows it; ``csv`` has none)."""
    if fmt == "md":
        typer.echo(f"\n{title}\n")
    emit_table(headers, rows, fmt, title, names=("block",))


def _emit_run(run: StudyRun, rows: list[PlayabilityRow], fmt: str, title: str, titled: bool = False) -> None:
    first, second = run.sides
    headers = ["block", "games", "moves/player", "sd", f">{LONG_GAME} moves", first, f"{first} 95%", second,
               f"{second} 95%", "draws", f"{first} of decided", f"p({first} of decided=half)", "fewest-move wins",
               "longest"]
    table_rows = [[row.label, f"{row.games:,}", f"{row.mean_moves:.2f}", f"{row.sd_moves:.2f}", f"{row.long:.1%}",
                   f"{row.white:.2%}", _interval(row.white_interval), f"{row.black:.2%}", _interval(row.black_interval),
                   f"{row.draw:.2%} ({row.draws:,})", _share(row.white_decided), _p_value(row.p_half),
                   f"{row.fastest:.1%}", str(row.longest)] for row in rows]
    if titled:
        _titled(headers, table_rows, fmt, title)
    else:
        emit_table(headers, table_rows, fmt, title, names=("block",))


def _emit_beside(published: list[PublishedRow], ours: list[PlayabilityRow] | list[PooledRow], fmt: str,
                 title: str) -> None:
    """The paper's rows beside ours, matched by block (a block only one side has leaves the other's cells blank;
    the paper's ``all`` is its whole run of 74,000 games, beside ours whatever its length): moves per player,
    their sd, white's, black's and the draws' shares, and white's share of the decided games."""
    theirs = {row.label: row for row in published}
    mine = {row.label: row for row in ours}
    labels = sorted(set(theirs) | set(mine), key=_block_order)
    table = []
    for label in labels:
        paper, row = theirs.get(label), mine.get(label)
        cells = [""] * 6 if paper is None else [
            f"{paper.mean_moves:.2f}", f"{paper.sd_moves:.2f}", f"{paper.white:.2%}", f"{paper.black:.2%}",
            f"{max(1 - paper.white - paper.black, 0.0):.2%}", _share(paper.white / (paper.white + paper.black))]
        cells += [""] * 7 if row is None else [
            f"{row.mean_moves:.2f}", f"{row.sd_moves:.2f}", f"{row.white:.2%}", f"{row.black:.2%}",
            f"{row.draw:.2%}", _share(row.white_decided), f"{row.long:.1%}"]
        table.append([label, *cells])
    _titled(["block", "paper moves", "paper sd", "paper white", "paper black", "paper draws", "paper white of decided",
             "ours moves", "ours sd", "ours white", "ours black", "ours draws", "ours white of decided",
             f"ours >{LONG_GAME} moves"], table, fmt, title)


def _block_order(label: str) -> tuple[float, float]:
    if label == "all":
        return (math.inf, math.inf)
    start, _, end = label.partition("-")
    return (float(start.replace(",", "")), float(end.replace(",", "")))


def _published_json(published: list[PublishedRow]) -> list[dict[str, object]]:
    return [{"block": row.label, "mean_moves_per_player": row.mean_moves, "sd_moves": row.sd_moves,
             "white": row.white, "black": row.black, "white_of_decided": row.white / (row.white + row.black)}
            for row in published]


def _seeds_text(seeds: list[int]) -> str:
    if seeds == list(range(seeds[0], seeds[-1] + 1)) and len(seeds) > 2:
        return f"{seeds[0]}-{seeds[-1]}"
    return ",".join(map(str, seeds))


def _share(share: float) -> str:
    return "-" if math.isnan(share) else f"{share:.2%}"


def _range(row: PooledRow) -> str:
    return "-" if math.isnan(row.seed_min) else f"{row.seed_min:.1%}-{row.seed_max:.1%}"


def _interval(interval: tuple[float, float]) -> str:
    return "-" if math.isnan(interval[0]) else f"[{interval[0]:.1%}, {interval[1]:.1%}]"


def _p_value(p: float) -> str:
    return "-" if math.isnan(p) else "<0.0001" if p < 1e-4 else f"{p:.4f}"


