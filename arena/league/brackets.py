"""Elimination brackets: their matches, and where each bot stands given the matches decided so far.

A pure layout, worked out again from the seeds and the decided matches whenever asked, so a final resumed
after a crash needs nothing else. The bracket has room for ``2^k`` bots (the least power of two at least the
bots); seed 1 meets the last seed, 2 the last but one, and so on, placed so that the top seeds meet as late as
possible; the places past the last seed are byes, so the top seeds go through their first round unplayed.

Double elimination adds a losers' bracket: the first round's losers play each other, then each round's
survivors meet the next winners' round's losers (dropped in reverse order, against early rematches). The
winners' champion meets the losers' champion in the grand final; if the losers' champion wins it, both have
lost once and a second grand final (the bracket reset) decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SINGLE, DOUBLE = "single-elimination", "double-elimination"
BYE = -1
"""Who fills a bracket place no bot fills (a bye, or the loser of a bye)."""


@dataclass(frozen=True)
class Slot:
    """Where a match's player comes from: ``seed`` (1-based), or the ``winner`` or ``loser`` of a match."""

    kind: str
    ref: int | str


@dataclass(frozen=True)
class MatchSpec:
    """One match of a bracket: ``W2-1`` (winners' round 2, its first match), ``L3-1``, ``GF`` or ``GF2``."""

    id: str
    bracket: str
    """``winners``, ``losers`` or ``grand final``."""
    round: int
    a: Slot
    b: Slot
    stage: int
    """How far a bot that loses it (and is out) got: later is higher."""


@dataclass(frozen=True)
class MatchState:
    """A match as it stands: its players (``None`` not known yet, :data:`BYE` nobody), and how it ends."""

    spec: MatchSpec
    a: int | None
    b: int | None
    status: str
    """``pending`` (a player is not known), ``ready`` (to be played), ``decided``, ``bye`` (won unplayed),
    ``not needed`` (a bracket reset the winners' champion made unnecessary)."""
    winner: int | None
    loser: int | None


def seed_order(size: int) -> list[int]:
    """The seeds in bracket order for ``size`` places (a power of two): ``[1, 4, 2, 3]`` for 4."""
    order = [1]
    while len(order) < size:
        order = [seed for top in order for seed in (top, 2 * len(order) + 1 - top)]
    return order


def layout(fmt: str, bots: int) -> list[MatchSpec]:
    """The matches of a ``fmt`` bracket of ``bots`` bots, each after the matches it depends on."""
    if bots < 2:
        raise ValueError("a bracket needs two bots")
    rounds = max(1, (bots - 1).bit_length())
    order = seed_order(2 ** rounds)
    specs: list[MatchSpec] = []
    for r in range(1, rounds + 1):
        for i in range(2 ** (rounds - r)):
            if r == 1:
                a, b = Slot("seed", order[2 * i]), Slot("seed", order[2 * i + 1])
            else:
                a, b = Slot("winner", f"W{r - 1}-{2 * i + 1}"), Slot("winner", f"W{r - 1}-{2 * i + 2}")
            specs.append(MatchSpec(f"W{r}-{i + 1}", "winners", r, a, b, r if fmt == SINGLE else 0))
    if fmt == SINGLE:
        return specs
    champion = Slot("winner", f"W{rounds}-1")
    if rounds == 1:
        survivor = Slot("loser", "W1-1")
    else:
        for r in range(1, 2 * rounds - 1):
            count = 2 ** (rounds - 1 - (r + 1) // 2)
            for i in range(count):
                if r == 1:
                    a, b = Slot("loser", f"W1-{2 * i + 1}"), Slot("loser", f"W1-{2 * i + 2}")
                elif r % 2 == 0:  # the survivors meet the next winners' round's losers, in reverse order
                    a, b = Slot("winner", f"L{r - 1}-{i + 1}"), Slot("loser", f"W{r // 2 + 1}-{count - i}")
                else:
                    a, b = Slot("winner", f"L{r - 1}-{2 * i + 1}"), Slot("winner", f"L{r - 1}-{2 * i + 2}")
                specs.append(MatchSpec(f"L{r}-{i + 1}", "losers", r, a, b, r))
        survivor = Slot("winner", f"L{2 * rounds - 2}-1")
    specs.append(MatchSpec("GF", "grand final", 1, champion, survivor, 2 * rounds))
    specs.append(MatchSpec("GF2", "grand final", 2, Slot("winner", "GF"), Slot("loser", "GF"), 2 * rounds + 1))
    return specs


def resolve(specs: Sequence[MatchSpec], seeds: Sequence[int], winners: Mapping[str, int]) -> list[MatchState]:
    """Every match as it stands, from the ``seeds`` (the bots, best seed first) and the ``winners`` of the
    matches decided so far."""
    found: dict[str, MatchState] = {}

    def fill(slot: Slot) -> int | None:
        if slot.kind == "seed":
            return seeds[int(slot.ref) - 1] if int(slot.ref) <= len(seeds) else BYE
        match = found[str(slot.ref)]
        return match.winner if slot.kind == "winner" else match.loser

    for spec in specs:
        a, b = fill(spec.a), fill(spec.b)
        if spec.id == "GF2" and found["GF"].status == "decided" and found["GF"].winner == found["GF"].a:
            found[spec.id] = MatchState(spec, None, None, "not needed", None, None)
            continue
        if a is None or b is None:
            state = MatchState(spec, a, b, "pending", None, None)
        elif a == BYE or b == BYE:
            state = MatchState(spec, a, b, "bye", b if a == BYE else a, BYE)
        elif spec.id in winners:
            winner = winners[spec.id]
            state = MatchState(spec, a, b, "decided", winner, b if winner == a else a)
        else:
            state = MatchState(spec, a, b, "ready", None, None)
        found[spec.id] = state
    return list(found.values())


def champion(states: Sequence[MatchState]) -> int | None:
    """The bracket's winner, once decided."""
    by_id = {s.spec.id: s for s in states}
    last = by_id.get("GF2")
    if last is None:
        final = states[-1]
        return final.winner if final.status in ("decided", "bye") else None
    if last.status == "not needed":
        return by_id["GF"].winner
    return last.winner if last.status == "decided" else None


def standing(states: Sequence[MatchState], fmt: str) -> dict[int, int]:
    """How far each bot got: the stage of the match that put it out, higher for an alive bot, highest for the
    champion (bots level here are ordered by seed)."""
    lost: dict[int, int] = {}
    far: dict[int, int] = {}
    top = max(s.spec.stage for s in states) + 1
    for state in states:
        for bot in (state.a, state.b):
            if bot is not None and bot != BYE:
                far.setdefault(bot, top)
        if state.status == "decided" and state.loser is not None:
            lost[state.loser] = lost.get(state.loser, 0) + 1
            out = fmt == SINGLE or state.spec.bracket == "losers" or lost[state.loser] == 2
            if out:
                far[state.loser] = state.spec.stage
    winner = champion(states)
    if winner is not None:
        far[winner] = top + 1
    return far
