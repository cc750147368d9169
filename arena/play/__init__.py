"""Playing games: the referee, the hard limits on bots, bot isolation and the executors that run games.

It may import :mod:`arena.core` and :mod:`arena.plugins`.
"""
