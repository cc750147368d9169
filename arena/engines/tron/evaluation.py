"""What a Tron position is worth: won and drawn positions, territories filled in one pass, chambers.

* :data:`WIN` and :data:`DRAW`: the values of finished positions (the compiled search uses the same).
* :func:`one_pass_region` and :func:`territory_value`: the part of a territory one pass can fill (its
  cut vertices let a head into only one of the branches beyond them), and that part's parity-bounded
  cells and the edges between them: the ``chamber`` evaluation of :class:`~arena.engines.tron.searcher.Searcher`.
* :func:`articulation_points` and :func:`chamber_space`: the cells whose loss splits a region, and an
  estimate of how many cells can be filled in one pass when a region is a tree of chambers joined by
  such cells (only one branch can be entered): the endgame's leaf estimate.
"""

from __future__ import annotations

from collections.abc import Iterator

from arena.engines.tron.bitboards import flood, inner_edges, neighbours, parity_bound

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
