"""Matchmaking: which active bots play the league's next game, a rule that never starves a bot.

The rule (also on the "Run a league" page of the docs):

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
game), so seats and roles are fair within it; the ladder turns a match into its games. Everything here is
a pure function of its input: the simulation in the tests drives it with no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import trueskill

from arena.stats.ratings import SIGMA

SLACK = 4.0
"""How far (in weighted games) an opponent's pass may run ahead of the first version's."""


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
    """The pass a version joins with: the lowest of the active versions' (0 in an empty league)."""
    return min((c.pass_ for c in active), default=0.0)


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
            teams = [(env.create_rating(c.mu, c.sigma),) for c in (*group, candidate)]
            return float(env.quality(teams))
        best = max((c for c in pool if c not in group), key=lambda c: (quality(c), -c.pass_, -c.key))
        group.append(best)
    return group


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
