"""``arena report RUN``: the standings with how sure each number is, as rich tables or md/csv/json/latex."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from tabulate import tabulate

from arena.report.failures import BotFailures, failure_lines, failure_records
from arena.report.tables import rich_table
from arena.stats.analysis import Analysis, player_name
from arena.stats.standings import Standings, failure_summary

LEGEND = ("Score intervals: 95% Wilson. Success: (wins - losses) / games, from -1 to +1 (Cloppert 2007). "
          "Elo: against the field, ± its 95% margin. BT: Bradley-Terry "
          "maximum-likelihood rating of all games with its 95% interval. In the pairwise table, * marks a "
          "difference significant at 5% after Holm's correction over every pair (exact sign test on the "
          "decisive games).")


def elo_text(elo: float, error: float) -> str:
    """Elo ± its margin, in words where a number would be infinite: ``all won``, ``+191 (±wide)``."""
    if not math.isfinite(elo):
        return "all won" if elo > 0 else "all lost"
    return f"{elo:+.0f}±{error:.0f}" if math.isfinite(error) else f"{elo:+.0f} (±wide)"


def standings_sections(standings: Standings) -> list[tuple[str, str | None]]:
    """The standings tables of a report: one for a game without roles, else one per role (key, role)."""
    if not standings.roles:
        return [("standings", None)]
    return [(f"standings, {role}", role) for role in standings.roles]


def analysis_tables(standings: Standings, analysis: Analysis) -> dict[str, tuple[list[str], list[list[Any]]]]:
    """The report's tables by name: headers and rows of display strings (the standings one table per role)."""
    tables: dict[str, tuple[list[str], list[list[Any]]]] = {}
    for key, role in standings_sections(standings):
        rows = []
        for rank, row in enumerate((r for r in standings.rows if role is None or r.role == role), start=1):
            stats = analysis.bots.get((row.label, row.role))
            score = f"{100 * row.score:.0f}%"
            if stats:
                score += f" [{100 * stats.score.lower:.0f}-{100 * stats.score.upper:.0f}]"
            elo = elo_text(stats.elo.elo, stats.elo.error) if stats else ""
            bt = f"{stats.bt.rating:+.0f} [{stats.bt.lower:+.0f},{stats.bt.upper:+.0f}]" if stats and stats.bt else ""
            rows.append([str(rank), row.label + (f" ({row.role})" if row.role else ""),
                         f"{row.rating.conservative:.1f}", f"{row.wins}-{row.draws}-{row.losses}", score,
                         f"{stats.success:+.2f}" if stats else "", elo, bt, failure_summary(row)])
        tables[key] = (["#", "bot", "mu-3σ", "W-D-L", "score [95%]", "success", "Elo±95%", "BT [95%]", "T/C/I/M"],
                       rows)
    order = list(dict.fromkeys(player_name((row.label, row.role)) for row in standings.rows))
    pairs = {(p.a, p.b): p for p in analysis.pairs}
    matrix = []
    for a in order:
        cells = [a]
        for b in order:
            pair = pairs.get((a, b))
            cells.append("-" if pair is None else f"{100 * pair.score:.0f}%{' *' if pair.significant else ''}")
        matrix.append(cells)
    maps = [[m.map, player_name(m.key), str(m.score.games), f"{100 * m.score.score:.1f}%",
             f"[{100 * m.score.lower:.0f}, {100 * m.score.upper:.0f}]"] for m in analysis.maps]
    seats = [[str(s.seat), str(s.score.games), f"{100 * s.score.score:.1f}%",
              f"[{100 * s.score.lower:.0f}, {100 * s.score.upper:.0f}]", f"{s.p_value:.3g}"] for s in analysis.seats]
    return {
        **tables,
        "pairwise": (["vs", *order], matrix),
        "maps": (["map", "bot", "games", "score", "95% CI"], maps),
        "seats": (["seat", "games", "score", "95% CI", "p"], seats),
    }


