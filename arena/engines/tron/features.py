"""The features of a learned Tron evaluation, after Brown's CountBOTula: each one "ours minus theirs"."""

from __future__ import annotations

from collections.abc import Sequence

from arena.engines.tron.bitboards import flood, parity_bound, territories
from arena.engines.tron.evaluation import territory_terms

FEATURES: tuple[str, ...] = ("voronoi", "parity", "area", "mobility", "voronoi_near", "chamber_cells",
                             "chamber_edges")
"""The feature names, each "ours minus theirs":

* ``voronoi``: Voronoi territory (cells strictly closer to us minus cells strictly closer to them);
* ``parity``: the same territories, each bounded by checkerboard parity;
* ``area``: cells each head can reach at all;
* ``mobility``: free cells next to each head;
* ``voronoi_near``: the Voronoi difference divided by 1 + the heads' Manhattan distance (territory
  matters more when the heads are close and fighting over it);
* ``chamber_cells`` and ``chamber_edges``: the two terms of the ``chamber`` evaluation
  (:func:`~arena.engines.tron.evaluation.territory_terms`): the parity-bounded cells and the inner edges of the
  part of each territory one pass can fill (branches chosen by version 2's weights, 2 and 7). Fitted alone, their
  weights are ``chamber``'s own ``cells`` and ``edges`` parameters.
"""

DEFAULT_FEATURES: tuple[str, ...] = FEATURES[:5]
"""The features ``arena train tron-eval`` fits unless told which (``--features``)."""

CHAMBER_FEATURES: tuple[str, ...] = ("chamber_cells", "chamber_edges")
"""The ``chamber`` evaluation's own terms, in the order of its ``(cells, edges)`` weights."""


def features(free: int, me: int, op: int, stride: int, size: int,
             names: Sequence[str] = DEFAULT_FEATURES) -> tuple[float, ...]:
    """The named :data:`FEATURES` of a position for the head at ``me`` against the head at ``op``, in order."""
    mine, theirs = territories(free, 1 << me, 1 << op, stride)
    vor = mine.bit_count() - theirs.bit_count()
    values: dict[str, float] = {"voronoi": float(vor)}
    wanted = set(names)
    if "parity" in wanted:
        values["parity"] = float(parity_bound(mine, me, stride, size) - parity_bound(theirs, op, stride, size))
    if "area" in wanted:
        values["area"] = float(flood(free, 1 << me, stride).bit_count() - flood(free, 1 << op, stride).bit_count())
    if "mobility" in wanted:
        s = stride
        around_me = 1 << me + 1 | 1 << me - 1 | 1 << me + s | 1 << me - s
        around_op = 1 << op + 1 | 1 << op - 1 | 1 << op + s | 1 << op - s
        values["mobility"] = float((around_me & free).bit_count() - (around_op & free).bit_count())
    if "voronoi_near" in wanted:
        distance = abs(me % stride - op % stride) + abs(me // stride - op // stride)
        values["voronoi_near"] = vor / (1 + distance)
    if wanted & set(CHAMBER_FEATURES):
        our_cells, our_edges = territory_terms(mine, me, stride, size)
        their_cells, their_edges = territory_terms(theirs, op, stride, size)
        values["chamber_cells"] = float(our_cells - their_cells)
        values["chamber_edges"] = float(our_edges - their_edges)
    return tuple(values[name] for name in names)
