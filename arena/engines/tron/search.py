"""A fast Tron position engine for search bots: bitboards, flood fills, Voronoi, chambers, alpha-beta.

A *bitboard* is a Python integer whose bit ``i`` stands for cell ``i`` of the padded flat grid
(:mod:`arena.games.tron.board`). ``free`` has a bit for every empty cell. Because the grid has a border
of ``OUT`` cells that are never free, the neighbours of a set are just four shifts
(``b << 1 | b >> 1 | b << stride | b >> stride``) masked with ``free``: no edge masks are needed and
nothing wraps around a row. Python's big integers then do a whole breadth-first layer in a handful of
word-parallel operations, so a flood fill costs one step per BFS layer instead of one per cell.

The pieces:

* :func:`free_bits`, :func:`bit` and :func:`flood`: build and fill bitboards.
* :func:`voronoi`: cells strictly closer to one player than the other, by two BFS frontiers expanding
  at once (cells at equal distance are nobody's).
* :func:`parity_bound`: checkerboard parity: a path alternates colours, so a region with ``a`` cells
  of one colour and ``b`` of the other can't be filled in more than about ``2 min(a, b) + 1`` moves.
* :func:`one_pass_region` and :func:`territory_value`: the part of a territory one pass can fill (its
  cut vertices let a head into only one of the branches beyond them), and that part's parity-bounded
  cells and the edges between them.
* :func:`articulation_points` and :func:`chamber_space`: the cells whose loss splits a region, and an
  estimate of how many cells can be filled in one pass when a region is a tree of chambers joined by
  such cells (only one branch can be entered).
* :class:`Searcher`: two-player alpha-beta over these positions, with simultaneous or alternating
  moves, iterative deepening within a deadline, killer-move or history-heuristic ordering, aspiration
  windows, and an area, Voronoi or chamber evaluation; plus a one-player space-filling search for once
  the players are cut off.
  Below the root, :mod:`arena.engines.tron.compiled` searches the same tree in compiled code.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.engines.tron.compiled_fill import CompiledFill
    from arena.games.tron.observation import TronObservation

WIN = 100_000
"""The value of a won position (a loss is ``-WIN``); wins sooner and losses later score better."""

DRAW = -WIN // 2
"""The value of a draw for the searching bot: worse than any position still in play, better than a loss.

A draw against a weaker bot is a lost win, so the search takes one only to escape a loss it can see.
The opponent (the minimising side) is credited with the same value, so the search assumes it will take a
head-on draw whenever it can reach our cell: the bot keeps its head out of reach of the opponent's.
"""

CELL_WEIGHT = 2
"""What one parity-bounded cell of a territory is worth to the ``chamber`` evaluation."""

EDGE_WEIGHT = 7
"""What one edge between two cells of a territory is worth to the ``chamber`` evaluation."""

TERRITORY_WEIGHTS = (CELL_WEIGHT, EDGE_WEIGHT)
"""The ``chamber`` evaluation's weights ``(cells, edges)`` unless a bot sets its own (``chamber:cells=,edges=``)."""

ENGINES = ("auto", "python", "compiled")
ORDERINGS = ("killers", "history")

ASPIRATION = 40
"""The ``chamber`` bot's aspiration window: about two cells' worth of its evaluation either side."""

COMPILED_MAX_CELLS = 1 << 20
"""The largest padded grid the compiled search takes (its ``chamber`` evaluation packs counts in 21 bits)."""

_FREE_TABLE = bytes.maketrans(bytes(range(256)), b"1" + b"0" * 255)


def default_budget(time_limit: float) -> float:
    """The seconds a search bot thinks per move by default: 30% of the time limit, at most 0.1 s.

    The rest is margin: the referee times the whole call by the wall clock, and a process on a busy or
    virtual machine is now and then paused mid-move (pauses of 40 to 66 ms, about one move in a
    thousand, were measured on the 2-core machine the README's figures come from), which would
    otherwise forfeit the game.
    """
    return min(time_limit * 0.3, 0.1)


GUARD_SHARE = 0.8
"""A search under a node budget also stops at this share of the time limit: a guard against a forfeit on a machine
far slower (or busier) than the budget was calibrated on, leaving the rest of the limit for the move's way back."""


