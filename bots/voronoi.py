"""voronoi: iterative-deepening alpha-beta with a Voronoi territory evaluation.

The evaluation counts the cells we reach strictly before the opponent minus the cells it reaches strictly
before us (both breadth-first searches run together on bitboards: see :mod:`arena.engines.tron.search`).
Iterative deepening searches 2 plies, then 4, 6, ... until its budget (95,000 nodes a move by default, about
0.1 s) is used, and plays the move of the deepest search it finished (or a move the unfinished next search had
already found better: see :meth:`~arena.engines.tron.search.Searcher.iterate`). Once alone, or cut off from
several opponents, it keeps the most space one move at a time.

How it models simultaneous moves, its speed, several opponents, Snafu and its parameters
(``voronoi:nodes=95000``, ``voronoi:think=0.5``, ``voronoi:depth=6``, ``voronoi:weights=FILE``): see
:class:`arena.engines.tron.search_bot.SearchBot`.
"""

from arena.engines.tron.learned_eval import load_weights
from arena.engines.tron.search_bot import SearchBot


class Voronoi(SearchBot):
    """Iterative-deepening alpha-beta, Voronoi evaluation."""

    name = "voronoi"
    evaluation = "voronoi"
    read_weights = staticmethod(load_weights)
    default_nodes = 95_000  # experiments/node_budget.py: about 0.1 s of this search
