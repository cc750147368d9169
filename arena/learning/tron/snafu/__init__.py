"""Collective learning automata for Snafu (Cloppert 2007): features, the state-transition table, training
and the 15x15 -> 30x30 scaling experiment."""
