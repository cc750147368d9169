"""voronoi: iterative-deepening alpha-beta with a Voronoi territory evaluation.

The evaluation counts the cells we reach strictly before the opponent minus the cells it reaches
strictly before us (both breadth-first searches run together on bitboards: see
:mod:`arena.games.tron.search`). Iterative deepening searches 2 plies, then 4, 6, ... until the thinking
time is used, and plays the move of the deepest search it finished (or a move the unfinished next
search had already found better: see :meth:`~arena.games.tron.search.Searcher.iterate`).

Simultaneous moves: the search plays rounds. We pick a move, then the opponent picks one, but it
cannot use our move to block us: if it picks the cell we just entered, both crash and the game is a
draw, as under the real rules. A draw counts as worse for us than any position still in play (only a
loss is worse), and the opponent minimises, so the search assumes it takes that draw whenever it can:
the bot never steps where the opponent's head can also step unless every other move loses.
Alternating moves are searched as they are played, one player at a time.
Moves the search finds equally good are chosen between at random with the bot's rng (seeded from
the game), so games from the same opening vary; with a fixed ``depth`` a game is still reproducible
from its seed.

Speed: below the root, the search runs compiled (:mod:`arena.games.tron.compiled`, the same tree as
the Python search, about six times faster, so two to four plies deeper in the same time). With
``weights=FILE`` or against several opponents it runs in Python.

Several opponents: paranoid alpha-beta (:mod:`arena.games.tron.paranoid`) against every opponent whose
head touches the region we can reach, each moving in turn after us to minimise our value.
Snafu: the search thinks in absolute steps and answers with the relative action that makes the
step. Parameters: ``voronoi:depth=6`` (a fixed depth in plies, no clock), ``voronoi:think=0.5`` (seconds
per move; default the smaller of 0.1 s and 30% of the time limit), ``voronoi:weights=FILE`` (evaluate
with the learned linear weights ``arena train tron-eval`` wrote, instead of the Voronoi difference).
"""

import time

from arena import Bot
from arena.games.tron.paranoid import several_opponents_step
from arena.games.tron.search import Position, Searcher, action_for, default_budget
from arena.learning.tron.weights import load_weights


class Voronoi(Bot):
    """Iterative-deepening alpha-beta, Voronoi evaluation."""

    name = "voronoi"
    games = ("tron", "snafu")

    def __init__(self, depth: int = 0, think: float = 0.0, weights: str = ""):
        self.depth = int(depth)
        self.think = float(think)
        self.learned = load_weights(weights).value if weights else None

    @classmethod
    def check_parameters(cls, params):
        """Refuse a ``weights`` file that can't be read before any game is played."""
        if params.get("weights"):
            load_weights(params["weights"])

    @classmethod
    def prepare(cls):
        """Load the compiled search once per process (compiling it on a machine's first run), off the clock."""
        from arena.games.tron.compiled import warm_up  # numba loads only for the bots that use it

        warm_up()

    def start(self, info):
        """Set the thinking time: ``think``, or the smaller of 0.1 s and 30% of the time limit."""
        self.budget = self.think or default_budget(info.time_limit)

    def act(self, obs):
        """Search as deep as the time allows (or to ``depth``), and answer with the best move found."""
        deadline = float("inf") if self.depth else time.perf_counter() + self.budget
        pos = Position.from_observation(obs)
        if len(pos.ops) > 1:
            step = several_opponents_step(pos, "voronoi", deadline=deadline, rng=self.rng, depth=self.depth)
            if step is not None:
                return action_for(obs, step)
        search = Searcher(pos.stride, pos.size, evaluation="voronoi", simultaneous=pos.simultaneous,
                          deadline=deadline, learned=self.learned, rng=self.rng)
        if len(pos.ops) != 1:  # alone, or cut off from several opponents: keep the most space
            step, _, _ = search.fill_root(pos.free, pos.me, max_depth=0)
        elif self.depth:
            step, _ = search.root(pos.free, pos.me, pos.op, self.depth)
        else:
            step, _, _ = search.iterate(pos.free, pos.me, pos.op)
        return action_for(obs, step)
