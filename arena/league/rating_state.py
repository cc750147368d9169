"""The league's ratings: its ranked games rated one at a time, in queue order, by the arena's TrueSkill.

Games end in whatever order the workers finish them; they are rated in the order of their place in the
queue (a game is rated once every ranked game before it is stored), so the ratings depend on the games
alone, never on timing, and :func:`rate_all` gives the same numbers from scratch.

**A new version starts from its predecessor.** A version's first rated game starts it from the rating of
its team's previous rated version of the same bot (per role): the same mean, with the uncertainty raised
to ``sqrt(sigma^2 + CARRY_SIGMA^2)`` (at most the prior's). The mean carries because a new version is
most often a small change of the old one: starting it from the prior (25 ± 8.3) would drop a strong
team's bot to the bottom of the board (its ``mu - 3 sigma`` near 0) and make it win its way back. The
uncertainty rises because it is a different program: a version that is much better or much worse moves
to its place in a few games instead of being held near the old mean by a small sigma.

Draws are counted as the store's leaderboards count them: the draw probability of a game is the
smoothed rate ``(ties + 1) / (pairs + 2)`` over the ranked games rated so far, this one included.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.stats.ratings import MU, SIGMA, Rating, pairwise_draw_rate, rate, smoothed_draw_rate

CARRY_SIGMA = SIGMA / 2
"""The uncertainty a new version adds to its predecessor's (see the module's docstring)."""

Player = tuple[int, str | None]  # a league version id and its role


def carried(previous: Rating) -> Rating:
    """The rating a new version starts from, given its predecessor's."""
    return Rating(previous.mu, min(SIGMA, math.hypot(previous.sigma, CARRY_SIGMA)))


@dataclass
class RatingState:
    """The ratings after some ranked games: each player's rating and games, W-D-L, and the draw counts."""

    ratings: dict[Player, Rating] = field(default_factory=dict)
    games: dict[Player, int] = field(default_factory=dict)
    ties: int = 0
    pairs: int = 0

    def start_of(self, player: Player, predecessor: Callable[[int], int | None]) -> Rating:
        """The rating ``player`` has, or starts from if it has none yet (its predecessor's carried over)."""
        if player in self.ratings:
            return self.ratings[player]
        version, role = player
        earlier = predecessor(version)
        while earlier is not None:
            if (earlier, role) in self.ratings:
                return carried(self.ratings[(earlier, role)])
            earlier = predecessor(earlier)
        return Rating(MU, SIGMA)

    def add_game(self, players: Sequence[Player], ranks: Sequence[int],
                 predecessor: Callable[[int], int | None]) -> None:
        """Rate one more ranked game (``players`` by seat, ``ranks`` by seat)."""
        ties, pairs = pairwise_draw_rate([ranks])
        self.ties, self.pairs = self.ties + ties, self.pairs + pairs
        start = {player: self.start_of(player, predecessor) for player in players}
        after, _ = rate([(tuple(players), tuple(ranks))], probability=smoothed_draw_rate(self.ties, self.pairs),
                        start=start)
        for player in players:
            self.ratings[player] = after[player]
            self.games[player] = self.games.get(player, 0) + 1


def rate_all(games: Sequence[tuple[Sequence[Player], Sequence[int]]],
             predecessor: Callable[[int], int | None]) -> RatingState:
    """The ratings after ``games`` (in queue order), from scratch."""
    state = RatingState()
    for players, ranks in games:
        state.add_game(players, ranks, predecessor)
    return state


def outcome_of(seat: int, ranks: Sequence[int]) -> str:
    """``win`` (alone at the top), ``draw`` (tied at the top) or ``loss`` for the player in ``seat``."""
    best = min(ranks)
    if ranks[seat] != best:
        return "loss"
    return "draw" if sum(rank == best for rank in ranks) > 1 else "win"
