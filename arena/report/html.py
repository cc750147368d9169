"""``arena report RUN --html FILE``: one self-contained HTML page (no scripts, no network) for a stored run,
rendered from ``templates/report.html``.

It holds the standings with their intervals, the pairwise matrix as a heat map with the differences that
survive Holm's correction marked, the per-map and per-seat tables, rating history charts (the run game
by game, and every run so far), the failures, and every game linked to its replay page.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.report.analysis import analysis_tables, standings_sections
from arena.report.charts import line_layout, point_layout
from arena.report.failures import failures_by_bot
from arena.report.pages import render
from arena.report.replay_page import game_line, game_page_name
from arena.stats.analysis import Analysis, analyse, player_name
from arena.stats.standings import standings_from_games
from arena.storage.history import played_from_rows
from arena.storage.queries import rating_series, run_rating_series
from arena.storage.store import Store


def heat_colour(score: float) -> str:
    """Red for 0, white for 1/2, green for 1."""
    if score >= 0.5:
        t = (score - 0.5) * 2
        return f"rgb({round(255 - 206 * t)}, {round(255 - 92 * t)}, {round(255 - 171 * t)})"
    t = (0.5 - score) * 2
    return f"rgb({round(255 - 40 * t)}, {round(255 - 207 * t)}, {round(255 - 224 * t)})"


def heat_cells(analysis: Analysis, order: Sequence[str]) -> list[tuple[str, list[dict[str, str] | None]]]:
    """The pairwise matrix as the report's heat map draws it: per row bot, a cell per column bot (``None``
    where they did not meet) with its text, colour and tooltip."""
    pairs = {(p.a, p.b): p for p in analysis.pairs}
    rows = []
    for a in order:
        cells: list[dict[str, str] | None] = []
        for b in order:
            pair = pairs.get((a, b))
            cells.append(None if pair is None else {
                "text": f"{100 * pair.score:.0f}%{' *' if pair.significant else ''}",
                "colour": heat_colour(pair.score),
                "title": f"{pair.wins}-{pair.draws}-{pair.losses}, p = {pair.p_value:.3g}, Holm {pair.p_holm:.3g}"})
        rows.append((a, cells))
    return rows


def build_html(store: Store, run_id: int, games_href: str | None = None) -> str:
    """The report page of stored run ``run_id``; with ``games_href`` (the relative address of a folder of
    replay pages, as :func:`arena.report.replay_page.write_game_pages` writes it), each game links to its replay."""
    run = store.run(run_id)
    rows = list(store.games(run_id=run_id))
    played = played_from_rows(rows)
    standings = standings_from_games(run.game, played, run.scheduled)
    analysis = analyse(played)
    order = list(dict.fromkeys(player_name((row.label, row.role)) for row in standings.rows))

    in_run = run_rating_series(store, run_id)
    across = rating_series(store, run.game, [row.label for row in standings.rows], run_id)
    runs = sorted({after for points in across.values() for after, _ in points})
    position = {after: index for index, after in enumerate(runs)}

    failures = [[row.idx, row.labels[seat], kind, row.reason]
                for row in rows for seat, kind in sorted(row.failures.items())]
    tables = analysis_tables(standings, analysis)
    games = None if games_href is None else [
        game_line(f"game {row.idx}", f"{games_href}/{game_page_name(run_id, row.idx)}", row.record) for row in rows]
    return render(
        "report.html", title=f"{run.name} (run {run.id}): {run.game}, {run.format}",
        summary=f"{len(rows)} of {run.scheduled} games played, {run.status}; started {run.created_at}.",
        standings=[(role, *tables[key]) for key, role in standings_sections(standings)],
        order=order, heat=heat_cells(analysis, order),
        in_run=line_layout("mu - 3 sigma after each game of this run", in_run, "the bot's games in this run"),
        across=point_layout("mu - 3 sigma after each run it played, version by version, across every stored run",
                            {name: [(position[after], value) for after, value in points]
                             for name, points in across.items()}, "run", [f"run {after}" for after in runs]),
        maps=tables["maps"], seats=tables["seats"],
        first_failures=failures_by_bot((row.idx, row.record) for row in rows if row.failures),
        failures=failures, failures_shown=len(failures), failures_total=len(failures),
        games=games, games_href=games_href)
