"""``arena report RUN --html FILE``: one self-contained HTML page (no scripts, no network) for a stored run.

It holds the standings with their intervals, the pairwise matrix as a heat map with the differences that
survive Holm's correction marked, the per-map and per-seat tables, rating history charts (the run game
by game, and every run so far), the failures, and every game linked to its replay page.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from arena.report.analysis import analysis_tables, standings_sections
from arena.report.charts import line_chart, point_chart
from arena.report.failures import BotFailures, failures_by_bot
from arena.report.replay_page import game_page_name
from arena.report.time_use import time_use_by_bot, time_use_table, timed_run
from arena.stats.analysis import Analysis, analyse, player_name
from arena.stats.standings import standings_from_games
from arena.storage.history import played_from_rows
from arena.storage.queries import rating_series, run_rating_series
from arena.storage.store import GameRow, Store

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; font-size: 1.25em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }
th { background: #f4f4f4; white-space: nowrap; } td.name, th.name { text-align: left; }
pre.traceback { background: #f8f4f4; border-left: 3px solid #c33; padding: 0.5em 1em; overflow-x: auto; }
table.heat td { text-align: center; border: 1px solid #fff; min-width: 4.5em; }
.legend { color: #555; font-size: 0.9em; }
svg { background: #fafafa; border: 1px solid #ddd; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], css: str = "", names: int = 1) -> str:
    head = "".join(f'<th class="{"name" if i < names else ""}">{_e(h)}</th>' for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f'<td class="{"name" if i < names else ""}">{_e(c)}</td>'
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f'<table class="{css}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _first_failures(failures: list[BotFailures]) -> str:
    """Per bot that failed: its counts and its first failure, with the traceback of its own code."""
    parts = []
    for entry in failures:
        first = entry.first
        assert first is not None
        parts.append(f'<p class="first-failure"><b>{_e(entry.label)}</b>: {_e(entry.counts_text())}; first in game '
                     f"{first.game}: {_e(first.detail)}</p>")
        if first.traceback:
            parts.append(f'<pre class="traceback">{_e(first.traceback)}</pre>')
    return "".join(parts)


def _heat_colour(score: float) -> str:
    """Red for 0, white for 1/2, green for 1."""
    if score >= 0.5:
        t = (score - 0.5) * 2
        return f"rgb({round(255 - 206 * t)}, {round(255 - 92 * t)}, {round(255 - 171 * t)})"
    t = (0.5 - score) * 2
    return f"rgb({round(255 - 40 * t)}, {round(255 - 207 * t)}, {round(255 - 224 * t)})"


def _heat_map(analysis: Analysis, order: Sequence[str]) -> str:
    pairs = {(p.a, p.b): p for p in analysis.pairs}
    head = '<th class="name">row vs column</th>' + "".join(f"<th>{_e(b)}</th>" for b in order)
    rows = []
    for a in order:
        cells = [f'<td class="name">{_e(a)}</td>']
        for b in order:
            pair = pairs.get((a, b))
            if pair is None:
                cells.append('<td class="empty">-</td>')
                continue
            mark = " *" if pair.significant else ""
            title = f"{pair.wins}-{pair.draws}-{pair.losses}, p = {pair.p_value:.3g}, Holm {pair.p_holm:.3g}"
            cells.append(f'<td class="cell" style="background-color: {_heat_colour(pair.score)}" title="{_e(title)}">'
                         f"{100 * pair.score:.0f}%{mark}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table class="heat"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _games_section(run_id: int, rows: Sequence[GameRow], games_href: str) -> str:
    """Every game of the run with its players, result and a link to its replay page under ``games_href``."""
    lines = []
    for row in rows:
        href = f"{games_href}/{game_page_name(run_id, row.idx)}"
        record = row.record
        players = ", ".join(f"{p.get('bot', '?')} ({rank})"
                            for p, rank in zip(record["players"], record["result"]["ranks"], strict=True))
        lines.append(f'<tr><td class="name"><a href="{_e(href)}">game {row.idx}</a></td>'
                     f"<td class=\"name\">{_e((record.get('map') or {}).get('name', '-'))}</td>"
                     f'<td class="name">{_e(players)}</td><td>{len(record["turns"])}</td>'
                     f'<td class="name">{_e(record["result"].get("reason", ""))}</td></tr>')
    return (f'<p class="legend">Each game opens its replay; <a href="{_e(games_href)}/index.html">all games</a>. '
            "Players are listed with their rank (1 is best).</p>"
            '<table class="games"><thead><tr><th class="name">game</th><th class="name">map</th>'
            '<th class="name">players (rank)</th><th>turns</th><th class="name">result</th></tr></thead>'
            f"<tbody>{''.join(lines)}</tbody></table>")


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
    title = f"{run.name} (run {run.id}): {run.game}, {run.format}"
    sections = [
        f"<h1>{_e(title)}</h1>",
        f'<p class="summary">{len(rows)} of {run.scheduled} games played, {_e(run.status)}; started '
        f"{_e(run.created_at)}.</p>",
        *(part for key, role in standings_sections(standings)
          for part in (f"<h2>Standings{', ' + _e(role) if role else ''}</h2>", _table(*tables[key], "standings",
                                                                                      names=2))),
        '<p class="legend">Ranked by the conservative TrueSkill rating mu - 3 sigma. Score intervals are 95% '
        "Wilson intervals; Elo is against the field; Bradley-Terry ratings are a maximum-likelihood fit of all "
        "games with 95% intervals. T/C/I/M: timeouts, crashes, illegal moves, out of memory.</p>",
        "<h2>Pairwise scores</h2>", _heat_map(analysis, order),
        '<p class="legend">The row bot\'s score against the column bot: green above 50%, red below. '
        "* marks a difference that is significant at 5% after Holm's correction over all pairs "
        "(exact sign test on the decisive games). Hover a cell for its wins-draws-losses and p-values.</p>",
        "<h2>Rating history</h2>",
        line_chart("mu - 3 sigma after each game of this run", in_run, "the bot's games in this run"),
        point_chart("mu - 3 sigma after each run it played, version by version, across every stored run",
                    {name: [(position[after], value) for after, value in points] for name, points in across.items()},
                    "run", [f"run {after}" for after in runs]),
        "<h2>Maps</h2>", _table(*tables["maps"], "maps", names=2),
        "<h2>Seat advantage</h2>",
        _table(*tables["seats"], "seats", names=0),
        '<p class="legend">A seat scoring above 50% is an advantage (for two players, the first seat moves '
        "first in alternating games).</p>",
        *(("<h2>Time use</h2>", _table(*time_use_table(time_use_by_bot(row.record for row in rows), "-"),
                                                 "time-use"),
           '<p class="legend">Seconds a move (elapsed, or CPU time under the CPU clock), and the time left on '
           "each bot's clock at the end of its games, on average.</p>") if timed_run(run.definition) else ()),
        "<h2>Failures</h2>",
        _first_failures(failures_by_bot((row.idx, row.record) for row in rows if row.failures)),
        _table(["game", "bot", "kind", "reason"], failures, "failures", names=4) if failures
        else '<p class="none">No bot failed.</p>',
        *(("<h2>Games</h2>", _games_section(run_id, rows, games_href)) if games_href is not None else ()),
    ]
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
            f"<style>{STYLE}</style></head><body>{''.join(sections)}</body></html>\n")
