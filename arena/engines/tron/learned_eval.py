"""A learned Tron evaluation the search bots play with (``weights=FILE``), and its weights files, which
``arena train tron-eval`` writes."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

from arena.core.errors import ArenaError
from arena.engines.tron.features import FEATURES, features

WEIGHTS_FORMAT = "arena-tron-eval/1"
"""The ``format`` field of a weights file."""


SCALE = 1000
"""A learned value is ``SCALE`` times the predicted result minus 0.5 (a win is about +500)."""


LIMIT = 40_000
"""Learned values are clamped to ``[-LIMIT, LIMIT]``, inside the search's draw and win values."""


class LearnedEval:
    """A linear evaluation loaded from a weights file: ``SCALE * sum(weight * feature)``, clamped."""

    def __init__(self, names: Sequence[str], weights: Sequence[float], source: str = ""):
        self.names = tuple(names)
        self.weights = tuple(float(w) for w in weights)
        self.source = source
        self._scaled = [SCALE * w for w in self.weights]

    def value(self, free: int, me: int, op: int, stride: int, size: int) -> int:
        """The learned value of a position for ``me`` (positive is good), an integer for the search."""
        row = features(free, me, op, stride, size, self.names)
        total = sum(w * value for w, value in zip(self._scaled, row, strict=True))
        return max(-LIMIT, min(LIMIT, round(total)))


def load_weights(path: str | Path) -> LearnedEval:
    """Read a weights file; any problem is an :class:`ArenaError` of one line naming the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ArenaError(f"weights file {path}: cannot read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ArenaError(f"weights file {path}: not JSON ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
        raise ArenaError(f"weights file {path}: field 'format' should be {WEIGHTS_FORMAT!r}")
    names, weights = data.get("features"), data.get("weights")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ArenaError(f"weights file {path}: field 'features' should be a non-empty list of names")
    unknown = [n for n in names if n not in FEATURES]
    if unknown:
        raise ArenaError(f"weights file {path}: unknown feature {unknown[0]!r} (known: {', '.join(FEATURES)})")
    if (not isinstance(weights, list) or len(weights) != len(names)
            or not all(isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
                       for w in weights)):
        raise ArenaError(f"weights file {path}: field 'weights' should be {len(names)} finite numbers")
    return LearnedEval(names, weights, str(path))
