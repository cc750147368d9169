"""How long a search bot thinks per move: by the clock, by a node budget, or both."""

from __future__ import annotations


def default_budget(time_limit: float) -> float:
    """The seconds a search bot thinks per move by default: 30% of the time limit, at most 0.1 s.

    The rest is margin: the referee times the whole call by the wall clock, and a process on a busy or
    virtual machine is now and then paused mid-move (pauses of 40 to 66 ms, about one move in a
    thousand, were measured on the 2-core machine the README's figures come from), which would
    otherwise forfeit the game.
    """
    return min(time_limit * 0.3, 0.1)


GUARD_SHARE = 0.8
"""A search under a node budget also stops at this share of the time limit: a guard against a forfeit on a machine
far slower (or busier) than the budget was calibrated on, leaving the rest of the limit for the move's way back."""


def search_budget(think: float, nodes: int, default_nodes: int, time_limit: float,
                  by_clock: bool = False) -> tuple[float, int]:
    """A search bot's budget for a move, ``(seconds, nodes)`` (0 nodes: no node limit).

    ``think`` seconds means the clock alone (with ``nodes`` too, whichever runs out first). Otherwise the
    budget is ``nodes``, or by default ``default_nodes`` (about 0.1 s of search) scaled as the clock's default
    is by :func:`default_budget` (0.1 s, or 30% of a time limit under a third of a second: a 0.1 s limit gets
    30% of ``default_nodes``), with 80% of the time limit as a guard against a forfeit on a very slow machine.
    ``by_clock`` (a search too slow for the default budget) makes the default the clock.
    """
    if think:
        return think, nodes
    if by_clock and not nodes:
        return default_budget(time_limit), 0
    return time_limit * GUARD_SHARE, nodes or max(round(default_nodes * default_budget(time_limit) / 0.1), 1)
