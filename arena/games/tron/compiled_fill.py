"""Kept for old imports: this module moved to :mod:`arena.engines.tron.compiled_fill`.

Stored versions of the bots and bots users copied import ``arena.games.tron.compiled_fill``; the name stays an
alias of the moved module (the same module object, so every name, public or not, is there).
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("arena.engines.tron.compiled_fill")
