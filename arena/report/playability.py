"""The playability verdict as one HTML page: the table of blocks, and charts of the win shares and the
game length block by block. Self-contained: styles and charts inline, nothing fetched."""

from __future__ import annotations

import html
from collections.abc import Sequence

from arena.report.charts import line_chart
from arena.stats.playability import PlayabilityRow

STYLE = ("body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; } "
         "table { border-collapse: collapse; } th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #ddd; "
         "text-align: right; } svg { background: #fafafa; border: 1px solid #ddd; }")


def playability_page(title: str, rows: Sequence[PlayabilityRow], perfect: str,
                     sides: tuple[str, str] = ("white", "black")) -> str:
    """The page: the title, the perfect-play verdict, the table, and two charts over the blocks; the players
    named ``sides`` (first, second)."""
    first, second = (html.escape(side) for side in sides)
    blocks = [row for row in rows if row.label != "all"]
    cells = "".join(
        f"<tr><td>{html.escape(row.label)}</td><td>{row.games:,}</td><td>{row.mean_moves:.2f}</td>"
        f"<td>{row.sd_moves:.2f}</td><td>{row.white:.2%}</td><td>{row.black:.2%}</td><td>{row.p_half:.3g}</td>"
        f"<td>{row.fastest:.1%}</td><td>{row.longest}</td><td>{row.draws}</td></tr>" for row in rows)
    head = "".join(f"<th>{name}</th>" for name in ("block", "games", "moves/player", "sd", first, second,
                                                    f"p({first}=half)", "fewest-move wins", "longest", "draws"))
    shares = line_chart("share of the wins, block by block", {first: [r.white for r in blocks],
                                                              second: [r.black for r in blocks]}, "block")
    length = line_chart("mean moves per player, block by block", {"moves": [r.mean_moves for r in blocks]},
                        "block")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1><p>{html.escape(perfect)}</p>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table>"
            f"<h2>Wins</h2>{shares}<h2>Length</h2>{length}</body></html>\n")
