"""Statistics: score rates and tests, Elo and the SPRT, Bradley-Terry, TrueSkill, standings and analysis.

It may import :mod:`arena.core`, :mod:`arena.plugins` and :mod:`arena.play` (for the outcomes it tallies).
"""