def search_budget(think: float, nodes: int, default_nodes: int, time_limit: float,
                  by_clock: bool = False) -> tuple[float, int]:
    """A search bot's budget for a move, ``(seconds, nodes)`` (0 nodes: no node limit).

    ``think`` seconds means the clock alone (with ``nodes`` too, whichever runs out first). Otherwise the
    budget is ``nodes``, or by default ``default_nodes`` (about 0.1 s of search) scaled as the clock's default
    is by :func:`default_budget` (0.1 s, or 30% of a time limit under a third of a second: a 0.1 s limit gets
    30% of ``default_nodes``), with 80% of the time limit as a guard against a forfeit on a very slow machine.
    ``by_clock`` (a search too slow for the default budget) makes the default the clock.
    """
    if think:
        return think, nodes
    if by_clock and not nodes:
        return default_budget(time_limit), 0
    return time_limit * GUARD_SHARE, nodes or max(round(default_nodes * default_budget(time_limit) / 0.1), 1)


class Timeout(Exception):
    """Raised inside a search when its deadline passes."""


def free_bits(cells: bytes) -> int:
    """The bitboard of the empty cells of a padded flat grid (``cells[i] == 0`` gives bit ``i``)."""
    return int(bytes(cells).translate(_FREE_TABLE)[::-1], 2)


def bit(index: int) -> int:
    """The bitboard with only cell ``index``."""
    return 1 << index


def neighbours(bits: int, stride: int) -> int:
    """Every cell next to a cell of ``bits`` (and those cells themselves), unmasked."""
    return bits | bits << 1 | bits >> 1 | bits << stride | bits >> stride


def flood(free: int, seed: int, stride: int) -> int:
    """The cells of ``free`` reachable from the cells of ``seed`` (which need not be free), ``seed`` excluded."""
    reach = seed
    mask = free | seed
    while True:
        grown = (reach | reach << 1 | reach >> 1 | reach << stride | reach >> stride) & mask
        if grown == reach:
            return reach & ~seed
        reach = grown


def voronoi(free: int, a: int, b: int, stride: int) -> tuple[int, int, bool]:
    """Voronoi territory of heads at ``a`` and ``b``: cells strictly closer to each, and whether they touch.

    Two BFS frontiers grow together, one layer per step; a cell both reach in the same layer is
    nobody's but still passes on its distance to both. Returns ``(a's cells, b's cells, connected)``,
    ``connected`` being whether any free cell is reachable from both (if not, the players are cut off
    and each count is simply the reachable area).
    """
    mine, theirs, connected = voronoi_regions(free, a, b, stride)
    return mine.bit_count(), theirs.bit_count(), connected


