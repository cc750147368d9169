"""A Tron or Snafu observation as a search position (:class:`Position`), and a search's step back as an action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.engines.tron.bitboards import flood, free_bits

if TYPE_CHECKING:
    from arena.games.tron.observation import TronObservation


class Position:
    """A bot's view of an observation for search: the free bitboard, our head and the opponents' heads.

    ``ops`` holds every opponent still alive, in the order they move after us (seat order from ours);
    ``op`` is the first of them (the only one in a two-player game), or -1 if we are alone.
    """

    __slots__ = ("free", "me", "op", "ops", "stride", "size", "simultaneous")

    def __init__(self, free: int, me: int, ops: tuple[int, ...], stride: int, size: int, simultaneous: bool):
        self.free = free
        self.me = me
        self.ops = ops
        self.op = ops[0] if ops else -1
        self.stride = stride
        self.size = size
        self.simultaneous = simultaneous

    @classmethod
    def from_observation(cls, obs: TronObservation) -> Position:  # any Tron or Snafu observation
        """The search position of a Tron or Snafu observation."""
        seats = len(obs.heads)
        later = [(obs.seat + offset) % seats for offset in range(1, seats)]
        ops = tuple(obs.heads[seat] for seat in later if obs.heads[seat] >= 0)
        simultaneous = getattr(obs, "moves", "simultaneous") != "alternating"
        return cls(free_bits(obs.cells), obs.heads[obs.seat], ops, obs.stride, len(obs.cells), simultaneous)

    def in_contact(self) -> tuple[int, ...]:
        """The opponents whose head touches a cell we can reach (the others can no longer affect us)."""
        s = self.stride
        reach = flood(self.free, 1 << self.me, s) | 1 << self.me
        return tuple(op for op in self.ops if reach & (1 << op + 1 | 1 << op - 1 | 1 << op + s | 1 << op - s))


def action_for(obs: TronObservation, step: int) -> str:  # any Tron or Snafu observation
    """The action of ``obs`` that moves the head by ``step`` (absolute in Tron, relative in Snafu).

    Falls back to a safe move, then to any legal one, when no action makes that step.
    """
    for action in obs.legal_moves():
        if obs.delta[action] == step:
            return action
    safe = obs.safe_moves()
    return safe[0] if safe else obs.legal_moves()[0]
