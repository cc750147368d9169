"""The ladder's rule, shared by ``arena ladder`` and the league: who meets next, and how their games are rated.

Pure functions of their input (no database, no clock): the league (:mod:`arena.league.scheduling`,
:mod:`arena.league.rating_updates`) and the persistent ladder (:mod:`arena.tournament.persistent_ladder`)
feed them what they store; the simulation in the tests drives them alone.

**Matchmaking** (also on the "Run a league" page of the docs):

1. **Fair share by stride.** Every active version keeps a *pass*: the games it has been scheduled, each
   counted as ``1 / weight``. The next match starts from the version with the lowest pass (ties: the one
   scheduled fewest games, then the oldest). So every version is first in line again after the others
   have caught up with it, whoever it was paired with: no version waits while others play on.
2. **Uncertain bots play more.** A version's weight is ``1 + sigma / SIGMA_PRIOR``: between 1 (a rating
   known exactly) and 2 (a new bot), so an uncertain version's pass grows half as fast and it is first in
   line up to twice as often.
3. **A new version plays at once.** It joins with the lowest pass of the active versions and no games
   scheduled, so it starts the very next match.
4. **Top bots meet each other.** The first version's opponents are the ones with the best TrueSkill match
   quality with it (the chance of a draw between equals): versions of like rating, so the leaders meet
   the leaders. Only versions whose pass is within :data:`SLACK` of the first one's are considered (all of
   them if that leaves too few), so a version of popular rating is not played far past its share.

Each match is played in every seat rotation the game's roles allow (both seat orders, in a two-player
game), so seats and roles are fair within it; the caller turns a match into its games.

**Ratings.** Ranked games are rated one at a time, in schedule order, by the arena's TrueSkill
(:class:`RatingState`), so the ratings depend on the games alone, never on timing, and :func:`rate_all`
gives the same numbers from scratch.

*A new version starts from its predecessor.* A version's first rated game starts it from the rating of its
previous rated version (per role): the same mean, with the uncertainty raised to
``sqrt(sigma^2 + CARRY_SIGMA^2)`` (at most the prior's). The mean carries because a new version is most
often a small change of the old one: starting it from the prior (25 ± 8.3) would drop a strong bot to the
bottom of the board (its ``mu - 3 sigma`` near 0) and make it win its way back. The uncertainty rises
because it is a different program: a version that is much better or much worse moves to its place in a
few games instead of being held near the old mean by a small sigma.

Draws are counted as the store's leaderboards count them: the draw probability of a game is the smoothed
rate ``(ties + 1) / (pairs + 2)`` over the ranked games rated so far, this one included; matchmaking's
match quality uses the same rate (:func:`match_environment`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import trueskill

from arena.stats.ratings import MU, SIGMA, Rating, environment, pairwise_draw_rate, rate, smoothed_draw_rate

SLACK = 4.0
"""How far (in weighted games) an opponent's pass may run ahead of the first version's."""
CARRY_SIGMA = SIGMA / 2
"""The uncertainty a new version adds to its predecessor's (see the module's docstring)."""

Player = tuple[int, str | None]  # a version's id and its role
Predecessor = Callable[[int], int | None]
"""A version's previous version (``None`` for the first)."""


# --- matchmaking -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """An active version as matchmaking sees it."""

    key: int
    """The version's id."""
    mu: float
    sigma: float
    pass_: float
    """Its weighted games scheduled (see the module's rule 1)."""
    scheduled: int
    """Its games scheduled since it became active."""


def weight(sigma: float) -> float:
    """How much more often than a settled version an uncertain one is first in line (1 to 2)."""
    return 1.0 + min(sigma, SIGMA) / SIGMA


def starting_pass(active: Sequence[Candidate]) -> float:
    """The pass a version joins with: the lowest of the active versions' (0 when there are none)."""
    return min((c.pass_ for c in active), default=0.0)


def match_environment(ties: int, pairs: int) -> trueskill.TrueSkill:
    """The TrueSkill environment matchmaking measures match quality in, after ``ties`` of ``pairs`` seat pairs
    of the rated games tied."""
    return environment(smoothed_draw_rate(ties, pairs))