@lru_cache(maxsize=64)
def colour_mask(stride: int, size: int) -> int:
    """The bitboard of the "black" squares of a checkerboard over a padded grid of ``size`` cells."""
    mask = 0
    for index in range(size):
        if ((index % stride) + (index // stride)) & 1:
            mask |= 1 << index
    return mask


def parity_bound(region: int, head: int, stride: int, size: int) -> int:
    """An upper bound on the moves a head at ``head`` can make inside ``region`` (by checkerboard parity).

    Each move changes square colour. With ``other`` cells of the colour the first move lands on and
    ``same`` of the head's colour, a path has at most ``2 * min(other, same)`` moves, plus one if
    ``other`` is larger. The region's size is a bound too; this one is tighter on lopsided regions.
    """
    black = colour_mask(stride, size)
    blacks = (region & black).bit_count()
    whites = region.bit_count() - blacks
    if (head % stride + head // stride) & 1:
        other, same = whites, blacks
    else:
        other, same = blacks, whites
    return 2 * min(other, same) + (1 if other > same else 0)


def inner_edges(region: int, stride: int) -> int:
    """How many pairs of side-by-side cells both lie in ``region`` (the edges of its grid graph)."""
    return (region & region >> 1).bit_count() + (region & region >> stride).bit_count()


def finished_subtrees(region: int, head: int, stride: int) -> Iterator[tuple[int, int, bool]]:
    """Tarjan's low-link depth-first search over ``region`` from the head at ``head``, iterative.

    Yields ``(cell, parent, separate)`` each time the subtree below a cell is finished, children before
    their parents (the head, the root, is never yielded). ``separate`` is true when nothing in the
    subtree has an edge to a cell above ``parent``: then ``parent`` (if not the root) is an
    articulation point, and the subtree with ``parent`` closes a block of the region. Neighbours are
    tried in ``N, E, S, W`` order.
    """
    steps = (-stride, 1, stride, -1)
    order = {head: 0}
    low = {head: 0}
    stack = [(head, -1, iter(steps))]
    while stack:
        cell, parent, untried = stack[-1]
        for step in untried:
            nxt = cell + step
            if not region >> nxt & 1:
                continue
            if nxt not in order:
                order[nxt] = low[nxt] = len(order)
                stack.append((nxt, cell, iter(steps)))
                break
            if nxt != parent and order[nxt] < low[cell]:
                low[cell] = order[nxt]
        else:
            stack.pop()
            if parent >= 0:
                low[parent] = min(low[parent], low[cell])
                yield cell, parent, low[cell] >= order[parent]


def one_pass_region(region: int, head: int, stride: int, weights: tuple[int, int] = TERRITORY_WEIGHTS) -> int:
    """The part of a territory the head at ``head`` can fill in one pass, as a bitboard.

    ``region`` is the head's territory (without the head). Wherever the territory hangs together
    only through a cell (a cut vertex), the head can enter the far side but not come back: of the
    *branches* hanging off one block of the territory, a single pass takes one. So the territory is
    cut into its blocks by a depth-first search (Tarjan's low links), and each block keeps only its
    best branch, the one worth most as ``2 * cells + 7 * edges`` (edges to the cut vertex included; other
    ``weights``, ``(cells, edges)``, weigh them differently).
    Ties go to the branch found first (the search tries ``N, E, S, W``). The head's cell is where the
    pass starts, never a cell it can come back through, so its edges join no blocks: the search enters
    through the first neighbour it tries, and a neighbour the rest reaches only through one cell is a
    branch like any other.
    """
    block: dict[int, int] = {}  # the cells below a cell in its still-open block
    branch: dict[int, tuple[int, int]] = {}  # the best closed branch in that block: (worth, cells)
    none = (-1, 0)
    for cell, parent, separate in finished_subtrees(region, head, stride):
        own = block.pop(cell, 0) | 1 << cell
        best = branch.pop(cell, none)
        if separate:  # the subtree's block closes here: a branch off ``parent``
            cells = own | best[1]
            edges = inner_edges((cells | 1 << parent) & region, stride)
            worth = weights[0] * cells.bit_count() + weights[1] * edges
            if worth > branch.get(parent, none)[0]:
                branch[parent] = (worth, cells)
        else:
            block[parent] = block.get(parent, 0) | own
            if best[0] > branch.get(parent, none)[0]:
                branch[parent] = best
    return branch.get(head, none)[1]


def territory_terms(region: int, head: int, stride: int, size: int,
                    weights: tuple[int, int] = TERRITORY_WEIGHTS) -> tuple[int, int]:
    """The two terms of :func:`territory_value`: the parity-bounded cells and the inner edges of the part of
    a territory the head at ``head`` can fill in one pass (branches chosen by ``weights``)."""
    fillable = one_pass_region(region, head, stride, weights)
    return parity_bound(fillable, head, stride, size), inner_edges(fillable, stride)


def territory_value(region: int, head: int, stride: int, size: int,
                    weights: tuple[int, int] = TERRITORY_WEIGHTS) -> int:
    """What a territory is worth to the head at ``head``: ``2 * cells + 7 * edges`` of the part it can
    fill in one pass (:func:`one_pass_region`), or ``weights`` ``(cells, edges)`` of them.

    ``cells`` is that part's size bounded by checkerboard parity (:func:`parity_bound`) and ``edges``
    its :func:`inner_edges`. Counting edges as well as cells prefers open rooms to corridors and ragged
    edges of the same size: a room has about two edges per cell, a corridor one, and a cell reached
    through a single neighbour is easily cut off. Dropping the branches a pass can't take keeps a
    territory full of pockets from looking bigger than it is. The weights were chosen in play against
    the plain Voronoi count (see the README's strength figures).
    """
    cells, edges = territory_terms(region, head, stride, size, weights)
    return weights[0] * cells + weights[1] * edges


def articulation_points(free: int, head: int, stride: int) -> int:
    """The articulation points of the region the head at ``head`` can reach, as a bitboard.

    A cell is an articulation point if removing it cuts some reachable cells off from the head (the
    head itself is the root, so it is never reported). Tarjan's low-link depth-first search, iterative,
    over the head's region.
    """
    region = flood(free, 1 << head, stride) | 1 << head
    points = 0
    for _, parent, separate in finished_subtrees(region, head, stride):
        if separate and parent != head:
            points |= 1 << parent
    return points


def chamber_space(free: int, head: int, stride: int, size: int) -> int:
    """An estimate of how many moves the head at ``head`` can make filling its region in one pass.

    The region minus its articulation points falls apart into *chambers*. Entering a chamber through
    an articulation point and leaving through another means the rest of the first side is lost, so the
    estimate walks the tree of chambers: a chamber's own cells (bounded by checkerboard parity) plus the
    best single branch beyond it. Exact on corridors and dead ends; an estimate inside big open rooms.
    """
    points = articulation_points(free, head, stride)
    region = flood(free, 1 << head, stride)
    open_cells = region & ~points

    def best(entry: int, used: int, depth: int) -> int:
        if depth > 150:
            return flood(free & ~used, 1 << entry, stride).bit_count()
        around = (1 << entry + 1 | 1 << entry - 1 | 1 << entry + stride | 1 << entry - stride) & ~used
        value = 0
        rooms = around & open_cells
        while rooms:
            low_bit = rooms & -rooms
            room = flood(open_cells & ~used, low_bit, stride) | low_bit
            rooms &= ~room
            inner = parity_bound(room, entry, stride, size)
            exits = neighbours(room, stride) & points & ~used
            beyond = 0
            while exits:
                exit_bit = exits & -exits
                exits ^= exit_bit
                beyond = max(beyond, 1 + best(exit_bit.bit_length() - 1, used | room | exit_bit, depth + 1))
            value = max(value, inner + beyond, inner)
        doors = around & points
        while doors:
            door = doors & -doors
            doors ^= door
            value = max(value, 1 + best(door.bit_length() - 1, used | door, depth + 1))
        return value

    return best(head, 1 << head, 0)


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


def voronoi_regions(free: int, a: int, b: int, stride: int) -> tuple[int, int, bool]:
    """Like :func:`voronoi`, but the territories as bitboards: ``(a's cells, b's cells, connected)``."""
    mine, theirs = territories(free, 1 << a, 1 << b, stride)
    reach_a = flood(free, 1 << a, stride) | 1 << a
    reach_b = flood(free, 1 << b, stride) | 1 << b
    return mine, theirs, bool(neighbours(reach_a, stride) & reach_b)


def territories(free: int, ours: int, theirs: int, stride: int) -> tuple[int, int]:
    """Voronoi territories of two sets of heads, given as bitboards (several heads make one side).

    Returns ``(cells our side reaches strictly first, cells their side does)``. This is the inner loop
    of every search evaluation, so it does only what the territories need: per layer, two frontier
    steps, the cells both reach at once (nobody's, but they pass their distance on to both), and the
    cells seen so far removed with an exclusive or (new frontiers are always unseen cells).
    """
    fa, fb = ours, theirs
    unseen = free
    mine = theirs = 0
    s = stride
    while fa or fb:
        fa = (fa << 1 | fa >> 1 | fa << s | fa >> s) & unseen
        fb = (fb << 1 | fb >> 1 | fb << s | fb >> s) & unseen
        both = fa & fb
        mine |= fa ^ both
        theirs |= fb ^ both
        unseen ^= fa | fb
    return mine, theirs


class Position:
    """A bot's view of an observation for search: the free bitboard, our head and the opponents' heads.

    ``ops`` holds every opponent still alive, in the order they move after us (seat order from ours);
    ``op`` is the first of them (the only one in a two-player game), or -1 if we are alone.
    """

    __slots__ = ("free", "me", "op", "ops", "stride", "size", "simultaneous")

    def __init__(self, free: int, me: int, ops: tuple[int, ...], stride: int, size: int, simultaneous: bool):
        self.free = free
        self.me = me
        self.ops = ops
        self.op = ops[0] if ops else -1
        self.stride = stride
        self.size = size
        self.simultaneous = simultaneous

    @classmethod
    def from_observation(cls, obs: TronObservation) -> Position:  # any Tron or Snafu observation
        """The search position of a Tron or Snafu observation."""
        seats = len(obs.heads)
        later = [(obs.seat + offset) % seats for offset in range(1, seats)]
        ops = tuple(obs.heads[seat] for seat in later if obs.heads[seat] >= 0)
        simultaneous = getattr(obs, "moves", "simultaneous") != "alternating"
        return cls(free_bits(obs.cells), obs.heads[obs.seat], ops, obs.stride, len(obs.cells), simultaneous)

    def in_contact(self) -> tuple[int, ...]:
        """The opponents whose head touches a cell we can reach (the others can no longer affect us)."""
        s = self.stride
        reach = flood(self.free, 1 << self.me, s) | 1 << self.me
        return tuple(op for op in self.ops if reach & (1 << op + 1 | 1 << op - 1 | 1 << op + s | 1 << op - s))


def action_for(obs: TronObservation, step: int) -> str:  # any Tron or Snafu observation
    """The action of ``obs`` that moves the head by ``step`` (absolute in Tron, relative in Snafu).

    Falls back to a safe move, then to any legal one, when no action makes that step.
    """
    for action in obs.legal_moves():
        if obs.delta[action] == step:
            return action
    safe = obs.safe_moves()
    return safe[0] if safe else obs.legal_moves()[0]
