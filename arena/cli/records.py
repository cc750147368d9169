"""Commands for game records: export a run's records, replay or check records."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.live import Live
from rich.markup import escape
from rich.text import Text

from arena.cli.app import app
from arena.cli.common import BotsDir, Db, err, load_registry_reporting, out, plugin_config, user_errors
from arena.cli.panels import RESULTS
from arena.cli.players import seat_names, with_bot_names
from arena.core.clock import DEFAULT_TIME_LIMIT, TimeControl, check_time_limit
from arena.core.errors import ArenaError
from arena.plugins.registry import PluginConfig, Registry
from arena.report.replay_page import build_replay_html, log_lines, write_game_pages
from arena.storage.replay import CheckReport, RecordError, check, check_records, load_records, new_game, validate
from arena.storage.rerun import rerun
from arena.storage.store import Store

MAX_DIFFERENCES_SHOWN = 10


@app.command("export", rich_help_panel=RESULTS)
@user_errors
def export_command(
    run: Annotated[int, typer.Argument(help="The stored run to export.")],
    records: Annotated[Path | None, typer.Option(
        metavar="DIR", help="Write one JSON file per game into this directory.", show_default=False)] = None,
    jsonl: Annotated[Path | None, typer.Option(
        metavar="FILE", help="Write every game as one line of JSON into this file ('-' for stdout).",
        show_default=False)] = None,
    html_dir: Annotated[Path | None, typer.Option(
        "--html", metavar="DIR", help="Write an HTML replay page per game into this directory, with an index.html.",
        show_default=False)] = None,
    pgn: Annotated[Path | None, typer.Option(
        metavar="FILE", help="Write a chess run's games as PGN into this file ('-' for stdout).",
        show_default=False)] = None,
    db: Db = None,
    bots_dir: BotsDir = None,
) -> None:
    """Export a run's game records (format arena-record/1), their HTML replay pages (--html), or a chess run's
    games as PGN (--pgn)."""
    if sum(target is not None for target in (records, jsonl, html_dir, pgn)) != 1:
        raise ArenaError("give exactly one of --records DIR or --jsonl FILE (or --html DIR for replay pages, "
                         "--pgn FILE for chess games)")
    if pgn is not None:
        _export_pgn(run, pgn, db)
        return
    with Store(db, read_only=True) as store:
        store.run(run)
        rows = list(store.games(run_id=run))
    if html_dir is not None:
        registry = load_registry_reporting(plugin_config(bots_dir))
        pages = write_game_pages(run, [(row.idx, row.record) for row in rows], html_dir, registry)
        for problem in pages.problems:
            err.print(f"[red]not replayable:[/] {escape(problem)}", highlight=False, soft_wrap=True)
        err.print(f"{pages.written} replay pages and index.html written to {html_dir}", highlight=False)
        return
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        for row in rows:
            (records / f"run{run}-game{row.idx:05d}.json").write_text(json.dumps(row.record, indent=1) + "\n")
        err.print(f"{len(rows)} records written to {records}", highlight=False)
    else:
        lines = "".join(json.dumps(row.record) + "\n" for row in rows)
        if str(jsonl) == "-":
            typer.echo(lines, nl=False)
        else:
            assert jsonl is not None
            jsonl.write_text(lines)
            err.print(f"{len(rows)} records written to {jsonl}", highlight=False)


def _export_pgn(run: int, path: Path, db: Path | None) -> None:
    """Write run ``run``'s games as PGN to ``path`` (``-``: stdout); a run of another game is a one-line error."""
    with Store(db, read_only=True) as store:
        stored = store.run(run)
        if stored.game != "chess":
            raise ArenaError(f"run {run} is a {stored.game} run: --pgn exports chess games only")
        try:
            from arena.games.chess.pgn import PgnSource, write_pgn
        except ImportError:
            raise ArenaError("PGN export needs python-chess: pip install 'bot-arena[chess]'") from None
        dates = store.finish_times(run)
        sources = (PgnSource(row.record, event=stored.name, round=str(row.idx + 1), date=dates.get(row.idx),
                             game_id=f"{run}:{row.idx}") for row in store.games(run_id=run))
        if str(path) == "-":
            write_pgn(sources, sys.stdout)
            return
        with path.open("w", encoding="utf-8") as stream:
            count = write_pgn(sources, stream)
    err.print(f"{count} games written to {path} as PGN", highlight=False)


