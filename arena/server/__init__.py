"""The league's old import paths, kept for one release: the league is :mod:`arena.league` now.

``from arena.server.league import League``, ``from arena.server.ladder import LeagueLadder``,
``from arena.server.web.app import create_app`` and every other ``arena.server.*`` module of 0.1 still
import: each old name is the new module itself, imported only when asked for, so importing this package
imports nothing of the league. The aliases are entries of the one table of old paths,
:data:`arena.compat.MOVED`; :data:`MOVED` here is its ``arena.server`` part. New code imports
:mod:`arena.league`.
"""

from __future__ import annotations

from arena import compat
from arena.compat import new_name

MOVED = {old: new for old, new in compat.MOVED.items() if old.startswith(f"{__name__}.")}
"""Each old ``arena.server`` module and the module it is now; a module under ``arena.server.web`` is the one
of the same name under ``arena.league.web``."""

__all__ = ["MOVED", "new_name"]
