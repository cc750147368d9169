"""Commands that read stored results back: runs, show, ratings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.app import app
from arena.cli.common import (
    BotsDir,
    Db,
    emit_table,
    err,
    load_registry_reporting,
    out,
    plugin_config,
    print_failures,
    run_failures,
    user_errors,
)
from arena.cli.format_options import OutputFormatOption, output_format, show_standings
from arena.cli.panels import RESULTS
from arena.cli.time_use import print_time_use
from arena.core.errors import ArenaError
from arena.report.replay_page import build_replay_html, log_lines
from arena.report.time_use import time_use_lines
from arena.storage.history import Recomputed, recompute
from arena.storage.queries import HistoryPoint, leaderboard, rating_history, run_standings, run_summaries
from arena.storage.store import Store


@app.command("runs", rich_help_panel=RESULTS)
@user_errors
def runs_command(db: Db = None, formats: OutputFormatOption = None) -> None:
    """List the stored runs: name, game, format, how many bots, the best rated at the end, status, duration."""
    fmt = output_format(formats)
    with Store(db, read_only=True) as store:
        rows = [[str(s.run.id), s.run.name, s.run.game, s.run.format, str(s.bots), s.leader or "-", s.run.status,
                 f"{s.run.played}/{s.run.scheduled}", s.run.created_at[5:16].replace("T", " "), s.duration_text()]
                for s in run_summaries(store)]
    emit_table(["run", "name", "game", "format", "bots", "leader", "status", "games", "started", "took"], rows, fmt,
               "Runs", names=("run", "game", "format", "bots", "leader", "status", "games", "took"), prose=("name",))


@app.command("show", rich_help_panel=RESULTS)
@user_errors
def show_command(run: Annotated[int | None, typer.Argument(help="The run to show [default: the latest].",
                                                         show_default=False)] = None,
                 game_number: Annotated[int | None, typer.Argument(
                     metavar="GAME", help="One game of the run, by its number (as arena replay RUN GAME takes it): "
                     "its players, result, failures and each bot's log (with --html, its replay page).",
                     show_default=False)] = None,
                 db: Db = None, formats: OutputFormatOption = None,
                 html_file: Annotated[Path | None, typer.Option(
                     "--html", metavar="FILE", help="Write game GAME as a self-contained HTML replay page.",
                     show_default=False)] = None,
                 bots_dir: BotsDir = None,
                 game_option: Annotated[str | None, typer.Option(
                     "--game", hidden=True, help="Not a game's number: see GAME.")] = None) -> None:
    """Show a stored run's standings again (the latest run without RUN), one of its games (arena show RUN GAME),
    or write one of its games as an HTML replay page (arena show RUN GAME --html FILE)."""
    if game_option is not None:  # --game names a game (tron, catmouse) in every other command
        raise ArenaError(f"--game names a game in every command; give a game's number after the run: "
                         f"arena show {run if run is not None else 'RUN'} {game_option}")
    if game_number is None and html_file is not None:
        raise ArenaError("--html FILE writes one game: arena show RUN GAME --html FILE")
    if game_number is not None and html_file is None:
        with Store(db, read_only=True) as store:
            run_id = store.latest_run().id if run is None else run
            record = store.game(run_id, game_number).record
        out.print(game_summary(run_id, game_number, record), markup=False, highlight=False, soft_wrap=True)
        return
    if game_number is not None and html_file is not None:
        registry = load_registry_reporting(plugin_config(bots_dir))
        with Store(db, read_only=True) as store:
            run_id = store.latest_run().id if run is None else run
            record = store.game(run_id, game_number).record
        html_file.write_text(build_replay_html(record, registry), encoding="utf-8")
        err.print(f"replay page of run {run_id}, game {game_number} written to {html_file}", highlight=False)
        return
    fmt = output_format(formats)
    with Store(db, read_only=True) as store:
        run_id = store.latest_run().id if run is None else run
        show_standings(run_standings(store, run_id), fmt)
        print_failures(run_failures(store, run_id), fmt)
        print_time_use(store, run_id, fmt)


def game_summary(run_id: int, game: int, record: dict[str, Any]) -> str:
    """One stored game in words: its players, result, each failure, each bot's log (its prints and stderr), and the
    processes its bots left running."""
    lines = [f"run {run_id}, game {game}: {record['game']} on {(record.get('map') or {}).get('name', '-')}, "
             f"seed {record['seed']}, {len(record['turns'])} turns"]
    for player in record["players"]:
        lines.append(f"  player {player['seat'] + 1}: {player['bot']} (version {player['version']})")
    lines.append(f"result: {record['result']['reason']}")
    for failure in record.get("failures", []):
        lines.append(f"failure: player {failure['seat'] + 1} {failure['kind']}: {failure['detail']}")
    if record.get("time_control"):  # a game under a clock: how each bot spent it
        lines.extend(time_use_lines(record, [f"player {p['seat'] + 1} ({p['bot']})" for p in record["players"]]))
    lines.extend(log_lines(record))
    if record.get("strays"):
        lines.append(f"{record['strays']} process(es) the bots started outlived the game and were killed (not known "
                     "to be one player's)")
    return "\n".join(lines)


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    """A one-line chart of ``values``."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low or 1.0
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in values)