@app.command("replay", rich_help_panel=RESULTS)
@user_errors
def replay_command(
    targets: Annotated[list[str], typer.Argument(
        help="Record files (.json, .jsonl) or directories of them; or a stored game: RUN GAME or RUN:GAME.",
        metavar="RECORDS... | RUN GAME")],
    check_only: Annotated[bool, typer.Option(
        "--check", help="Re-adjudicate every record with the current rules instead of showing one.")] = False,
    delay: Annotated[float, typer.Option(min=0, help="Seconds between turns when playing back (0 or more).")] = 0.15,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter before each turn.")] = False,
    turn: Annotated[int | None, typer.Option(help="Show only the position after this turn.",
                                             show_default=False)] = None,
    html_file: Annotated[Path | None, typer.Option(
        "--html", metavar="FILE", show_default=False,
        help="Write the game as a self-contained HTML replay page instead of playing it back.")] = None,
    rerun_game: Annotated[bool, typer.Option(
        "--rerun", help="Play the game again with its bots at the versions the record names (the stored version of "
                        "a bot changed since) and say whether they make the same moves.")] = False,
    time_limit: Annotated[float | None, typer.Option(
        help="With --rerun: seconds a bot may think per move [default: the run's, else 1].",
        show_default=False)] = None,
    db: Db = None,
    bots_dir: BotsDir = None,
) -> None:
    """Play a record back in the terminal (a file, or a stored game by run and game number), write it as an
    HTML replay page (--html), check records or a stored game (--check): 'N agree, M differ', or play a game
    again with its bots (--rerun)."""
    config = plugin_config(bots_dir)
    registry = load_registry_reporting(config)
    if sum((check_only, html_file is not None, rerun_game)) > 1:
        raise ArenaError("give one of --check, --html and --rerun")
    if time_limit is not None and (not rerun_game or not 0 < time_limit < float("inf")):
        raise ArenaError("--time-limit goes with --rerun, and must be a positive number of seconds")
    stored = stored_game(targets)
    if stored is not None:
        with Store(db, read_only=True) as store:
            record = store.game(*stored).record
            run_time_limit = store.run(stored[0]).definition.get("time_limit")
        if rerun_game:
            _rerun(record, registry, config, db, time_limit or run_time_limit)
            return
        if check_only:
            where = f"run {stored[0]}, game {stored[1]}"
            try:
                checked: dict[str, Any] | RecordError = validate(record, where)
            except RecordError as exc:
                checked = exc
            _report_check(check_records([(where, checked)], registry))
            return
        if html_file is not None:
            write_replay_page(record, registry, html_file)
            return
        _play_back(record, registry, delay, step, turn)
        return
    paths = [Path(target) for target in targets]
    if check_only:
        _report_check(check(paths, registry))
        return
    found = list(load_records(paths))
    if len(found) != 1:
        raise ArenaError(f"playing back takes one record; {len(found)} were found (use --check for many)")
    where, loaded = found[0]
    if isinstance(loaded, RecordError):
        raise loaded
    if html_file is not None:
        write_replay_page(loaded, registry, html_file)
        return
    if rerun_game:
        _rerun(loaded, registry, config, db, time_limit)
        return
    _play_back(loaded, registry, delay, step, turn)


def _rerun(record: dict[str, Any], registry: Registry, config: PluginConfig, db: Path | None,
           time_limit: float | None) -> None:
    """Play the record's game again and say whether it went the same way; exit status 1 if not.

    The game keeps the time control its record names; ``time_limit`` (given, or the run's) replaces its per-move
    limit."""
    timed = record.get("time_control") or {}
    control = TimeControl.from_json(timed)
    if time_limit is None:
        time_limit = timed.get("time_limit", DEFAULT_TIME_LIMIT)
    check_time_limit(time_limit, control)
    again = rerun(record, registry, config, db, time_limit, control)
    players = ", ".join(again.specs)
    if again.difference:
        out.print(f"played again by {escape(players)}: differs at {escape(again.difference)}", highlight=False,
                  soft_wrap=True)
        raise typer.Exit(1)
    out.print(f"played again by {escape(players)}: the same {again.outcome.turns} turns and result", highlight=False,
              soft_wrap=True)


