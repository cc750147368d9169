"""Cat-and-mouse engines: how to play well, kept apart from the rules (:mod:`arena.games.catmouse`).

* :mod:`~arena.engines.catmouse.solver`: exact play by retrograde analysis, cached on disk;
* :mod:`~arena.engines.catmouse.perfect_play`: who wins a map with perfect play, and in how many moves;
* :mod:`~arena.engines.catmouse.parity`: the article's parity claim checked against the solver;
* :mod:`~arena.engines.catmouse.policies`: deterministic policies (as hill climbing trains them) and their
  files.

These modules may import :mod:`arena.core` and the cat-and-mouse rules (:mod:`arena.games.catmouse`).
"""
