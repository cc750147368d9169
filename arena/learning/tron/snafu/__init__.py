"""Collective learning automata for Snafu (Cloppert 2007): training and the 15x15 -> 30x30 scaling
experiment. The features, strategies and state-transition table the automaton plays with are in
:mod:`arena.engines.tron.snafu`."""
