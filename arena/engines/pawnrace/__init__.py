"""Pawn-race engines: perfect play by retrograde analysis (:mod:`~arena.engines.pawnrace.solver`) and playing
a trained TD(lambda) model (:mod:`~arena.engines.pawnrace.td_model`).

These modules may import :mod:`arena.core` and the pawn-race rules (:mod:`arena.games.pawnrace`).
"""
