"""Learning for Tron: a linear evaluation fitted to stored games' results (``arena train tron-eval``),
used by ``voronoi`` and ``chamber`` with ``weights=FILE``. Features, data set, fitting and weights
files are one module each."""
