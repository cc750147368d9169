"""The playability verdict as one HTML page (``templates/playability.html``): the table of blocks, and charts of
the win shares and the game length block by block. Self-contained: styles and charts inline, nothing fetched."""

from __future__ import annotations

import math
from collections.abc import Sequence

from arena.report.charts import line_layout
from arena.report.pages import render
from arena.stats.playability import LONG_GAME, PlayabilityRow


def playability_page(title: str, rows: Sequence[PlayabilityRow], perfect: str,
                     sides: tuple[str, str] = ("white", "black")) -> str:
    """The page: the title, the perfect-play verdict, the table, and two charts over the blocks; the players
    named ``sides`` (first, second)."""
    first, second = sides
    blocks = [row for row in rows if row.label != "all"]
    cells = [[row.label, f"{row.games:,}", f"{row.mean_moves:.2f}", f"{row.sd_moves:.2f}", f"{row.long:.1%}",
              f"{row.white:.2%}", f"{row.black:.2%}", f"{row.draw:.2%}",
              "-" if math.isnan(row.white_decided) else f"{row.white_decided:.2%}", f"{row.p_half:.3g}",
              f"{row.fastest:.1%}", str(row.longest)] for row in rows]
    headers = ["block", "games", "moves/player", "sd", f">{LONG_GAME} moves", first, second, "draws",
               f"{first} of decided", f"p({first} of decided=half)", "fewest-move wins", "longest"]
    shares = line_layout("share of the wins, block by block", {first: [r.white for r in blocks],
                                                               second: [r.black for r in blocks]}, "block")
    length = line_layout("mean moves per player, block by block", {"moves": [r.mean_moves for r in blocks]},
                         "block")
    return render("playability.html", title=title, perfect=perfect, headers=headers, rows=cells, shares=shares,
                  length=length)
