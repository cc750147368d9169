"""chamber: the strongest shipped Tron bot: Voronoi plus parity, chambers and a space-filling endgame.

After the winner of the 2010 Google AI Challenge: while the players can still reach each other, an
iterative-deepening alpha-beta search (killer moves by ply, the history heuristic, aspiration windows) scores
positions by Voronoi territory, each side worth ``7 * cells + 7 * edges`` of the part of its territory one pass
can fill (:func:`~arena.engines.tron.search.one_pass_region`), the cells bounded by checkerboard parity; once the
players are cut off, a one-player space-filling search estimates what is left with
:func:`~arena.engines.tron.search.chamber_space`. It uses its whole budget every move.

Version 4 is the default; ``VERSIONS`` below holds each version's settings, and CHANGELOG.md and the
documentation's "Strong Tron bots" page tell what each changed and the matches that decided it.

How it models simultaneous moves, its speed, several opponents and Snafu: see
:class:`arena.engines.tron.search_bot.SearchBot`. Parameters: ``chamber:nodes=70000`` (nodes searched a move, the
default: about 0.08 s a move over a game; version 3 fills with three times as many), ``chamber:think=0.5``
(search by the clock instead, seconds per move), ``chamber:depth=6`` (a fixed depth in plies, no budget: for the
fill search too), ``chamber:version=2`` (a previous version; ``1``, the draw feared; ``3``, a bigger fill
budget), ``chamber:draw=0`` (the value of a head-on draw), ``chamber:weights=FILE`` (evaluate the fight with the
learned linear weights ``arena train tron-eval`` wrote; the space-filling endgame is unchanged),
``chamber:cells=7,edges=7`` (the evaluation's own weights of a territory's parity-bounded cells and inner edges,
version 4's; compiled, unlike ``weights=``: ``arena train tron-eval --features chamber_cells,chamber_edges``
fits them to stored games)."""

from typing import Any

from arena.engines.tron.learned_eval import load_weights
from arena.engines.tron.search import ASPIRATION, DRAW, TERRITORY_WEIGHTS, Position
from arena.engines.tron.search_bot import SearchBot

VERSIONS: dict[int, dict[str, Any]] = {
    1: {"draw": DRAW},
    2: {"draw": 0},
    3: {"draw": 0, "fill_factor": 3},
    4: {"draw": 0, "weights": (7, 7)},
}
"""Each version's settings: 1 feared every head-on draw (worse than any position in play), 2 values a draw
as an even position, so it neither flinches from a head it could meet nor walks into one when ahead; 3 gives
the space-filling search three times the fight's node budget (compiled, its nodes became far cheaper); 4 weighs
a territory's cells and edges alike, ``7 * cells + 7 * edges``, as a fit to the results of games between strong
bots put them (``arena train tron-eval --features chamber_cells,chamber_edges``), where 2 weighs them 2 and 7."""

DEFAULT_VERSION = 4
"""The version ``chamber`` plays without ``version=``: version 4 beat version 2 in an SPRT; 3 was not stronger."""


class Chamber(SearchBot):
    """Voronoi + parity alpha-beta while in contact; chamber-aware space filling once cut off."""

    name = "chamber"
    evaluation = "chamber"
    search_options = {"ordering": "history", "aspiration": ASPIRATION}
    default_nodes = 70_000
    """About 0.08 s a move, averaged over whole games against the 2010 winner's program (README): 35,000, what the
    search visits in 0.1 s of the positions ``experiments/node_budget.py`` times, averaged 0.04 s there, since many
    moves (forced, proven, or small regions to fill) stop well short of the budget's time."""
    read_weights = staticmethod(load_weights)

    def __init__(self, depth: int = 0, think: float = 0.0, weights: str = "", nodes: int = 0,
                 draw: int | None = None, version: int = DEFAULT_VERSION, cells: int | None = None,
                 edges: int | None = None):
        settings = VERSIONS[int(version)]
        super().__init__(depth, think, weights, nodes, settings["draw"] if draw is None else draw)
        self.version = int(version)
        self.fill_factor = settings.get("fill_factor", 1)
        version_cells, version_edges = settings.get("weights", TERRITORY_WEIGHTS)
        self.territory_weights = (version_cells if cells is None else int(cells),
                                  version_edges if edges is None else int(edges))

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> None:
        """Refuse an unknown ``version``, weights that aren't whole numbers or are both 0, as well as what
        :class:`SearchBot` refuses."""
        if params.get("version", DEFAULT_VERSION) not in VERSIONS:
            raise ValueError(f"version must be one of {', '.join(map(str, VERSIONS))}")
        for key in ("cells", "edges"):
            if key in params and (not isinstance(params[key], int) or isinstance(params[key], bool)):
                raise ValueError(f"{key} must be a whole number, a weight of the evaluation")
        if params.get("cells", 1) == 0 and params.get("edges", 1) == 0:
            raise ValueError("cells and edges can't both be 0: the evaluation would value every position alike")
        super().check_parameters(params)

    def cut_off(self, pos: Position) -> bool:
        """Fill space as soon as no opponent can reach us (with one opponent too)."""
        return not pos.in_contact()

    def fill_depth(self) -> int:
        """Half the fixed depth, or 40 plies against the clock."""
        return self.depth // 2 if self.depth else 40
