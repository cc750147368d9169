"""minimax: alpha-beta search with the plain reachable-area evaluation (the baseline search bot).

It looks ``depth`` plies ahead (default 6: three moves each) and scores the positions it reaches by how many
cells each player can still reach, ours minus the opponent's. It stops early when its budget (14,000 nodes a
move, about 0.1 s of this Python search) runs out and plays the move of the deepest search it finished (or a
move the unfinished next search had already found better: see
:meth:`~arena.engines.tron.search.Searcher.iterate`).

Simultaneous moves, ties and reproducibility are handled as for ``voronoi`` and ``chamber``: see
:class:`arena.engines.tron.search_bot.SearchBot`.

Several opponents: paranoid alpha-beta (:mod:`arena.engines.tron.paranoid`) against every opponent whose
head touches the region we can reach, each moving in turn after us to minimise our value.
Snafu: the search thinks in absolute steps and answers with the relative action that makes the
step. Parameters: ``minimax:depth=4``, ``minimax:nodes=14000`` (the default), ``minimax:think=0.5``
(search by the clock instead, seconds per move). With a node budget the same position always gives the
same move; 80% of the referee's time limit stays a guard.
"""

import time

from arena import Bot
from arena.engines.tron.paranoid import several_opponents_step
from arena.engines.tron.search import Position, Searcher, action_for, search_budget

DEFAULT_NODES = 14_000  # experiments/node_budget.py: about 0.1 s of this search


class Minimax(Bot):
    """Alpha-beta to a fixed depth with the reachable-area evaluation."""

    name = "minimax"
    games = ("tron", "snafu")

    def __init__(self, depth: int = 6, think: float = 0.0, nodes: int = 0):
        self.depth = int(depth)
        self.think = float(think)
        self.nodes = int(nodes)

    @classmethod
    def check_parameters(cls, params):
        """Refuse a negative budget before any game is played."""
        for key in ("depth", "think", "nodes"):
            if params.get(key, 0) < 0:
                raise ValueError(f"{key} must not be negative")

    def start(self, info):
        """Set the budget of a move: ``nodes`` (default 14,000) with 80% of the time limit as a guard, or
        ``think`` seconds by the clock."""
        self.budget, self.node_budget = search_budget(self.think, self.nodes, DEFAULT_NODES, info.time_limit)

    def act(self, obs):
        """Search, and answer with the best move found."""
        deadline = time.perf_counter() + self.budget
        pos = Position.from_observation(obs)
        if len(pos.ops) > 1:
            step = several_opponents_step(pos, "area", deadline=deadline, rng=self.rng, depth=self.depth,
                                          node_limit=self.node_budget)
            if step is not None:
                return action_for(obs, step)
        if len(pos.ops) != 1:  # alone, or cut off from several opponents: keep the most space
            search = Searcher(pos.stride, pos.size, deadline=deadline, rng=self.rng, node_limit=self.node_budget)
            step, _, _ = search.fill_root(pos.free, pos.me, max_depth=0)
            return action_for(obs, step)
        search = Searcher(pos.stride, pos.size, evaluation="area", simultaneous=pos.simultaneous,
                          deadline=deadline, rng=self.rng, node_limit=self.node_budget)
        step, _, _ = search.iterate(pos.free, pos.me, pos.op, max_depth=self.depth)
        return action_for(obs, step)
