"""Commands that judge how sure a result is: compare (bots by SPRT, or runs) and report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.live import Live
from rich.markup import escape
from rich.text import Text

from arena.cli.app import app
from arena.cli.common import (
    Address,
    BotsDir,
    BuildTimeout,
    Db,
    ExecutorName,
    Format,
    Options,
    SandboxFlag,
    StartupTimeout,
    check_output_format,
    emit_table,
    err,
    load_registry_reporting,
    out,
    parse_options,
    plugin_config,
    run_failures,
    user_errors,
)
from arena.cli.openings_options import OpeningsCount, OpeningsFile, OpeningsOrder, OpeningsPlies
from arena.cli.panels import RESULTS
from arena.cli.time_use import print_time_use
from arena.cli.timing import ClockOption, FirstMove, TimeControlOption, TimeLimit, timing
from arena.core.errors import ArenaError
from arena.play.executor_choice import ExecutorChoice
from arena.play.executors import default_workers
from arena.play.sandbox import SandboxLimits, require_sandbox
from arena.report.analysis import render_analysis
from arena.report.html import build_html
from arena.report.replay_choice import DEFAULT_REPLAYS, ReplayChoice, chosen_rows, game_count
from arena.report.replay_page import write_game_pages
from arena.stats.analysis import compare_ratings
from arena.storage import summary_queries
from arena.storage.queries import run_standings
from arena.storage.sources import use_stored_versions
from arena.storage.store import Store


@app.command("compare", rich_help_panel=RESULTS)
@user_errors
def compare_command(
    new: Annotated[str, typer.Argument(help="The new bot spec (e.g. voronoi:depth=4), or run A.")],
    old: Annotated[str, typer.Argument(
        help="The bot spec it must beat (a stored version too: hugger@85250da6), or run B.")],
    sprt: Annotated[str | None, typer.Option("--sprt", help="H0 and H1 as Elo differences ELO0,ELO1, e.g. 0,10.",
                                             show_default=False)] = None,
    maps: Annotated[list[str] | None, typer.Option(
        "--map", "-m", help="A map file or name with 2 seats (repeatable); the pairs cycle through the maps "
        "[default: the default maps of the game both bots play, as `arena games` lists them].",
        show_default=False)] = None,
    openings: OpeningsFile = None,
    openings_order: OpeningsOrder = None,
    openings_plies: OpeningsPlies = None,
    openings_count: OpeningsCount = None,
    option: Options = None,
    alpha: Annotated[float, typer.Option(help="Chance of accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option(help="Chance of accepting H0 when H1 holds.")] = 0.05,
    time_limit: TimeLimit = None,
    time_control: TimeControlOption = None,
    first_move: FirstMove = None,
    clock: ClockOption = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Worker processes [default: all cores].",
                                                show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed; each pair's seed derives from it.")] = 0,
    max_pairs: Annotated[int | None, typer.Option(help="Stop undecided after this many pairs [default: no limit].",
                                                  show_default=False)] = None,
    sandbox: SandboxFlag = False,
    build_timeout: BuildTimeout = None,
    startup_timeout: StartupTimeout = None,
    db: Db = None,
    formats: Format = "table",
    bots_dir: BotsDir = None,
    executor: ExecutorName = None,
    address: Address = None,
) -> None:
    """Is NEW better than OLD? Bots: play seat-swapped pairs until a GSPRT decides (--sprt).

    Runs (arena compare RUN_A RUN_B): each bot's rating change from A to B, and whether it is significant.
    """
    if new.isdigit() and old.isdigit():
        if sprt is not None:
            raise ArenaError("--sprt plays bots against each other; two run numbers compare stored runs")
        check_output_format(formats)
        _compare_runs(int(new), int(old), db, formats)  # arena compare RUN_A RUN_B
        return
    if sprt is None:
        raise ArenaError("comparing two bots needs --sprt ELO0,ELO1 (e.g. --sprt 0,10); "
                         "comparing stored runs takes two run numbers")
    from arena.stats.elo import PENTANOMIAL_LABELS
    from arena.tournament.openings import OpeningsChoice
    from arena.tournament.sprt import SprtSettings, SprtState, parse_sprt, plan_compare, run_compare

    settings = SprtSettings(*parse_sprt(sprt), alpha, beta)
    limits = SandboxLimits() if sandbox else None
    if limits is not None:
        require_sandbox()
    config = plugin_config(bots_dir, build_timeout, startup_timeout, limits)
    registry = load_registry_reporting(config)
    (new, old), config = use_stored_versions([new, old], db, registry, config)
    move_limit, control = timing(time_limit, time_control, first_move, clock)
    book = None
    if openings is not None:
        book = OpeningsChoice(openings, openings_order or "sequential", openings_plies, openings_count)
    elif openings_order or openings_plies or openings_count:
        raise ArenaError("--openings-order, --openings-plies and --openings-count go with --openings FILE")
    plan = plan_compare(new, old, maps, registry, time_limit=move_limit, seed=seed, max_pairs=max_pairs,
                        workers=default_workers() if workers is None else workers, time_control=control,
                        openings=book, options=parse_options(option))
    choice = ExecutorChoice(executor or "local", address)
    lower, upper = settings.bounds
    printed = [-1]

    def line(state: SprtState) -> str:
        elo = state.elo()
        return (f"pair {state.pairs} ({2 * state.pairs} games)  W-D-L {state.wins}-{state.draws}-{state.losses}  "
                f"LLR {state.llr:.2f} [{lower:.2f}, {upper:.2f}]  Elo {elo.elo:+.1f} ± {elo.error:.1f}")

    def show(text: str) -> None:
        out.print(text, highlight=False, soft_wrap=True)

    def report(state: SprtState) -> None:  # pairs 1-10, then every 10 to 100, every 100 to 1000, ...
        if state.pairs % 10 ** (len(str(state.pairs)) - 1) == 0:
            show(escape(line(state)))
            printed.append(state.pairs)

    given = len(maps or []) if openings is not None else len(plan.game_maps)  # maps first, then the openings
    map_names = ", ".join(game_map.name for game_map in plan.game_maps[:given])
    if openings is not None:
        book_text = f"{len(plan.game_maps) - given} openings of {Path(openings).name}"
        map_names = f"{map_names}, {book_text}" if map_names else book_text
    show(f"[bold]{escape(plan.new.label)}[/] vs [bold]{escape(plan.old.label)}[/] on {escape(map_names)}: "
         f"H0 {settings.elo0:+g} Elo, H1 {settings.elo1:+g} Elo, alpha {alpha:g}, beta {beta:g}")
    if out.is_terminal:
        with Live(console=out, auto_refresh=False, transient=True) as live:
            result = run_compare(plan, settings, registry, config,
                                 lambda state: live.update(Text(line(state)), refresh=True), executor=choice,
                                 sandbox=limits)
    else:
        result = run_compare(plan, settings, registry, config, report, executor=choice, sandbox=limits)

    state = result.state
    if printed[-1] != state.pairs:
        show(escape(line(state)))
    if result.decision is not None:
        bound = upper if result.decision == "H1" else lower
        show(f"[bold]{result.decision} accepted[/]: LLR {state.llr:.2f} reached the bound {bound:.2f} after "
             f"{state.pairs} pairs ({2 * state.pairs} games)")
    else:
        show(f"[bold]no decision after {state.pairs} pairs[/]" + (" (stopped)" if result.interrupted else ""))
    elo = state.elo()
    counts = ", ".join(f"{label} {count}" for label, count in zip(PENTANOMIAL_LABELS, state.counts, strict=True))
    if state.pairs and state.draws == 2 * state.pairs:
        show(f"every game was drawn ({2 * state.pairs} games): no difference between the bots was measured; "
             "try other maps (--map) or a longer comparison")
    else:
        show(f"Elo {elo.elo:+.1f} ± {elo.error:.1f} (95%, from pairs), LOS {100 * elo.los:.1f}%  "
             f"[dim]pairs: {counts}[/]")
    show(f"Success {state.success():+.3f} (games won minus games lost, over games played: Cloppert 2007)")
    if result.interrupted:
        raise typer.Exit(130)




def _run_ratings(store: Store, run_id: int) -> dict[tuple[str, str | None], tuple[float, float]]:
    return {(row.label, row.role): (row.rating.mu, row.rating.sigma) for row in run_standings(store, run_id).rows}


def _compare_runs(run_a: int, run_b: int, db: Path | None, fmt: str) -> None:
    with Store(db, read_only=True) as store:
        changes = compare_ratings(_run_ratings(store, run_a), _run_ratings(store, run_b))
    if not changes:
        raise ArenaError(f"runs {run_a} and {run_b} have no bot in common")
    rows = [[c.label + (f" ({c.role})" if c.role else ""), f"{c.mu_a:.2f} ± {c.sigma_a:.2f}",
             f"{c.mu_b:.2f} ± {c.sigma_b:.2f}", f"{c.change:+.2f}", f"{c.z:+.2f}", f"{c.p_value:.3g}",
             "yes" if c.significant else "no"] for c in changes]
    emit_table(["bot", f"run {run_a}", f"run {run_b}", "change", "z", "p", "significant"], rows, fmt,
          f"Rating changes from run {run_a} to run {run_b} (TrueSkill mu ± sigma; z-test at 5%)",
               names=("bot",))


@app.command("report", rich_help_panel=RESULTS)
@user_errors
def report_command(
    run: Annotated[int | None, typer.Argument(help="The stored run [default: the latest].",
                                              show_default=False)] = None,
    html_file: Annotated[Path | None, typer.Option(
        "--html", metavar="FILE", help="Write a self-contained HTML report here.", show_default=False)] = None,
    replays: Annotated[str, typer.Option(
        "--replays", metavar="all|none|N",
        help="With --html: which games get a replay page, in a folder beside the report (REPORT-games/): all, "
             "none, or N games (the longest of each pairing, then games spread over the run) "
             f"[default: {DEFAULT_REPLAYS}].", show_default=False)] = str(DEFAULT_REPLAYS),
    no_replays: Annotated[bool, typer.Option("--no-replays", help="The same as --replays none.")] = False,
    formats: Format = "table",
    db: Db = None,
    bots_dir: BotsDir = None,
) -> None:
    """A run's standings with intervals, pairwise significance, maps and seat advantage (the latest run without
    RUN); --html for a page, with each game linked to its replay."""
    if formats not in ("table", "md", "csv", "json", "latex"):
        raise ArenaError(f"--format {formats!r} is not one of: table, md, csv, json, latex")
    choice = ReplayChoice(0) if no_replays else ReplayChoice.parse(replays)
    with Store(db, read_only=True) as store:
        if run is None:
            run = store.latest_run().id
        if html_file is not None:
            total = game_count(store, run)
            games_href, games, note = None, [], choice.describe(0, total)
            if choice.count != 0:
                folder = html_file.parent / f"{html_file.stem}-games"
                registry = load_registry_reporting(plugin_config(bots_dir))
                pages = write_game_pages(run, ((row.idx, row.record) for row in chosen_rows(store, run, choice)),
                                         folder, registry, f"Run {run}: the games with a replay page")
                for problem in pages.problems:
                    err.print(f"not replayable: {problem}", highlight=False, soft_wrap=True)
                games_href, games, note = folder.name, pages.games, choice.describe(len(pages.games), total)
            html_file.write_text(build_html(store, run, games_href, games, note), encoding="utf-8")
            err.print(f"report written to {html_file}" + (f", {len(games)} replay pages to {html_file.stem}-games/"
                                                          if games_href else "") + f". {note}",
                      highlight=False, soft_wrap=True)
            return
        standings = summary_queries.standings(store, run)
        analysis = summary_queries.analysis(store, run)
        failures = run_failures(store, run)
    render_analysis(standings, analysis, formats, out, failures)
    with Store(db, read_only=True) as store:
        print_time_use(store, run, formats)
