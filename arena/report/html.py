"""``arena report RUN --html FILE``: one self-contained HTML page (no scripts, no network) for a stored run,
rendered from ``templates/report.html``.

It holds the standings with their intervals, the pairwise matrix as a heat map with the differences that
survive Holm's correction marked, the per-map and per-seat tables, rating history charts (the run game
by game, and every run so far), the failures, and the games that have a replay page, each linked to it (a
bounded choice of them unless asked for all: :mod:`arena.report.replay_choice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.report.analysis import analysis_tables, standings_sections
from arena.report.charts import point_layout
from arena.report.failures import failures_from_summaries
from arena.report.pages import render
from arena.report.time_use import time_use_by_bot, time_use_table, timed_run
from arena.stats.analysis import Analysis, player_name
from arena.storage import summary_queries
from arena.storage.queries import rating_series
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


FAILED_GAMES_SHOWN = 200
"""The report lists the run's failures game by game up to this many (the counts cover them all)."""


def build_html(store: Store, run_id: int, games_href: str | None = None,
               games: Sequence[dict[str, Any]] = (), replays_note: str = "") -> str:
    """The report page of stored run ``run_id``; with ``games_href`` (the relative address of a folder of
    replay pages, as :func:`arena.report.replay_page.write_game_pages` writes it), it lists ``games`` (as
    ``WrittenPages.games`` gives them, addresses relative to that folder), each linked to its replay, and says
    ``replays_note`` (which games have a page: :mod:`arena.report.replay_choice`).

    Everything but the list of games comes from the run's summaries, so the page is written in about the same
    time for a run of any length."""
    run = store.run(run_id)
    standings = summary_queries.standings(store, run_id)
    analysis = summary_queries.analysis(store, run_id)
    order = list(dict.fromkeys(player_name((row.label, row.role)) for row in standings.rows))

    in_run = {player_name(key): [(point.games, point.rating.conservative) for point in points]
              for key, points in summary_queries.rating_histories(store, run_id).items()}
    across = rating_series(store, run.game, [row.label for row in standings.rows], run_id)
    runs = sorted({after for points in across.values() for after, _ in points})
    position = {after: index for index, after in enumerate(runs)}

    failures = [[f.game, f.label, f.kind, f.reason]
                for f in summary_queries.failed_games(store, run_id, FAILED_GAMES_SHOWN)]
    tables = analysis_tables(standings, analysis)
    kind = "final" if summary_queries.ratings_are_final(store, run_id) else "live, each game rated as it was stored"
    return render(
        "report.html", title=f"{run.name} (run {run.id}): {run.game}, {run.format}",
        summary=f"{standings.played} of {run.scheduled} games played, {run.status}; started {run.created_at}.",
        standings=[(role, *tables[key]) for key, role in standings_sections(standings)],
        order=order, heat=heat_cells(analysis, order),
        in_run=point_layout(f"mu - 3 sigma over this run's games ({kind})", in_run, "the bot's games in this run"),
        across=point_layout("mu - 3 sigma after each run it played, version by version, across every stored run",
                            {name: [(position[after], value) for after, value in points]
                             for name, points in across.items()}, "run", [f"run {after}" for after in runs]),
        maps=tables["maps"], seats=tables["seats"],
        first_failures=failures_from_summaries(summary_queries.failure_summaries(store, run_id)),
        failures=failures, failures_shown=len(failures), failures_total=summary_queries.failure_count(store, run_id),
        time_use=(time_use_table(time_use_by_bot(row.record for row in store.games(run_id=run_id)), "-")
                  if timed_run(run.definition) else None),
        games=None if games_href is None else [{**line, "href": f"{games_href}/{line['href']}" if line["href"] else ""}
                                               for line in games],
        games_href=games_href, replays_note=replays_note)
