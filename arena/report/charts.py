"""Charts for HTML pages, as inline SVG (nothing fetched): line charts of a value over games or runs."""

from __future__ import annotations

import html

PALETTE = ("#d7301f", "#2b8cbe", "#31a354", "#e6ab02", "#756bb1", "#636363", "#e7298a", "#66a61e")


def _e(text: object) -> str:
    return html.escape(str(text))


def line_chart(title: str, series: dict[str, list[float]], x_label: str, width: int = 720, height: int = 260) -> str:
    """An SVG line chart, one polyline per series, labelled at its right; ``series`` maps a name to its values."""
    values = [v for points in series.values() for v in points]
    if not values:
        return f"<p>{_e(title)}: no data.</p>"
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    longest = max(len(points) for points in series.values())
    left, right, top, bottom = 50, width - 150, 20, height - 35

    def x(i: int) -> float:
        return left + (right - left) * (i / max(1, longest - 1))

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / span

    parts = [f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{_e(title)}">',
             f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#999"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#999"/>',
             f'<text x="{left}" y="{height - 8}" font-size="12">{_e(x_label)}</text>',
             f'<text x="4" y="{top + 4}" font-size="11">{high:.1f}</text>',
             f'<text x="4" y="{bottom}" font-size="11">{low:.1f}</text>']
    for index, (name, points) in enumerate(sorted(series.items())):
        colour = PALETTE[index % len(PALETTE)]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        if len(points) == 1:
            parts.append(f'<circle cx="{x(0):.1f}" cy="{y(points[0]):.1f}" r="3" fill="{colour}"/>')
        parts.append(f'<polyline class="series" data-bot="{_e(name)}" fill="none" stroke="{colour}" '
                     f'stroke-width="2" points="{coords}"/>')
        parts.append(f'<text x="{right + 10}" y="{top + 16 * (index + 1)}" font-size="12" fill="{colour}">'
                     f"{_e(name)}</text>")
    parts.append("</svg>")
    return f"<figure><figcaption>{_e(title)}</figcaption>{''.join(parts)}</figure>"
