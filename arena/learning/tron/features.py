"""The features of a learned Tron evaluation, after Brown's CountBOTula: each one "ours minus theirs"."""

from __future__ import annotations

from arena.games.tron.search import flood, parity_bound, territories

FEATURES: tuple[str, ...] = ("voronoi", "parity", "area", "mobility", "voronoi_near")
"""The feature names, each "ours minus theirs":

* ``voronoi``: Voronoi territory (cells strictly closer to us minus cells strictly closer to them);
* ``parity``: the same territories, each bounded by checkerboard parity (the ``chamber`` evaluation);
* ``area``: cells each head can reach at all;
* ``mobility``: free cells next to each head;
* ``voronoi_near``: the Voronoi difference divided by 1 + the heads' Manhattan distance (territory
  matters more when the heads are close and fighting over it).
"""


def features(free: int, me: int, op: int, stride: int, size: int) -> tuple[float, ...]:
    """The :data:`FEATURES` of a position for the head at ``me`` against the head at ``op``."""
    mine, theirs = territories(free, 1 << me, 1 << op, stride)
    mine_count, theirs_count = mine.bit_count(), theirs.bit_count()
    vor = mine_count - theirs_count
    parity = parity_bound(mine, me, stride, size) - parity_bound(theirs, op, stride, size)
    area = flood(free, 1 << me, stride).bit_count() - flood(free, 1 << op, stride).bit_count()
    s = stride
    around_me = 1 << me + 1 | 1 << me - 1 | 1 << me + s | 1 << me - s
    around_op = 1 << op + 1 | 1 << op - 1 | 1 << op + s | 1 << op - s
    mobility = (around_me & free).bit_count() - (around_op & free).bit_count()
    distance = abs(me % s - op % s) + abs(me // s - op // s)
    return (float(vor), float(parity), float(area), float(mobility), vor / (1 + distance))