def analysis_records(standings: Standings, analysis: Analysis) -> dict[str, list[dict[str, Any]]]:
    """The report as JSON-ready records with full precision."""
    bots = []
    for rank, row in enumerate(standings.rows, start=1):
        stats = analysis.bots.get((row.label, row.role))
        record: dict[str, Any] = {"rank": rank, "bot": row.label, "role": row.role,
                                  "conservative": row.rating.conservative, "mu": row.rating.mu,
                                  "sigma": row.rating.sigma, "games": row.games, "wins": row.wins,
                                  "draws": row.draws, "losses": row.losses, "score": row.score,
                                  "failures": dict(row.failures)}
        if stats:
            record.update(score_lower=stats.score.lower, score_upper=stats.score.upper, success=stats.success,
                          elo=stats.elo.elo,
                          elo_error=stats.elo.error, los=stats.elo.los)
            if stats.bt:
                record.update(bt=stats.bt.rating, bt_lower=stats.bt.lower, bt_upper=stats.bt.upper)
        bots.append(record)
    return {
        "standings": bots,
        "pairwise": [{"bot": p.a, "opponent": p.b, "wins": p.wins, "draws": p.draws, "losses": p.losses,
                      "score": p.score, "p_value": p.p_value, "p_holm": p.p_holm, "significant": p.significant}
                     for p in analysis.pairs],
        "maps": [{"map": m.map, "bot": m.key[0], "role": m.key[1], "games": m.score.games, "score": m.score.score,
                  "lower": m.score.lower, "upper": m.score.upper} for m in analysis.maps],
        "seats": [{"seat": s.seat, "games": s.score.games, "score": s.score.score, "lower": s.score.lower,
                   "upper": s.score.upper, "p_value": s.p_value} for s in analysis.seats],
    }


def render_analysis(standings: Standings, analysis: Analysis, fmt: str, console: Console,
                    failures: Sequence[BotFailures] = ()) -> None:
    """Print the report in ``fmt``: rich tables, or md / csv / json / latex text, then the failures."""
    if fmt == "json":
        console.print_json(json.dumps({**analysis_records(standings, analysis),
                                       "failures": failure_records(list(failures))}))
        return
    tables = analysis_tables(standings, analysis)
    titles = {"pairwise": "Pairwise scores", "maps": "Scores by map", "seats": "Seat advantage (score of each seat)"}
    for key, role in standings_sections(standings):
        titles[key] = f"Standings{', ' + role if role else ''}: {standings.game}, {standings.played} games"
    if fmt == "table":
        for name, (headers, rows) in tables.items():
            names = [i for i, header in enumerate(headers) if header in ("bot", "vs", "map")]
            console.print(rich_table(titles[name], headers, rows, names=names, named_columns=name == "pairwise",
                                     right=[i for i in range(len(headers)) if i not in names]))
        console.print(LEGEND, style="dim")
        _print_failures(failures, console)
        return
    parts = []
    for name, (headers, rows) in tables.items():
        if fmt == "csv":
            parts.append("\n".join(",".join(_csv(cell) for cell in line) for line in [headers, *rows]))
        else:
            style = {"md": "github", "latex": "latex_booktabs"}[fmt]
            heading = f"## {titles[name]}\n\n" if fmt == "md" else f"% {titles[name]}\n"
            parts.append(heading + tabulate(rows, headers, tablefmt=style))
    text = "\n\n".join(parts) + ("" if fmt == "csv" else f"\n\n{'' if fmt == 'md' else '% '}{LEGEND}")
    console.print(text, markup=False, highlight=False, soft_wrap=True)
    if fmt == "md" and failures:
        console.print("\n## Failures\n\n```\n" + "\n".join(failure_lines(list(failures))[1:]) + "\n```",
                      markup=False, highlight=False, soft_wrap=True)
    elif fmt == "latex":
        _print_failures(failures, console, prefix="% ")


def _print_failures(failures: Sequence[BotFailures], console: Console, prefix: str = "") -> None:
    lines = failure_lines(list(failures))
    if lines:
        console.print("\n".join(prefix + line for line in ["", *lines]), markup=False, highlight=False,
                      soft_wrap=True)


def _csv(cell: str) -> str:
    return f'"{cell}"' if "," in cell or '"' in cell else cell
