"""Kept for old imports: this module moved to :mod:`arena.games.catmouse.rules`.

Stored versions of the ``perfect`` bot and bots users copied import ``arena.games.catmouse.board``; the name
stays an alias of the moved module (the same module object).
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("arena.games.catmouse.rules")
