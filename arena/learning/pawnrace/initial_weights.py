"""The network learner's initial weights, a reading the paper leaves open: ``random`` (each weight uniform in
[-0.5, 0.5], white's network drawn first; ``random:SCALE``: uniform in [-SCALE, SCALE], the same draws scaled),
``mirror`` (white's drawn as by ``random``, black's the same network seen from the other corner: the board
turned 180 degrees and the colours swapped) or ``zero`` (every weight 0, so every position is worth 0.5 at
first; the hidden units stay identical to one another as they learn).

With ``mirror`` neither side starts with an advantage its weights give it: black's network values a position
exactly as white's values the same position turned round with the colours swapped.
"""

from __future__ import annotations

import math

import numpy as np

from arena.core.errors import ArenaError
from arena.engines.pawnrace.td_model import Features, Network

INITS = ("random", "mirror", "zero")
RANDOM_SCALE = 0.5
"""The bound of ``random``'s uniform weights."""


def parse_init(init: str) -> tuple[str, float]:
    """``init``'s kind (one of :data:`INITS`) and the bound of its random weights: ``random:0.05`` is
    ``("random", 0.05)``; anything else than :data:`INITS` or ``random:SCALE`` (SCALE a number above 0) is a
    one-line error."""
    kind, colon, scale_text = init.partition(":")
    if kind not in INITS or (colon and kind != "random"):
        raise ArenaError(f"--init {init!r} is not one of: {', '.join(INITS)}, random:SCALE (e.g. random:0.05)")
    if not colon:
        return kind, RANDOM_SCALE
    try:
        scale = float(scale_text)
    except ValueError:
        scale = math.nan
    if not (math.isfinite(scale) and scale > 0):
        raise ArenaError(f"--init {init!r}: SCALE must be a number above 0, as in random:0.05")
    return kind, scale


def initial_networks(features: Features, init: str, seed: int) -> list[Network]:
    """White's and black's networks before any learning, for the inputs ``features`` gives."""
    kind, scale = parse_init(init)
    if kind == "zero":
        hidden = max(features.size // 2, 1)
        zero = {"w1": np.zeros((features.size, hidden)), "b1": np.zeros(hidden), "w2": np.zeros(hidden), "b2": 0.0}
        return [Network(features.size, weights=zero), Network(features.size, weights=zero)]
    rng = np.random.default_rng(seed)
    white = Network(features.size, rng, scale=scale)
    black = mirrored(white, features) if kind == "mirror" else Network(features.size, rng, scale=scale)
    return [white, black]


def mirrored(network: Network, features: Features) -> Network:
    """``network`` for the other side: its value of a position is ``network``'s value of that position turned
    180 degrees with the colours swapped."""
    source, sign = mirror_map(features)
    weights = network.weights()
    w1 = np.asarray(weights["w1"])[source] * sign[:, None]
    return Network(features.size, weights={**weights, "w1": w1})


def mirror_map(features: Features) -> tuple[np.ndarray, np.ndarray]:
    """For each input of the mirrored network, the input of the original it reads and the sign it reads it with:
    a square's inputs come from the turned square's with the colours swapped (a printed input changes sign), and
    each side's goal flag and waiting-pawn bins come from the other side's."""
    n, count = features.setup.n, len(features.squares)
    source = np.arange(features.size)
    sign = np.ones(features.size)
    for square, index in features.index.items():
        turned = features.index[(n - 1 - square[0], n - 1 - square[1])]
        if features.per_square == 1:
            source[index], sign[index] = turned, -1.0
        else:
            for side in (0, 1):
                source[2 * index + side] = 2 * turned + 1 - side
    flags = features.per_square * count
    for side in (0, 1):
        source[flags + side] = flags + 1 - side
        for bin_index in range(4):
            source[flags + 2 + 4 * side + bin_index] = flags + 2 + 4 * (1 - side) + bin_index
    return source, sign
