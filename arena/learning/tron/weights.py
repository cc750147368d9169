"""Kept for old imports: this module moved to :mod:`arena.engines.tron.learned_eval`.

Stored versions of the ``voronoi`` and ``chamber`` bots import ``arena.learning.tron.weights``; the name
stays an alias of the moved module (the same module object).
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("arena.engines.tron.learned_eval")
