"""Kept for old imports: this module moved to :mod:`arena.engines.tron.snafu.features`.

Stored versions of the ``cla`` bot import ``arena.learning.tron.snafu.features``; the name stays an alias of
the moved module (the same module object).
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("arena.engines.tron.snafu.features")
