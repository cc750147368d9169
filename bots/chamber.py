"""chamber: the strongest shipped Tron bot: Voronoi plus parity, chambers and a space-filling endgame.

After the winner of the 2010 Google AI Challenge:

* While the players can still reach each other, an iterative-deepening alpha-beta search scores
  positions by Voronoi territory, each side's worth ``2 * cells + 7 * edges`` of the part of its
  territory one pass can fill (:func:`~arena.games.tron.search.one_pass_region`): where the territory
  hangs together through a single cell (an articulation point), a head that goes through can't come
  back, so of the branches off a chamber only the best counts. The cells are bounded by checkerboard
  parity (a path alternates square colours, so surplus cells of one colour can't all be filled); the
  edges are the pairs of neighbouring cells (an open room is worth more than a corridor or a ragged
  fringe of the same size, which is easy to cut off).
* The search orders moves to cut off early (a deeper search in the same time): the killer move of
  each ply first (the last move that refuted a line there), then the others by the history heuristic
  (how much each move of each player from each cell has refuted, anywhere in the tree). Each deeper
  search tries the last one's best root move first, in an aspiration window: a narrow window around
  the value the last search found, searched again with the whole window only if the value falls
  outside it. ``voronoi`` keeps the plain order, killer moves by remaining depth.
* Once the players are cut off from each other, it switches to a one-player space-filling search: try
  move sequences to a depth, then estimate what is left with :func:`~arena.games.tron.search.chamber_space`,
  which splits the region at its articulation points into chambers and counts only the chambers one
  pass can fill (the room we are in plus the best branch beyond one door). Ties go to the move that
  hugs walls, then at random.
* It uses its whole thinking time every move.

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
step. Parameters: ``chamber:depth=6`` (a fixed depth in plies, no clock: for the fill search too),
``chamber:think=0.5`` (seconds per move; default the smaller of 0.1 s and 30% of the time limit),
``chamber:weights=FILE`` (evaluate the fight with the learned linear weights ``arena train tron-eval``
wrote; the space-filling endgame is unchanged).
"""

import time

from arena import Bot
from arena.games.tron.paranoid import several_opponents_step
from arena.games.tron.search import ASPIRATION, Position, Searcher, action_for, default_budget
from arena.learning.tron.weights import load_weights


class Chamber(Bot):
    """Voronoi + parity alpha-beta while in contact; chamber-aware space filling once cut off."""

    name = "chamber"
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
        """Fill space if cut off, otherwise search the fight; answer with the best move found."""
        deadline = float("inf") if self.depth else time.perf_counter() + self.budget
        pos = Position.from_observation(obs)
        if len(pos.ops) > 1:
            step = several_opponents_step(pos, "chamber", deadline=deadline, rng=self.rng, depth=self.depth)
            if step is not None:
                return action_for(obs, step)
        search = Searcher(pos.stride, pos.size, evaluation="chamber", simultaneous=pos.simultaneous,
                          deadline=deadline, learned=self.learned, rng=self.rng, ordering="history",
                          aspiration=ASPIRATION)
        if not pos.in_contact():  # alone, or cut off from every opponent
            step, _, _ = search.fill_root(pos.free, pos.me, max_depth=self.depth // 2 if self.depth else 40)
        elif self.depth:
            step, _ = search.root(pos.free, pos.me, pos.op, self.depth)
        else:
            step, _, _ = search.iterate(pos.free, pos.me, pos.op)
        return action_for(obs, step)
