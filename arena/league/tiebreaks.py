"""The final's tiebreaks: how its round-robin table orders bots level on points, and which rule separated each.

In order: the score (a win 1, a draw 1/2); the head-to-head score among the bots level on score; the
Sonneborn-Berger score (each opponent's score times the points taken from it); wins; the TrueSkill rating
``mu - 3 sigma`` of the final's games alone; and last the seed (the ladder's rank when the final began),
which never ties. Points between two bots are counted pairwise, so a game of more than two players gives each
pair of its players 1, 1/2 or 0 by their ranks (in a two-player game that is the game's result).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RULES = ("score", "head-to-head", "Sonneborn-Berger", "wins", "TrueSkill", "seed")
"""The tiebreaks in the order they are applied (the ``tiebreak`` column names one of them)."""


@dataclass(frozen=True)
class Standing:
    """What the tiebreaks read of one bot of the final."""

    bot: int
    score: float
    wins: int
    rating: float
    """TrueSkill ``mu - 3 sigma`` of the final's games."""
    seed: int
    """1 for the ladder's best bot when the final began, then 2, 3, ..."""


def pairwise(versions: Sequence[int], ranks: Sequence[int]) -> dict[tuple[int, int], float]:
    """What each player of one game took from each other: 1 ranked better, 1/2 level, 0 worse."""
    taken: dict[tuple[int, int], float] = {}
    for seat, bot in enumerate(versions):
        for other, rival in enumerate(versions):
            if seat != other:
                points = 1.0 if ranks[seat] < ranks[other] else 0.5 if ranks[seat] == ranks[other] else 0.0
                taken[bot, rival] = taken.get((bot, rival), 0.0) + points
    return taken


def order(standings: Sequence[Standing], against: Mapping[tuple[int, int], float]) -> list[tuple[Standing, str]]:
    """``standings`` best first, each with the rule that put it ahead of the next one (``""`` for the last);
    ``against[a, b]``: the points ``a`` took from ``b`` in the final."""
    score = {s.bot: s.score for s in standings}
    level = {s.bot: [t.bot for t in standings if t.bot != s.bot and round(t.score, 9) == round(s.score, 9)]
             for s in standings}

    def keys(s: Standing) -> tuple[float, ...]:
        head = sum(against.get((s.bot, t), 0.0) for t in level[s.bot])
        berger = sum(points * score[rival] for (bot, rival), points in against.items() if bot == s.bot)
        return (round(s.score, 9), round(head, 9), round(berger, 9), float(s.wins), round(s.rating, 6),
                float(-s.seed))

    ranked = sorted(standings, key=keys, reverse=True)
    labelled = []
    for place, standing in enumerate(ranked):
        rule = ""
        if place + 1 < len(ranked):
            mine, next_ones = keys(standing), keys(ranked[place + 1])
            rule = next(name for name, a, b in zip(RULES, mine, next_ones, strict=True) if a != b)
        labelled.append((standing, rule))
    return labelled