def _report_check(report: CheckReport) -> None:
    """Print what a check found: each malformed record, the first differences, and ``N agree, M differ``;
    exit status 1 unless every record agrees."""
    assert report.differ is not None and report.malformed is not None
    for problem in report.malformed:
        err.print(f"[red]malformed:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    for where, detail in report.differ[:MAX_DIFFERENCES_SHOWN]:
        out.print(f"differs: {escape(where)}: {escape(detail)}", highlight=False, soft_wrap=True)
    if len(report.differ) > MAX_DIFFERENCES_SHOWN:
        out.print(f"... and {len(report.differ) - MAX_DIFFERENCES_SHOWN} more", highlight=False)
    summary = f"{report.agree} agree, {len(report.differ)} differ"
    if report.malformed:
        summary += f", {len(report.malformed)} malformed"
    out.print(summary, highlight=False)
    if not report.ok:
        raise typer.Exit(1)


def write_replay_page(record: dict[str, Any], registry: Registry, path: Path) -> None:
    """Write ``record``'s replay page to ``path`` and say so on stderr."""
    path.write_text(build_replay_html(record, registry), encoding="utf-8")
    err.print(f"replay page written to {path}", highlight=False)


def stored_game(targets: list[str]) -> tuple[int, int] | None:
    """``(run, game)`` when ``targets`` name a stored game (``RUN GAME`` or ``RUN:GAME``) rather than files."""
    if any(Path(target).exists() for target in targets):
        return None
    parts = targets[0].split(":") if len(targets) == 1 else targets
    if len(parts) == 2 and all(part.isdigit() for part in parts):
        return int(parts[0]), int(parts[1])
    return None


def _play_back(record: dict[str, Any], registry: Any, delay: float, step: bool, only: int | None) -> None:
    game = new_game(record, registry)
    labels = [player["bot"] for player in record["players"]]
    names = seat_names(labels, type(game).roles)
    colour = out.color_system is not None  # else the plain drawing, which tells players apart without colour
    out.print(f"[bold]{escape(record['game'])}[/] on {escape((record.get('map') or {}).get('name', '-'))}, "
              f"seed {record['seed']}: {escape('  '.join(names))}")
    turns = record["turns"]
    if only is not None and not 0 <= only <= len(turns):
        raise ArenaError(f"--turn {only}: the record has turns 0 to {len(turns)}")

    def frame(number: int, actions: dict[str, Any]) -> Text:
        moves = " ".join(f"{int(s) + 1}:{a}" for s, a in sorted(actions.items()))
        return Text.from_markup(escape(f"turn {number}/{len(turns)}  {moves}\n") + game.render(color=colour))

    if only is not None:
        for actions in turns[:only]:
            game.apply({int(s): a for s, a in actions.items()})
        out.print(frame(only, turns[only - 1] if only else {}))
    elif out.is_terminal and not step:
        with Live(console=out, auto_refresh=False) as live:
            live.update(frame(0, {}), refresh=True)
            for number, actions in enumerate(turns, start=1):
                time.sleep(delay)
                game.apply({int(s): a for s, a in actions.items()})
                live.update(frame(number, actions), refresh=True)
    else:
        out.print(frame(0, {}))
        for number, actions in enumerate(turns, start=1):
            if step:
                typer.prompt("", default="", show_default=False, prompt_suffix="")
            game.apply({int(s): a for s, a in actions.items()})
            out.print(frame(number, actions))
    ranks = ", ".join(f"{name} rank {rank}" for name, rank in zip(names, record["result"]["ranks"], strict=True))
    out.print(f"[bold]Result:[/] {escape(ranks)} (rank 1 is best)", soft_wrap=True)
    out.print(f"[bold]Reason:[/] {escape(with_bot_names(record['result'].get('reason', ''), labels))}",
              soft_wrap=True)
    for line in log_lines(record):
        out.print(line, markup=False, highlight=False, soft_wrap=True)