def next_match(candidates: Sequence[Candidate], players: int, env: trueskill.TrueSkill) -> list[Candidate]:
    """The versions of the next match, its first version first; fewer than ``players`` candidates: none."""
    if len(candidates) < players:
        return []
    first = min(candidates, key=lambda c: (c.pass_, c.scheduled, c.key))
    others = [c for c in candidates if c.key != first.key]
    close = [c for c in others if c.pass_ <= first.pass_ + SLACK]
    pool = close if len(close) >= players - 1 else others
    group = [first]
    while len(group) < players:
        def quality(candidate: Candidate) -> float:
            ratings = [env.create_rating(c.mu, c.sigma) for c in (*group, candidate)]
            if len(ratings) == 2:
                return pair_quality(env, *ratings)
            return float(env.quality([(rating,) for rating in ratings]))
        best = max((c for c in pool if c not in group), key=lambda c: (quality(c), -c.pass_, -c.key))
        group.append(best)
    return group


def pair_quality(env: trueskill.TrueSkill, a: trueskill.Rating, b: trueskill.Rating) -> float:
    """``env.quality([(a,), (b,)])``, the match quality of two one-player teams, without the package's matrices
    (which cost most of matchmaking's time): the same operations on the same numbers in the same order, so the
    very same float."""
    beta_squared = env.beta ** 2
    two_beta_squared = beta_squared + beta_squared
    middle = two_beta_squared + (a.sigma ** 2 + b.sigma ** 2)
    difference = a.mu - b.mu
    return math.exp(-0.5 * difference * (1.0 / middle) * difference) * math.sqrt(two_beta_squared / middle)


def scheduled(candidates: Sequence[Candidate], match: Sequence[Candidate], games: int) -> list[Candidate]:
    """The candidates after ``match`` is scheduled as ``games`` games (each of its versions plays them all)."""
    playing = {c.key for c in match}
    return [replace(c, pass_=c.pass_ + games / weight(c.sigma), scheduled=c.scheduled + games)
            if c.key in playing else c for c in candidates]


def plan_matches(candidates: Sequence[Candidate], players: int, games_per_match: int, matches: int,
                 env: trueskill.TrueSkill) -> tuple[list[list[Candidate]], list[Candidate]]:
    """The next ``matches`` matches (fewer if there are too few candidates) and the candidates after them."""
    planned: list[list[Candidate]] = []
    current = list(candidates)
    for _ in range(matches):
        match = next_match(current, players, env)
        if not match:
            break
        planned.append(match)
        current = scheduled(current, match, games_per_match)
    return planned, current


# --- ratings -----------------------------------------------------------------------------------------


def carried(previous: Rating) -> Rating:
    """The rating a new version starts from, given its predecessor's."""
    return Rating(previous.mu, min(SIGMA, math.hypot(previous.sigma, CARRY_SIGMA)))


@dataclass
class RatingState:
    """The ratings after some ranked games: each player's rating and games, and the draw counts."""

    ratings: dict[Player, Rating] = field(default_factory=dict)
    games: dict[Player, int] = field(default_factory=dict)
    ties: int = 0
    pairs: int = 0

    def start_of(self, player: Player, predecessor: Predecessor) -> Rating:
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

    def add_game(self, players: Sequence[Player], ranks: Sequence[int], predecessor: Predecessor) -> None:
        """Rate one more ranked game (``players`` by seat, ``ranks`` by seat)."""
        ties, pairs = pairwise_draw_rate([ranks])
        self.ties, self.pairs = self.ties + ties, self.pairs + pairs
        start = {player: self.start_of(player, predecessor) for player in players}
        after, _ = rate([(tuple(players), tuple(ranks))], probability=smoothed_draw_rate(self.ties, self.pairs),
                        start=start)
        for player in players:
            self.ratings[player] = after[player]
            self.games[player] = self.games.get(player, 0) + 1

    def environment(self) -> trueskill.TrueSkill:
        """The environment matchmaking uses after these games (see :func:`match_environment`)."""
        return match_environment(self.ties, self.pairs)


def rate_all(games: Sequence[tuple[Sequence[Player], Sequence[int]]], predecessor: Predecessor) -> RatingState:
    """The ratings after ``games`` (in schedule order), from scratch."""
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
