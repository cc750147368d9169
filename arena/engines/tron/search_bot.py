"""The base of the search bots ``voronoi`` and ``chamber``: parameters, thinking time, and the choice
between searching the fight, filling space, and paranoid search against several opponents."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from arena.core.bot import Bot
from arena.core.errors import BotSpecError
from arena.core.game import MatchInfo
from arena.engines.tron.evaluation import DRAW, TERRITORY_WEIGHTS
from arena.engines.tron.move_budget import search_budget
from arena.engines.tron.paranoid import several_opponents_step
from arena.engines.tron.position import Position, action_for
from arena.engines.tron.searcher import Searcher


class SearchBot(Bot):
    """Iterative-deepening alpha-beta for Tron and Snafu, with the evaluation a subclass names.

    Simultaneous moves: the search plays rounds. We pick a move, then the opponent picks one, but it
    cannot use our move to block us: if it picks the cell we just entered, both crash and the game is a
    draw, as under the real rules. A draw counts as worse for us than any position still in play (only a
    loss is worse), and the opponent minimises, so the search assumes it takes that draw whenever it can:
    the bot never steps where the opponent's head can also step unless every other move loses.
    Alternating moves are searched as they are played, one player at a time.
    Moves the search finds equally good are chosen between at random with the bot's rng (seeded from
    the game), so games from the same opening vary; with a fixed ``depth`` a game is still reproducible
    from its seed.

    Speed: below the root, the search runs compiled (:mod:`arena.engines.tron.compiled`, the same tree as
    the Python search, about six times faster, so two to four plies deeper in the same time). With
    ``weights=FILE`` or against several opponents it runs in Python.

    Several opponents: paranoid alpha-beta (:mod:`arena.engines.tron.paranoid`) against every opponent whose
    head touches the region we can reach, each moving in turn after us to minimise our value.
    Snafu: the search thinks in absolute steps and answers with the relative action that makes the
    step. Parameters: ``nodes=N`` (search at most N nodes a move; the default, the bot's ``default_nodes``,
    is what its search visits in about 0.1 s on the machine the README's figures come from), ``think=0.5``
    (search by the clock instead: seconds per move), ``depth=6`` (a fixed depth in plies, no budget),
    ``weights=FILE`` (evaluate with the learned linear weights ``arena train tron-eval`` wrote, instead of the
    bot's own evaluation; that search runs in Python, so its default is the clock, 0.1 s).

    A node budget makes play reproducible: the same position gives the same move on any machine, loaded or
    idle, so the same seed gives the same games. As a guard, a search also stops at 80% of the referee's time
    limit, which only a machine tens of times slower than that one would reach.
    """

    games = ("tron", "snafu")
    evaluation: ClassVar[str] = "voronoi"
    """The evaluation the search scores positions with (see :class:`~arena.engines.tron.searcher.Searcher`)."""
    search_options: ClassVar[dict[str, Any]] = {}
    """More :class:`~arena.engines.tron.searcher.Searcher` options: move ordering, aspiration window."""
    read_weights: ClassVar[Callable[[str], Any] | None] = None
    """Reads a ``weights`` file into an object with a ``value`` method; ``None``: the bot takes no weights."""
    default_nodes: ClassVar[int] = 95_000
    """The node budget of a move when no ``nodes``, ``think`` or ``depth`` is given
    (``experiments/node_budget.py``: the nodes the search visits in 0.1 s of CPU time, median over positions)."""

    draw_value: ClassVar[int] = DRAW
    """What a head-on draw is worth to the search (see :class:`~arena.engines.tron.searcher.Searcher`)."""
    fill_factor: int = 1
    """The space-filling search's node budget as a multiple of the fight's (its nodes can be cheaper)."""
    territory_weights: tuple[int, int] = TERRITORY_WEIGHTS
    """The ``chamber`` evaluation's weights of a territory's ``(cells, edges)``."""

    def __init__(self, depth: int = 0, think: float = 0.0, weights: str = "", nodes: int = 0,
                 draw: int | None = None):
        self.draw = self.draw_value if draw is None else int(draw)
        self.depth = int(depth)
        self.think = float(think)
        self.nodes = int(nodes)
        self.learned = self._weights(weights).value if weights else None

    @classmethod
    def _weights(cls, path: str) -> Any:
        if cls.read_weights is None:
            raise BotSpecError(f"bot {cls.name!r} takes no weights file")
        return cls.read_weights(path)

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> None:
        """Refuse a negative budget or a ``weights`` file that can't be read, before any game is played."""
        for key in ("depth", "think", "nodes"):
            if params.get(key, 0) < 0:
                raise ValueError(f"{key} must not be negative")
        if params.get("weights"):
            cls._weights(params["weights"])

    @classmethod
    def prepare(cls) -> None:
        """Load the compiled searches (the fight and the space filling) once per process (compiling them on a
        machine's first run), off the clock."""
        from arena.engines.tron.compiled import warm_up  # numba loads only for the bots that use it
        from arena.engines.tron.compiled_fill import warm_up as warm_up_fill

        warm_up()
        warm_up_fill()

    def start(self, info: MatchInfo) -> None:
        """Set the budget of a move: nodes (``nodes``, or the default) with 80% of the time limit as a guard, or
        the clock (``think``; with learned weights, the smaller of 0.1 s and 30% of the time limit)."""
        self.budget, self.node_budget = search_budget(self.think, self.nodes, self.default_nodes, info.time_limit,
                                                      by_clock=self.learned is not None)

    def act(self, obs: Any) -> str:
        """Search the fight (or fill space once cut off) within the budget, or to ``depth``."""
        deadline = float("inf") if self.depth else time.perf_counter() + self.budget
        node_limit = 0 if self.depth and not self.nodes else self.node_budget
        pos = Position.from_observation(obs)
        if len(pos.ops) > 1:
            step = several_opponents_step(pos, self.evaluation, deadline=deadline, rng=self.rng, depth=self.depth,
                                          node_limit=node_limit)
            if step is not None:
                return action_for(obs, step)
        filling = self.cut_off(pos)
        if filling:
            node_limit *= self.fill_factor
        search = Searcher(pos.stride, pos.size, evaluation=self.evaluation, simultaneous=pos.simultaneous,
                          deadline=deadline, learned=self.learned, rng=self.rng, node_limit=node_limit,
                          draw=self.draw, weights=self.territory_weights, **self.search_options)
        if filling:
            step, _, _ = search.fill_root(pos.free, pos.me, max_depth=self.fill_depth())
        elif self.depth:
            step, _ = search.root(pos.free, pos.me, pos.op, self.depth)
        else:
            step, _, _ = search.iterate(pos.free, pos.me, pos.op)
        return action_for(obs, step)

    def cut_off(self, pos: Position) -> bool:
        """Whether to fill space instead of fighting: alone, or cut off from several opponents."""
        return len(pos.ops) != 1

    def fill_depth(self) -> int:
        """How deep the space-filling search looks (0: greedily, one move at a time)."""
        return 0
