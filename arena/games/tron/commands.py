"""The Tron commands: ``arena import-aic`` (AI Challenge 2010 games as arena records) and ``arena train
tron-eval`` (learn the weights of a linear evaluation from stored games)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from arena.cli.common import BotsDir, command_group, err, load_registry_reporting, out, plugin_config, user_errors
from arena.core.errors import ArenaError
from arena.games.tron.aichallenge import import_aic


def add_commands(app: typer.Typer) -> None:
    """Add the Tron commands to the ``arena`` application."""
    app.command("import-aic")(user_errors(import_aic_command))
    train = command_group(app, "train", "Train learning bots and reproduce published training runs.")
    train.command("tron-eval")(user_errors(train_eval_command))


def train_eval_command(
    db: Annotated[Path, typer.Option("--db", help="The results database whose tron games to learn from.")],
    out_path: Annotated[Path, typer.Option("--out", help="Weights file to write.")] = Path("weights.json"),
    seed: Annotated[int, typer.Option(help="Seed of the split of games into training and held out.")] = 0,
    holdout: Annotated[float, typer.Option(help="Fraction of the games held out.")] = 0.2,
) -> None:
    """Fit a linear Tron evaluation to stored games' results; use it with voronoi:weights=FILE."""
    from arena.learning.tron.dataset import build_dataset, records_from_db
    from arena.learning.tron.features import FEATURES
    from arena.learning.tron.training import save_weights, train
    from arena.plugins.registry import load_registry

    records = records_from_db(db)
    data = build_dataset(records, load_registry())
    result = train(data, seed=seed, holdout=holdout)
    save_weights(result, out_path)
    errs = result.errors
    out.print(f"{result.games['train']} training games ({result.positions['train']} positions), "
              f"{result.games['holdout']} held out ({result.positions['holdout']} positions), "
              f"{result.games['skipped']} skipped; seed {seed}", highlight=False, soft_wrap=True)
    pairs = zip(FEATURES, result.weights, strict=True)
    out.print("weights: " + ", ".join(f"{name} {weight:+.5f}" for name, weight in pairs),
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
