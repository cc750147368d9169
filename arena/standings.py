"""Standings: per-bot results, ratings and head-to-head scores from a set of played games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.game import Game
from arena.match import FAILURE_KINDS, MatchOutcome, MatchSetup
from arena.ratings import Rating, rate


@dataclass
class BotStanding:
    """One bot's line in the standings (one line per role in games with roles)."""

    label: str
    role: str | None
    rating: Rating
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    think_time: float = 0.0

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games, or 0 with no games."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass
class Standings:
    """Everything a tournament report shows."""

    game: str
    rows: list[BotStanding]
    head_to_head: dict[tuple[str, str], tuple[float, int]]
    played: int
    scheduled: int
    draw_probability: float

    @property
    def complete(self) -> bool:
        """Whether every scheduled game was played."""
        return self.played == self.scheduled


def compute_standings(game: type[Game], setups: Sequence[MatchSetup], outcomes: Mapping[int, MatchOutcome]
                      ) -> Standings:
    """Aggregate the finished games (rated in schedule order, whatever order they finished in)."""
    played = [(setups[i], outcomes[i]) for i in sorted(outcomes)]
    role = game.roles.__getitem__ if game.roles else (lambda seat: None)
    rated = [(tuple((spec.label, role(seat)) for seat, spec in enumerate(setup.bots)), outcome.ranks)
             for setup, outcome in played]
    ratings, probability = rate(rated)

    rows: dict[tuple[str, str | None], BotStanding] = {}
    head_to_head: dict[tuple[str, str], tuple[float, int]] = {}
    for (_, outcome), (players, ranks) in zip(played, rated, strict=True):
        best, first_count = min(ranks), ranks.count(min(ranks))
        for seat, key in enumerate(players):
            row = rows.setdefault(key, BotStanding(key[0], key[1], ratings[key]))
            row.games += 1
            row.think_time += outcome.think_time[seat]
            if ranks[seat] == best and first_count == 1:
                row.wins += 1
            elif ranks[seat] == best:
                row.draws += 1
            else:
                row.losses += 1
            if seat in outcome.failures:
                row.failures[outcome.failures[seat]] += 1
            for other, other_key in enumerate(players):
                if other == seat:
                    continue
                points = 1.0 if ranks[seat] < ranks[other] else 0.5 if ranks[seat] == ranks[other] else 0.0
                total, count = head_to_head.get((key[0], other_key[0]), (0.0, 0))
                head_to_head[(key[0], other_key[0])] = (total + points, count + 1)
    ordered = sorted(rows.values(), key=lambda r: (r.role or "", -r.rating.conservative, -r.score, r.label))
    return Standings(game.name, ordered, head_to_head, len(played), len(setups), probability)


def failure_summary(row: BotStanding) -> str:
    """Failures as ``T/C/I`` counts (timeouts, crashes, illegal moves)."""
    return "/".join(str(row.failures.get(kind, 0)) for kind in FAILURE_KINDS)