@app.command("ratings", rich_help_panel=RESULTS)
@user_errors
def ratings_command(
    game: Annotated[str | None, typer.Option(help="Only this game.", show_default=False)] = None,
    latest: Annotated[bool, typer.Option("--latest", help="Only the newest version of each bot.")] = False,
    history: Annotated[str | None, typer.Option(
        metavar="BOT", help="A bot's rating after each run it played, version by version, with the change.",
        show_default=False)] = None,
    recompute_all: Annotated[bool, typer.Option(
        "--recompute", help="Recompute every stored rating, and rebuild every run's summaries, from the stored "
        "games and compare.")] = False,
    db: Db = None,
    formats: OutputFormatOption = None,
) -> None:
    """The leaderboard across all stored runs (per bot version), a bot's history, or a recomputation."""
    fmt = output_format(formats)
    with Store(db, read_only=not recompute_all) as store:
        if recompute_all:
            result: Recomputed = recompute(store)
            typer.echo(f"recomputed {result.checked} stored ratings from the games: "
                       + ("all equal to the stored ones" if result.differing == 0
                          else f"{result.differing} differed and were replaced"))
            typer.echo(f"rebuilt the summaries of {result.summarised} runs from their games: "
                       + ("all equal to the kept ones" if result.summaries_differing == 0
                          else f"{result.summaries_differing} differed and were replaced"))
            return
        if history is not None:
            points = rating_history(store, history)
            if not points:
                raise ArenaError(f"no stored ratings for bot {history!r}")
            rows = [[str(p.rating.run_id), p.rating.version + (f" ({p.rating.role})" if p.rating.role else ""),
                     f"{p.rating.conservative:.2f}", "first run" if p.change is None else f"{p.change:+.2f}",
                     f"{p.rating.mu:.2f} ± {p.rating.sigma:.2f}", str(p.rating.games)] for p in points]
            emit_table(["after run", "version", "mu-3σ", "change", "mu ± σ", "games"], rows, fmt,
                       f"{history} over time", names=("after run", "version"))
            if fmt == "table":
                for version, values in _by_version(points).items():
                    out.print(f"{version}: mu-3σ by run {sparkline(values)}", highlight=False)
            return
        rows = [[r.game, r.label, r.version, r.role or "", f"{r.conservative:.2f}", f"{r.mu:.2f} ± {r.sigma:.2f}",
                 str(r.games)] for r in leaderboard(store, game, latest)]
    emit_table(["game", "bot", "version", "role", "mu-3σ", "mu ± σ", "games"], rows, fmt, "Ratings across all runs",
               names=("game", "bot", "version", "role"))


def _by_version(points: list[HistoryPoint]) -> dict[str, list[float]]:
    series: dict[str, list[float]] = {}
    for point in points:
        version = point.rating.version + (f" ({point.rating.role})" if point.rating.role else "")
        series.setdefault(version, []).append(point.rating.conservative)
    return series


__all__ = ["sparkline"]
