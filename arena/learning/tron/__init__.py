"""Learning for Tron: a linear evaluation fitted to stored games' results (``arena train tron-eval``),
used by ``voronoi`` and ``chamber`` with ``weights=FILE``. The data set and the fitting are here; the
features and the evaluation the bots play with are in :mod:`arena.engines.tron`."""
