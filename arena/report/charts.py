"""Charts for HTML pages, as inline SVG (nothing fetched): line charts of a value over games or runs."""

from __future__ import annotations

import html
import itertools
from collections.abc import Mapping, Sequence

MAX_TICK_LABELS = 12
"""At most this many positions on the x axis are labelled (every second, third, ... when there are more)."""
PALETTE = ("#d7301f", "#2b8cbe", "#31a354", "#e6ab02", "#756bb1", "#636363", "#e7298a", "#66a61e")


def _e(text: object) -> str:
    return html.escape(str(text))


def _stretches(points: Sequence[tuple[int, float]]) -> list[list[tuple[int, float]]]:
    """``points`` cut where a position is skipped: the runs of consecutive positions."""
    stretches: list[list[tuple[int, float]]] = []
    for point in points:
        if stretches and point[0] == stretches[-1][-1][0] + 1:
            stretches[-1].append(point)
        else:
            stretches.append([point])
    return stretches


def line_chart(title: str, series: Mapping[str, Sequence[float]], x_label: str, width: int = 720,
               height: int = 260) -> str:
    """An SVG line chart, one polyline per series, labelled at its right; ``series`` maps a name to its values,
    drawn at x = 0, 1, 2, ..."""
    return point_chart(title, {name: list(enumerate(values)) for name, values in series.items()}, x_label,
                       width=width, height=height)


def point_chart(title: str, series: Mapping[str, Sequence[tuple[int, float]]], x_label: str,
                ticks: Sequence[str] = (), width: int = 720, height: int = 260) -> str:
    """An SVG line chart of series that share an x axis but need not cover all of it: ``series`` maps a name
    to its ``(x, value)`` points, x a position 0, 1, 2, ... on the axis. With ``ticks`` (the label of each
    position), each point is marked, with a tooltip naming its position and value, and a series is drawn
    solid between consecutive positions and dashed across positions where it has no point."""
    values = [v for points in series.values() for _, v in points]
    if not values:
        return f"<p>{_e(title)}: no data.</p>"
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    positions = max(len(ticks), 1 + max(x for points in series.values() for x, _ in points))
    left, right, top, bottom = 50, width - 150, 20, height - 35

    def x(i: int) -> float:
        return left + (right - left) * (i / max(1, positions - 1))

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / span

    parts = [f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{_e(title)}">',
             f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#999"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#999"/>',
             f'<text x="{left}" y="{height - 8}" font-size="12">{_e(x_label)}</text>',
             f'<text x="4" y="{top + 4}" font-size="11">{high:.1f}</text>',
             f'<text x="4" y="{bottom}" font-size="11">{low:.1f}</text>']
    step = -(-len(ticks) // MAX_TICK_LABELS) or 1
    parts += [f'<text class="tick" x="{x(i):.1f}" y="{bottom + 14}" font-size="10" text-anchor="middle">{_e(tick)}'
              "</text>" for i, tick in enumerate(ticks) if i % step == 0]
    for index, (name, points) in enumerate(sorted(series.items())):
        colour = PALETTE[index % len(PALETTE)]
        parts.append(f'<g class="line" data-name="{_e(name)}">')
        for stretch in _stretches(points) if ticks else [points]:
            coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in stretch)
            parts.append(f'<polyline class="series" data-bot="{_e(name)}" fill="none" stroke="{colour}" '
                         f'stroke-width="2" points="{coords}"/>')
        if ticks:
            parts += [f'<line class="gap" x1="{x(i):.1f}" y1="{y(v):.1f}" x2="{x(j):.1f}" y2="{y(w):.1f}" '
                      f'stroke="{colour}" stroke-width="1" stroke-dasharray="4 3"/>'
                      for (i, v), (j, w) in itertools.pairwise(points) if j > i + 1]
            parts += [f'<circle class="point" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}">'
                      f"<title>{_e(name)}, {_e(ticks[i])}: {v:.2f}</title></circle>" for i, v in points]
        elif len(points) == 1:
            parts.append(f'<circle cx="{x(points[0][0]):.1f}" cy="{y(points[0][1]):.1f}" r="3" fill="{colour}"/>')
        parts.append("</g>")
        parts.append(f'<text x="{right + 10}" y="{top + 16 * (index + 1)}" font-size="12" fill="{colour}">'
                     f"{_e(name)}</text>")
    parts.append("</svg>")
    return f"<figure><figcaption>{_e(title)}</figcaption>{''.join(parts)}</figure>"
