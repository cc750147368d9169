"""Search engines for the games: the machinery strong bots think with, kept apart from the rules.

A game's rules live in :mod:`arena.games` (what a move is, who won); how to choose a good move lives
here, one subpackage a game (:mod:`arena.engines.tron`, :mod:`arena.engines.catmouse`,
:mod:`arena.engines.pawnrace`): searches, solvers and policies. An engine module may import :mod:`arena.core`
and the rules of its own game (``arena.games.<game>``), never another game, :mod:`arena.learning`,
:mod:`arena.rl` or anything that runs tournaments. Bots, :mod:`arena.learning` and the experiments
build on the engines.
"""
