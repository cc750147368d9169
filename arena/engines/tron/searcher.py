"""Two-player alpha-beta over Tron bitboard positions (:class:`Searcher`), and a one-player space-filling search
for once the players are cut off.

The search runs with simultaneous or alternating moves, iterative deepening within a deadline or a node
budget, killer-move or history-heuristic ordering, aspiration windows, and an area, Voronoi or chamber
evaluation (:mod:`arena.engines.tron.evaluation`) over the bitboards of :mod:`arena.engines.tron.bitboards`.
Below the root, :mod:`arena.engines.tron.compiled` searches the same tree in compiled code, and
:mod:`arena.engines.tron.compiled_fill` the same endgame.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from arena.engines.tron.bitboards import flood, parity_bound, territories
from arena.engines.tron.evaluation import DRAW, TERRITORY_WEIGHTS, WIN, chamber_space, territory_value

if TYPE_CHECKING:
    from arena.engines.tron.compiled_fill import CompiledFill

ENGINES = ("auto", "python", "compiled")
ORDERINGS = ("killers", "history")

ASPIRATION = 40
"""The ``chamber`` bot's aspiration window: about two cells' worth of its evaluation either side."""

COMPILED_MAX_CELLS = 1 << 20
"""The largest padded grid the compiled search takes (its ``chamber`` evaluation packs counts in 21 bits)."""


class Timeout(Exception):
    """Raised inside a search when its deadline passes."""


class Searcher:
    """Two-player alpha-beta over bitboard positions, from the point of view of player ``me``.

    ``evaluation`` is ``"area"`` (reachable cells, ours minus theirs), ``"voronoi"`` (Voronoi territory
    difference) or ``"chamber"`` (each side's Voronoi territory by :func:`territory_value`: cells bounded
    by checkerboard parity, plus the edges between them).
    ``learned``, if given, replaces it: a function ``(free, me, op, stride, size) -> value`` such as
    :meth:`arena.engines.tron.learned_eval.LearnedEval.value`. ``rng``, if given, breaks ties between equally
    good root moves at random (otherwise in ``N, E, S, W`` order), so that a deterministic search still
    plays varied games from the same opening.

    Move order below the root: ``ordering="killers"`` tries the killer move of the node's remaining
    depth first (the last move that caused a cut-off there), then ``N, E, S, W``. ``"history"`` keys
    killers by ply instead (the distance from the root, the same node in each deeper search) and orders
    the other moves by the history heuristic: each cut-off adds the square of the remaining depth to the
    score of its move (the mover, the cell and the direction), so moves that refuted lines anywhere in
    the tree are tried early everywhere. ``aspiration`` (0 for none) searches the first root move of each
    deeper search in a window that wide around the last search's value, and again with the whole window
    only if the value falls outside: a narrow window cuts off more.

    ``node_limit`` (0 for none) stops the search on entering its node past that many, as ``deadline`` stops
    it by the clock; both engines count the same nodes, so a node budget gives the same move on any machine.

    ``draw`` is what a head-on draw (both players entering one cell, or both stuck at once) is worth to us:
    by default :data:`DRAW`, worse than any position still in play; ``chamber`` uses 0, an even position.
    With the default, a root value of :data:`DRAW` counts as proven and ends iterative deepening.
    ``weights`` are the ``chamber`` evaluation's ``(cells, edges)`` (:func:`territory_value`).

    Simultaneous moves are searched as rounds: we choose, then the opponent chooses *without* being
    able to profit from seeing our move: if it picks the cell we just entered, both crash (a draw), as
    under the real rules; it can never "block" us by moving first. Since the opponent is the
    minimising player, a head-on draw is available to it whenever it can reach our cell: valued at
    :data:`DRAW` (worse for us than any position still in play), the search only walks next to the
    opponent's head when every alternative is a loss; valued at 0, whenever the alternatives look worse
    than a draw. Alternating moves are plain alternating plies (moving into a head
    crashes the mover). Evaluations are taken only after whole rounds, so both players have made the
    same number of moves.
    """

    def __init__(self, stride: int, size: int, *, evaluation: str = "voronoi", simultaneous: bool = True,
                 deadline: float = float("inf"), clock: Callable[[], float] = time.perf_counter,
                 learned: Callable[[int, int, int, int, int], int] | None = None,
                 rng: random.Random | None = None, engine: str = "auto", ordering: str = "killers",
                 aspiration: int = 0, node_limit: int = 0, draw: int = DRAW,
                 weights: tuple[int, int] = TERRITORY_WEIGHTS):
        if engine not in ENGINES:
            raise ValueError(f"unknown search engine {engine!r}: choose from {', '.join(ENGINES)}")
        if ordering not in ORDERINGS:
            raise ValueError(f"unknown move ordering {ordering!r}: choose from {', '.join(ORDERINGS)}")
        compilable = (learned is None and evaluation in ("voronoi", "chamber") and clock is time.perf_counter
                      and size <= COMPILED_MAX_CELLS)
        if engine == "compiled" and not compilable:
            raise ValueError("the compiled search has only the voronoi and chamber evaluations, the real clock and "
                             f"grids of at most {COMPILED_MAX_CELLS} cells")
        self.stride = stride
        self.rng = rng
        self.learned = learned
        self.size = size
        self.evaluation = evaluation
        self.simultaneous = simultaneous
        self.deadline = deadline
        self.clock = clock
        self.node_limit = node_limit
        self.draw = draw
        self.weights = weights
        self.nodes = 0
        self.horizon = 0  # leaves evaluated at the depth limit (not at the end of the game)
        self.killers: dict[int, int] = {}
        self.by_history = ordering == "history"
        self.history = ([0] * (4 * size), [0] * (4 * size))  # ours, theirs: by 4 * cell + direction
        self.aspiration = aspiration
        self.top = 0  # the depth of the reply searched from the root, to tell a node's ply
        self.partial: tuple[int, int] | None = None  # the best root move so far of the running search
        self.steps = (-stride, 1, stride, -1)
        self.killer_first: dict[int | None, tuple[int, ...]] = {
            killer: (killer, *(step for step in self.steps if step != killer)) for killer in self.steps}
        self.compiled = None
        self.compile_fill = engine == "compiled" or (engine == "auto" and compilable)
        self.compiled_fill: CompiledFill | None = None  # made by the first fill_root, so that a fight never loads it
        if engine == "compiled" or (engine == "auto" and compilable):
            from arena.engines.tron.compiled import CompiledSearch  # numba loads only when needed

            self.compiled = CompiledSearch(stride, size, evaluation, simultaneous, *weights,
                                           ordering, draw)

    # -- evaluation ---------------------------------------------------------------------------------------

    def evaluate(self, free: int, me: int, op: int) -> int:
        """The static value of a position for ``me`` (positive is good), by the chosen evaluation."""
        s = self.stride
        if self.learned is not None:
            return self.learned(free, me, op, s, self.size)
        if self.evaluation == "area":
            return flood(free, 1 << me, s).bit_count() - flood(free, 1 << op, s).bit_count()
        if self.evaluation == "voronoi":
            mine, theirs = territories(free, 1 << me, 1 << op, s)
            return mine.bit_count() - theirs.bit_count()
        return self.chamber_value(free, me, op)

    def chamber_value(self, free: int, me: int, op: int) -> int:
        """Each side's Voronoi territory by :func:`territory_value` (parity-bounded cells and open edges)."""
        s = self.stride
        mine_bits, theirs_bits = territories(free, 1 << me, 1 << op, s)
        return (territory_value(mine_bits, me, s, self.size, self.weights)
                - territory_value(theirs_bits, op, s, self.size, self.weights))

    # -- search -------------------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit > 0 or (not self.nodes & 15 and self.clock() > self.deadline):
            raise Timeout

    def root(self, free: int, me: int, op: int, depth: int, order: list[int] | None = None,
             guess: int | None = None) -> tuple[int, int]:
        """Search ``depth`` plies (rounded up to whole rounds) and return ``(best step, value)``.

        ``step`` is the flat-index offset of the move (``-stride``, ``1``, ``stride``, ``-1``). Moves are
        tried in ``order`` (default: sorted by a 2-ply search), and a later move must score strictly
        better to be chosen, so ties go to the move that looked best at shallower depth. With an
        ``aspiration`` window and a ``guess`` of the value (not a win, loss or draw), the first move is
        searched in the window around it first.
        """
        if order is None:
            order = self.root_order(free, me, op)
        best_step, best_value = self.steps[0], -WIN * 2
        alpha = -WIN * 2
        self.partial = None
        for index, step in enumerate(order):
            target = me + step
            after = free & ~(1 << target)
            if index == 0 and self.aspiration and guess is not None and abs(guess) < WIN // 4:
                low, high = guess - self.aspiration, guess + self.aspiration
                value = self._root_reply(after, target, op, depth - 1, low, high)
                if not low < value < high:  # only a bound: search again for the exact value
                    value = self._root_reply(after, target, op, depth - 1, alpha, WIN * 2)
            else:
                value = self._root_reply(after, target, op, depth - 1, alpha, WIN * 2)
            if value > best_value:
                best_step, best_value = step, value
                alpha = max(alpha, value)
                self.partial = (step, value)
        if best_value == -WIN * 2:  # no safe move at all
            return self.steps[0], -WIN
        return best_step, best_value

    def root_order(self, free: int, me: int, op: int) -> list[int]:
        """Our safe moves, best first by an exact 2-ply search (ties at random with ``rng``, else in
        ``N, E, S, W`` order)."""
        scored = []
        for index, step in enumerate(self._tie_order()):
            target = me + step
            if free >> target & 1:
                value = self._root_reply(free & ~(1 << target), target, op, 1, -WIN * 2, WIN * 2)
                scored.append((-value, index, step))
        return [step for _, _, step in sorted(scored)]

    def _tie_order(self) -> list[int]:
        """The four steps in the order that breaks ties: shuffled by ``rng`` if there is one."""
        steps = list(self.steps)
        if self.rng is not None:
            self.rng.shuffle(steps)
        return steps

    def _ordered(self, depth: int, free: int, head: int, side: int) -> tuple[int, ...] | list[int]:
        """The steps to try at a node ``depth`` plies from the horizon, for ``head`` (``side`` 0 for our
        move, 1 for theirs): the killer move there first, if there is one, then the others in order."""
        if not self.by_history:
            return self.killer_first.get(self.killers.get(depth if side == 0 else -depth - 1), self.steps)
        killer = self.killers.get(self.top - depth)
        history = self.history[side]
        scored = [(1 << 62 if step == killer else history[4 * head + direction], step)
                  for direction, step in enumerate(self.steps) if free >> head + step & 1]
        scored.sort(key=lambda pair: -pair[0])  # stable: equal scores stay in N, E, S, W order
        return [step for _, step in scored]

    def _cut_off(self, depth: int, head: int, step: int, side: int) -> None:
        """Remember a move that caused a cut-off: as the killer move there, and in its history score."""
        if not self.by_history:
            self.killers[depth if side == 0 else -depth - 1] = step
            return
        self.killers[self.top - depth] = step
        self.history[side][4 * head + self.steps.index(step)] += depth * depth

    def _root_reply(self, free: int, me: int, op: int, depth: int, alpha: int, beta: int) -> int:
        """The opponent's reply to one of our root moves, searched by the chosen engine."""
        self.top = depth
        if self.compiled is None:
            return self._reply(free, me, op, depth, alpha, beta)
        left = self.node_limit - self.nodes if self.node_limit > 0 else None
        value, nodes, horizon, timed_out = self.compiled.reply(free, me, op, depth, alpha, beta, self.deadline,
                                                               left)
        self.nodes += nodes
        self.horizon += horizon
        if timed_out:
            raise Timeout
        return value

    def _mine(self, free: int, me: int, op: int, depth: int, alpha: int, beta: int) -> int:
        """Our move (a max node)."""
        self._tick()
        if depth <= 0:
            self.horizon += 1
            return self.evaluate(free, me, op)
        any_move = False
        best = -WIN * 2
        for step in self._ordered(depth, free, me, 0):
            target = me + step
            if not free >> target & 1:
                continue
            any_move = True
            value = self._reply(free & ~(1 << target), target, op, depth - 1, alpha, beta)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._cut_off(depth, me, step, 0)
                        break
        if not any_move:
            if self.simultaneous:
                # We crash this round; the opponent crashes too (a draw) only if it has no move either.
                s = self.stride
                if (1 << op + 1 | 1 << op - 1 | 1 << op + s | 1 << op - s) & free:
                    return -WIN - depth
                return self.draw
            return -WIN - depth
        return best

    def _reply(self, free: int, me: int, op: int, depth: int, alpha: int, beta: int) -> int:
        """The opponent's move (a min node); ``me`` is where we stand after our move."""
        self._tick()
        best = WIN * 2
        any_move = False
        if self.simultaneous and op - me in (1, -1, self.stride, -self.stride):
            # It can enter the cell we just entered: both crash, a draw.
            any_move = True
            best = self.draw
            if best < beta:
                beta = best
                if alpha >= beta:
                    return best
        for step in self._ordered(depth, free, op, 1):
            target = op + step
            if not free >> target & 1:
                continue
            any_move = True
            value = self._mine(free & ~(1 << target), me, target, depth - 1, alpha, beta)
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        self._cut_off(depth, op, step, 1)
                        break
        if not any_move:
            return WIN + depth
        return best

    def iterate(self, free: int, me: int, op: int, max_depth: int = 64,
                on_depth: Callable[[int, int, int], None] | None = None) -> tuple[int, int, int]:
        """Iterative deepening by whole rounds until ``max_depth`` plies or the deadline.

        Returns ``(best step, value, depth completed)``. When the deadline cuts a search short, the
        deepest finished search's step is kept unless the cut search, which tries that step first, had
        already found a better one (the value returned is then that move's, from the cut search).
        It stops early when there is only one safe move, when the value is a proven win, loss or
        draw, or when a search reached the end of every line it looked at (deeper ones would only
        say the same). ``on_depth(depth, step, value)`` is called after each finished depth.
        """
        safe = [step for step in self.steps if free >> me + step & 1]
        if len(safe) <= 1:
            return (safe[0] if safe else self.steps[0]), 0, 0
        try:
            order = self.root_order(free, me, op)
            step, value = self.root(free, me, op, 2, order)
        except Timeout:  # not even 2 plies in time: any safe move
            return safe[0], 0, 0
        done = 2
        if on_depth:
            on_depth(done, step, value)
        depth = 4
        while depth <= max_depth and abs(value) < WIN and (value != DRAW or self.draw != DRAW):
            self.horizon = 0
            try:
                step, value = self.root(free, me, op, depth, order, guess=value)
            except Timeout:
                # The first move searched is the last depth's choice; a later one that beat it at this
                # depth before the deadline is the better move, as far as anything searched can tell.
                if self.partial is not None and self.partial[0] != order[0]:
                    step, value = self.partial
                break
            order.remove(step)
            order.insert(0, step)
            done = depth
            if on_depth:
                on_depth(done, step, value)
            if not self.horizon:
                break
            depth += 2
        return step, value, done

    # -- the endgame: filling space alone --------------------------------------------------------------------

    def fill(self, free: int, me: int, depth: int, use_chambers: bool = True) -> int:
        """The best move count from ``me`` alone in ``free``: searched ``depth`` moves, then estimated."""
        self._tick()
        if depth <= 0:
            if use_chambers:
                if self.clock() > self.deadline:  # a chamber estimate can take a millisecond
                    raise Timeout
                return chamber_space(free, me, self.stride, self.size)
            return parity_bound(flood(free, 1 << me, self.stride), me, self.stride, self.size)
        best = 0
        for step in self.steps:
            target = me + step
            if free >> target & 1:
                value = 1 + self.fill(free & ~(1 << target), target, depth - 1, use_chambers)
                if value > best:
                    best = value
        return best

    def _fill_moves(self, free: int, me: int) -> Callable[[int, int], int]:
        """``moves(target, depth)``: :meth:`fill` after our head moves from ``me`` to ``target``, by the chosen
        engine (the compiled one counts the same nodes and raises :class:`Timeout` alike)."""
        if not self.compile_fill:
            return lambda target, depth: self.fill(free & ~(1 << target), target, depth)
        if self.compiled_fill is None:
            from arena.engines.tron.compiled_fill import CompiledFill  # numba loads only when needed

            self.compiled_fill = CompiledFill(self.stride, self.size)
        engine = self.compiled_fill
        board = engine.board(free)

        def moves(target: int, depth: int) -> int:
            left = self.node_limit - self.nodes if self.node_limit > 0 else None
            board[target] = 0
            try:
                value, nodes, timed_out = engine.fill(board, target, depth, self.deadline, left)
            finally:
                board[target] = 1
            self.nodes += nodes
            if timed_out:
                raise Timeout
            return value

        return moves

    def fill_root(self, free: int, me: int, max_depth: int = 40) -> tuple[int, int, int]:
        """Iterative deepening of :meth:`fill`: ``(best step, moves it leaves, depth completed)``.

        Ties go to the move whose cell touches the most walls (hugging walls wastes the least space),
        then at random with ``rng`` (else in ``N, E, S, W`` order). With the compiled engine the search runs in
        :mod:`arena.engines.tron.compiled_fill`: the same tree, the same nodes and values.
        """
        s = self.stride
        candidates = [step for step in self._tie_order() if free >> me + step & 1]
        if not candidates:
            return self.steps[0], 0, 0
        if len(candidates) == 1:
            return candidates[0], 0, 0

        def walls(cell: int) -> int:
            around = 1 << cell + 1 | 1 << cell - 1 | 1 << cell + s | 1 << cell - s
            return 4 - (around & free).bit_count()

        moves = self._fill_moves(free, me)
        best = (candidates[0], -1, 0)
        for depth in range(0, max_depth + 1):
            try:
                scored = [(1 + moves(me + step, depth), walls(me + step), step) for step in candidates]
            except Timeout:
                break
            value, _, step = max(scored, key=lambda item: (item[0], item[1]))  # the first of equals
            best = (step, value, depth)
            if value <= depth + 1:  # searched to the end: exact
                break
        return best
