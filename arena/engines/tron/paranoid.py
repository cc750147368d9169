"""Paranoid alpha-beta for Tron with three or four players: every opponent plays against us.

With more than one opponent alive, exact game-theoretic search would give each player its own goal
(max-n). The *paranoid* reduction treats the opponents as one team minimising our value: a round is
our move followed by each opponent's move in seat order after ours, every opponent a min node. That
turns the game back into a two-sided search, so alpha-beta pruning applies (max-n prunes very little),
and it never relies on an opponent being kind. The cost is pessimism: three bots rarely gang up.

Rules, as the search models them:

* Simultaneous moves: we move first in the round, but the opponents cannot use our move to block us.
  An opponent that steps into the cell we just entered crashes with us; with other players still in
  the game that is our loss, so the search keeps our head out of every opponent's reach when it can.
  Opponents later in the round see the cells taken by earlier ones, so two opponents never collide.
* Alternating moves: the same order, which is the order of play from our turn; moving into a taken
  cell crashes the mover.
* A player with no free cell to enter crashes and leaves the search. We win when every opponent has
  crashed; we lose when we do.

Positions are evaluated after whole rounds by :func:`value`: our Voronoi territory against all the
opponents together (cells we reach strictly before every opponent, against cells some opponent reaches
strictly first), shared out among the opponents.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from arena.engines.tron.bitboards import flood, inner_edges, parity_bound, territories
from arena.engines.tron.evaluation import WIN
from arena.engines.tron.position import Position
from arena.engines.tron.searcher import Timeout


def value(evaluation: str, free: int, me: int, ops: tuple[int, ...], stride: int, size: int) -> int:
    """The static value for ``me`` against the opponents ``ops`` (positive is good).

    ``"area"``: our reachable cells minus the most any opponent reaches. ``"voronoi"``: our Voronoi
    cells minus the opponents' cells divided by their number. ``"chamber"``: the same territories
    counted as ``2 * cells + 7 * edges`` with our cells bounded by checkerboard parity (the opponents'
    shared territory has no single head to take parity from, so its cells are counted as they are).
    """
    if evaluation == "area":
        return flood(free, 1 << me, stride).bit_count() - max(flood(free, 1 << op, stride).bit_count()
                                                               for op in ops)
    theirs_seed = 0
    for op in ops:
        theirs_seed |= 1 << op
    mine, theirs = territories(free, 1 << me, theirs_seed, stride)
    if evaluation == "voronoi":
        return mine.bit_count() - theirs.bit_count() // len(ops)
    ours = 2 * parity_bound(mine, me, stride, size) + 7 * inner_edges(mine, stride)
    return ours - (2 * theirs.bit_count() + 7 * inner_edges(theirs, stride)) // len(ops)


class ParanoidSearcher:
    """Iterative-deepening paranoid alpha-beta for one player against several (see the module notes)."""

    def __init__(self, stride: int, size: int, *, evaluation: str = "voronoi", simultaneous: bool = True,
                 deadline: float = float("inf"), clock: Callable[[], float] = time.perf_counter,
                 rng: random.Random | None = None, node_limit: int = 0):
        self.stride = stride
        self.size = size
        self.evaluation = evaluation
        self.simultaneous = simultaneous
        self.deadline = deadline
        self.clock = clock
        self.rng = rng
        self.node_limit = node_limit
        self.nodes = 0
        self.horizon = 0
        self.partial: tuple[int, int] | None = None  # the best root move so far of the running search
        self.steps = (-stride, 1, stride, -1)

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit > 0 or (not self.nodes & 15 and self.clock() > self.deadline):
            raise Timeout

    def _ours(self, free: int, me: int, ops: tuple[int, ...], rounds: int, alpha: int, beta: int) -> int:
        """Our move (a max node) with ``rounds`` whole rounds left to search."""
        self._tick()
        if not ops:
            return WIN + rounds
        if rounds <= 0:
            self.horizon += 1
            return value(self.evaluation, free, me, ops, self.stride, self.size)
        best = -WIN - rounds
        for step in self.steps:
            target = me + step
            if not free >> target & 1:
                continue
            result = self._theirs(free & ~(1 << target), target, ops, 0, rounds, alpha, beta)
            if result > best:
                best = result
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        return best

    def _theirs(self, free: int, me: int, ops: tuple[int, ...], index: int, rounds: int,
                alpha: int, beta: int) -> int:
        """Opponent ``ops[index]`` moves (a min node); after the last one, the next round begins."""
        self._tick()
        if index == len(ops):
            return self._ours(free, me, ops, rounds - 1, alpha, beta)
        op = ops[index]
        if self.simultaneous and op - me in self.steps:
            return -WIN - rounds  # it can crash into the cell we just entered: we are out
        best = WIN * 2
        for step in self.steps:
            target = op + step
            if not free >> target & 1:
                continue
            moved = (*ops[:index], target, *ops[index + 1:])
            result = self._theirs(free & ~(1 << target), me, moved, index + 1, rounds, alpha, beta)
            if result < best:
                best = result
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        if best == WIN * 2:  # no move: this opponent crashes and leaves the game
            return self._theirs(free, me, ops[:index] + ops[index + 1:], index, rounds, alpha, beta)
        return best

    def root(self, free: int, me: int, ops: tuple[int, ...], rounds: int,
             order: list[int]) -> tuple[int, int]:
        """Search ``rounds`` whole rounds; return ``(best step, value)``, ties to the earlier of ``order``."""
        best_step, best_value = order[0], -WIN * 2
        alpha = -WIN * 2
        self.partial = None
        for step in order:
            target = me + step
            result = self._theirs(free & ~(1 << target), target, ops, 0, rounds, alpha, WIN * 2)
            if result > best_value:
                best_step, best_value = step, result
                alpha = max(alpha, result)
                self.partial = (step, result)
        return best_step, best_value

    def iterate(self, free: int, me: int, ops: tuple[int, ...], max_rounds: int = 32) -> tuple[int, int, int]:
        """Deepen one round at a time until the deadline; ``(best step, value, rounds completed)``.

        Stops early with one safe move, a proven result, or a search that saw the end of every line.
        A search cut short by the deadline still counts if it had found a move better than the one of the
        last finished search (which it tries first), as in :meth:`arena.engines.tron.searcher.Searcher.iterate`.
        Ties between equally good moves go at random with ``rng`` (else in ``N, E, S, W`` order).
        """
        order = [step for step in self.steps if free >> me + step & 1]
        if self.rng is not None:
            self.rng.shuffle(order)
        if len(order) <= 1:
            return (order[0] if order else self.steps[0]), 0, 0
        step, result, done = order[0], 0, 0
        for rounds in range(1, max_rounds + 1):
            self.horizon = 0
            try:
                step, result = self.root(free, me, ops, rounds, order)
            except Timeout:
                if self.partial is not None and self.partial[0] != order[0]:
                    step, result = self.partial  # it beat the last search's move, tried first, at this depth
                break
            done = rounds
            order.remove(step)
            order.insert(0, step)
            if abs(result) >= WIN or not self.horizon:
                break
        return step, result, done


def several_opponents_step(pos: Position, evaluation: str, *, deadline: float, rng: random.Random | None,
                           depth: int = 0, node_limit: int = 0) -> int | None:
    """The step a bot plays with two or more opponents alive, or None if none is in contact with us.

    Searches paranoid alpha-beta against the opponents whose heads touch the region we can reach (the
    others can't affect us any more) until ``deadline``, at most ``depth`` plies (if given) rounded down
    to whole rounds of one move each, but at least one round, and at most ``node_limit`` nodes (if given).
    ``None`` means we are cut off from everyone: the caller fills its space alone.
    """
    ops = pos.in_contact()
    if not ops:
        return None
    search = ParanoidSearcher(pos.stride, pos.size, evaluation=evaluation, simultaneous=pos.simultaneous,
                              deadline=deadline, rng=rng, node_limit=node_limit)
    rounds = max(1, depth // (1 + len(ops))) if depth else 32
    step, _, _ = search.iterate(pos.free, pos.me, ops, max_rounds=rounds)
    return step
