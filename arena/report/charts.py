"""The one chart module of every arena page: line charts of a value over games or runs, and sparklines, as
inline SVG (nothing fetched, no script).

A chart is worked out here, in Python, as a layout (:class:`ChartLayout`, :class:`SparklineLayout`: every
coordinate computed), and drawn by the macros of ``templates/charts.html``: a page template imports them
(``{% import "charts.html" as charts %}``) and draws ``{{ charts.chart(layout) }}`` for a layout of
:func:`point_layout` or :func:`line_layout`, ``{{ charts.sparkline(spark) }}`` for one of
:func:`sparkline_layout`. Python code that wants the HTML text calls :func:`line_chart`, :func:`point_chart` or
:func:`sparkline`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.report.pages import call_macro

MAX_TICK_LABELS = 12
"""At most this many positions on the x axis are labelled (every second, third, ... when there are more)."""
PALETTE = ("#d7301f", "#2b8cbe", "#31a354", "#e6ab02", "#756bb1", "#636363", "#e7298a", "#66a61e")


@dataclass(frozen=True)
class ChartLine:
    """One series as drawn: its solid stretches (SVG ``points`` texts), dashed gaps ``(x1, y1, x2, y2)``, marked
    points ``(cx, cy, tooltip)``, a lone dot ``(cx, cy)`` for a one-point series without marks, and its label."""

    name: str
    colour: str
    stretches: list[str]
    gaps: list[tuple[str, str, str, str]] = field(default_factory=list)
    points: list[tuple[str, str, str]] = field(default_factory=list)
    dot: tuple[str, str] | None = None
    label_y: int = 0
    band: str = ""
    """The SVG ``points`` of the shaded band around the series (its low edge, then its high edge back), if any."""


@dataclass(frozen=True)
class ChartLayout:
    """A line chart, every coordinate worked out: what ``charts.chart`` in ``templates/charts.html`` draws.
    ``lines`` empty: the chart has no data (drawn as a sentence)."""

    title: str
    x_label: str
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    high: str
    low: str
    ticks: list[tuple[str, str]]
    lines: list[ChartLine]


@dataclass(frozen=True)
class SparklineLayout:
    """A small chart of one series without axes (a leaderboard's rating trend): the SVG ``points`` text, and
    the last point (drawn as a dot)."""

    width: int
    height: int
    points: str
    last: tuple[str, str] | None
    title: str


def _stretches(points: Sequence[tuple[int, float]]) -> list[list[tuple[int, float]]]:
    """``points`` cut where a position is skipped: the runs of consecutive positions."""
    stretches: list[list[tuple[int, float]]] = []
    for point in points:
        if stretches and point[0] == stretches[-1][-1][0] + 1:
            stretches[-1].append(point)
        else:
            stretches.append([point])
    return stretches


def line_layout(title: str, series: Mapping[str, Sequence[float]], x_label: str, width: int = 720,
                height: int = 260) -> ChartLayout:
    """A line chart, one polyline per series, labelled at its right; ``series`` maps a name to its values,
    drawn at x = 0, 1, 2, ..."""
    return point_layout(title, {name: list(enumerate(values)) for name, values in series.items()}, x_label,
                        width=width, height=height)


def point_layout(title: str, series: Mapping[str, Sequence[tuple[int, float]]], x_label: str,
                 ticks: Sequence[str] = (), width: int = 720, height: int = 260,
                 bands: Mapping[str, Sequence[tuple[int, float, float]]] | None = None) -> ChartLayout:
    """A line chart of series that share an x axis but need not cover all of it: ``series`` maps a name to its
    ``(x, value)`` points, x a position 0, 1, 2, ... on the axis. With ``ticks`` (the label of each position),
    each point is marked, with a tooltip naming its position and value, and a series is drawn solid between
    consecutive positions and dashed across positions where it has no point. ``bands`` maps a series' name to
    ``(x, low, high)`` points: a shaded band drawn around it (an uncertainty, say)."""
    left, right, top, bottom = 50, width - 150, 20, height - 35
    bands = bands or {}
    values = [v for points in series.values() for _, v in points]
    values += [v for name in series for _, low, high in bands.get(name, ()) for v in (low, high)]
    if not values:
        return ChartLayout(title, x_label, width, height, left, right, top, bottom, "", "", [], [])
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    positions = max(len(ticks), 1 + max(x for points in series.values() for x, _ in points))

    def x(i: int) -> str:
        return f"{left + (right - left) * (i / max(1, positions - 1)):.1f}"

    def y(v: float) -> str:
        return f"{bottom - (bottom - top) * (v - low) / span:.1f}"

    step = -(-len(ticks) // MAX_TICK_LABELS) or 1
    tick_marks = [(x(i), tick) for i, tick in enumerate(ticks) if i % step == 0]
    lines = []
    for index, (name, points) in enumerate(sorted(series.items())):
        stretches = [" ".join(f"{x(i)},{y(v)}" for i, v in stretch) for stretch in
                     (_stretches(points) if ticks else [points])]
        gaps = [(x(i), y(v), x(j), y(w)) for (i, v), (j, w) in itertools.pairwise(points) if j > i + 1] if ticks else []
        marks = [(x(i), y(v), f"{name}, {ticks[i]}: {v:.2f}") for i, v in points] if ticks else []
        dot = (x(points[0][0]), y(points[0][1])) if not ticks and len(points) == 1 else None
        around = bands.get(name, ())
        band = " ".join([f"{x(i)},{y(low)}" for i, low, _ in around] +
                        [f"{x(i)},{y(high)}" for i, _, high in reversed(around)])
        lines.append(ChartLine(name, PALETTE[index % len(PALETTE)], stretches, gaps, marks, dot,
                               top + 16 * (index + 1), band))
    return ChartLayout(title, x_label, width, height, left, right, top, bottom, f"{high:.1f}", f"{low:.1f}",
                       tick_marks, lines)


def sparkline_layout(values: Sequence[float], width: int = 100, height: int = 20, title: str = "") -> SparklineLayout:
    """A sparkline of ``values`` (oldest first), scaled to fill ``width`` x ``height`` with a pixel of margin."""
    if not values:
        return SparklineLayout(width, height, "", None, title)
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    count = len(values)
    coords = [(f"{1 + (width - 2) * (i / max(1, count - 1)):.1f}",
               f"{height - 1 - (height - 2) * (v - low) / span:.1f}") for i, v in enumerate(values)]
    return SparklineLayout(width, height, " ".join(f"{cx},{cy}" for cx, cy in coords), coords[-1], title)


def _render(macro: str, layout: ChartLayout | SparklineLayout) -> str:
    return call_macro("charts.html", macro, layout)


def line_chart(title: str, series: Mapping[str, Sequence[float]], x_label: str, width: int = 720,
               height: int = 260) -> str:
    """:func:`line_layout` drawn: the chart's HTML (a ``figure`` holding an ``svg.chart``)."""
    return _render("chart", line_layout(title, series, x_label, width, height))


def point_chart(title: str, series: Mapping[str, Sequence[tuple[int, float]]], x_label: str,
                ticks: Sequence[str] = (), width: int = 720, height: int = 260) -> str:
    """:func:`point_layout` drawn: the chart's HTML (a ``figure`` holding an ``svg.chart``)."""
    return _render("chart", point_layout(title, series, x_label, ticks, width, height))


def sparkline(values: Sequence[float], width: int = 100, height: int = 20, title: str = "") -> str:
    """:func:`sparkline_layout` drawn: an ``svg.sparkline``."""
    return _render("sparkline", sparkline_layout(values, width, height, title))
