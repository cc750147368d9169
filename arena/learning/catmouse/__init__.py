"""Hill climbing for cat and mouse (Kennedy 2025): engines that play many policy games fast, and trainers.

* :mod:`.training_rules` - the rules a training run plays by (board, first mover, how the mouse wins), not
  the game's own rules (:mod:`arena.games.catmouse.rules`);
* :mod:`.plain` - one game at a time in plain Python (the reference, and the baseline of the benchmark);
* :mod:`.batch` - many games at once with numpy;
* :mod:`.full_policy_trainer` - full policies (a move for every pair of cells) for both players, improved in
  turn against each other (the article's version 1);
* :mod:`.window_policy_trainer` - a board-size-free 3x3 window policy, trained against scripted opponents (the
  article's version 2);
* :mod:`.checkpoint` - stopping and resuming a run.
"""
