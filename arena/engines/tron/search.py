"""The Tron search engine under one name: every name it has ever exported, from the modules that hold them.

Bots import from here (stored versions of bots keep doing so), so this module only gathers the names of:

* :mod:`arena.engines.tron.bitboards`: bitboards, flood fills, Voronoi territories, checkerboard parity;
* :mod:`arena.engines.tron.evaluation`: the values of won and drawn positions, the ``chamber`` evaluation's
  territory value and the endgame's chamber estimate;
* :mod:`arena.engines.tron.searcher`: :class:`~arena.engines.tron.searcher.Searcher`, two-player alpha-beta
  with a space-filling endgame;
* :mod:`arena.engines.tron.position`: an observation as a search position, and a step back as an action;
* :mod:`arena.engines.tron.move_budget`: how long a search bot thinks per move.
"""

from __future__ import annotations

from arena.engines.tron.bitboards import (
    bit,
    colour_mask,
    flood,
    free_bits,
    inner_edges,
    neighbours,
    parity_bound,
    territories,
    voronoi,
    voronoi_regions,
)
from arena.engines.tron.evaluation import (
    CELL_WEIGHT,
    DRAW,
    EDGE_WEIGHT,
    TERRITORY_WEIGHTS,
    WIN,
    articulation_points,
    chamber_space,
    finished_subtrees,
    one_pass_region,
    territory_terms,
    territory_value,
)
from arena.engines.tron.move_budget import GUARD_SHARE, default_budget, search_budget
from arena.engines.tron.position import Position, action_for
from arena.engines.tron.searcher import ASPIRATION, COMPILED_MAX_CELLS, ENGINES, ORDERINGS, Searcher, Timeout

__all__ = [
    "ASPIRATION",
    "CELL_WEIGHT",
    "COMPILED_MAX_CELLS",
    "DRAW",
    "EDGE_WEIGHT",
    "ENGINES",
    "GUARD_SHARE",
    "ORDERINGS",
    "TERRITORY_WEIGHTS",
    "WIN",
    "Position",
    "Searcher",
    "Timeout",
    "action_for",
    "articulation_points",
    "bit",
    "chamber_space",
    "colour_mask",
    "default_budget",
    "finished_subtrees",
    "flood",
    "free_bits",
    "inner_edges",
    "neighbours",
    "one_pass_region",
    "parity_bound",
    "search_budget",
    "territories",
    "territory_terms",
    "territory_value",
    "voronoi",
    "voronoi_regions",
]
