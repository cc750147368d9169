"""The Tron search engines the strong bots share.

* :mod:`~arena.engines.tron.bitboards`: bitboard positions, flood fills, Voronoi territories, parity;
* :mod:`~arena.engines.tron.evaluation`: won and drawn positions, the chamber evaluation and estimate;
* :mod:`~arena.engines.tron.searcher`: two-player alpha-beta (:class:`~arena.engines.tron.searcher.Searcher`)
  with a space-filling endgame; :mod:`~arena.engines.tron.position` and :mod:`~arena.engines.tron.move_budget`:
  an observation as a search position, and a search bot's budget per move;
* :mod:`~arena.engines.tron.search`: all of these names in one module, as bots import them;
* :mod:`~arena.engines.tron.compiled` and :mod:`~arena.engines.tron.compiled_fill`: the same searches
  below the root, compiled with numba (loaded only by the bots that use them);
* :mod:`~arena.engines.tron.paranoid`: paranoid alpha-beta against several opponents;
* :mod:`~arena.engines.tron.endgame`: the exact longest path a head can still make;
* :mod:`~arena.engines.tron.search_bot`: the base class of the ``voronoi`` and ``chamber`` bots;
* :mod:`~arena.engines.tron.features` and :mod:`~arena.engines.tron.learned_eval`: a learned evaluation
  (weights fitted by :mod:`arena.learning.tron`) and the files of its weights.

These modules may import :mod:`arena.core` and the Tron rules (:mod:`arena.games.tron`). The old paths
``arena.games.tron.<module>`` still import the same modules, for bots written against them (:mod:`arena.compat`).
"""
