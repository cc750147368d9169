"""Storage: the SQLite store, rating history, and replaying and checking game records.

It may import :mod:`arena.core`, :mod:`arena.plugins`, :mod:`arena.play` and :mod:`arena.stats`.
"""
