"""What the Snafu collective learning automaton (the ``cla`` bot) plays with: the features of a state
(:mod:`.features`), a strategy's settings (:mod:`.strategy`) and the state-transition table it matches states
in and adds games to (:mod:`.table`). Training and the experiments are in :mod:`arena.learning.tron.snafu`."""
