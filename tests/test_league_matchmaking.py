"""The league's matchmaking in virtual time: 30 bots, no clock, games decided by hidden skills and a seeded
generator, rated by the league's own rating code. No bot is starved, a new version plays at once, uncertain
bots play more, and the leaders meet each other."""

from collections import Counter

import numpy as np

from arena.stats.ladder_rule import (
    Candidate,
    RatingState,
    next_match,
    pair_quality,
    plan_matches,
    scheduled,
    starting_pass,
    weight,
)
from arena.stats.ratings import MU, SIGMA, environment, smoothed_draw_rate

BOTS = 30
WINDOW = 1_000
MIN_SHARE = 0.85
"""Each bot plays at least this part of its fair share (2 seats x 1,000 games / 30 bots) of every 1,000 games."""


def simulate(games, seed=1, new_version_at=None, replaced=3):
    """Play ``games`` games of two-player matches (both seat orders) between 30 bots of hidden skill.

    At game ``new_version_at`` bot ``replaced`` gets a new version (key ``BOTS``), 5 points stronger.
    Returns the games (keys by seat), the game at which the new version joined, and the rating state."""
    rng = np.random.default_rng(seed)
    skill = {key: rng.normal(MU, 6) for key in range(BOTS)}
    candidates = [Candidate(key, MU, SIGMA, 0.0, 0) for key in range(BOTS)]
    state = RatingState()
    predecessor = {}
    played: list[tuple[int, int]] = []
    joined = None
    while len(played) < games:
        if new_version_at is not None and joined is None and len(played) >= new_version_at:
            skill[BOTS], predecessor[BOTS], joined = skill[replaced] + 5, replaced, len(played)
            candidates = [c for c in candidates if c.key != replaced]
            start = state.start_of((BOTS, None), predecessor.get)
            candidates.append(Candidate(BOTS, start.mu, start.sigma, starting_pass(candidates), 0))
        env = environment(smoothed_draw_rate(state.ties, state.pairs))
        match = next_match(candidates, 2, env)
        candidates = scheduled(candidates, match, 2)
        first, second = match[0].key, match[1].key
        for seats in ((first, second), (second, first)):
            margin = skill[seats[0]] - skill[seats[1]] + rng.normal(0, 4)
            ranks = (1, 1) if abs(margin) < 0.5 else (1, 2) if margin > 0 else (2, 1)
            state.add_game([(key, None) for key in seats], ranks, predecessor.get)
            played.append(seats)
        rated = {c.key: state.ratings.get((c.key, None)) for c in candidates}
        candidates = [Candidate(c.key, rated[c.key].mu, rated[c.key].sigma, c.pass_, c.scheduled)
                      if rated[c.key] is not None else c for c in candidates]
    return played, joined, skill


def test_every_bot_keeps_its_share_of_every_thousand_games_and_a_new_version_plays_at_once():
    played, joined, _ = simulate(4_000, new_version_at=2_000)
    fair = 2 * WINDOW / BOTS
    for start in range(0, len(played) - WINDOW + 1, WINDOW // 4):
        window = played[start:start + WINDOW]
        counts = Counter(key for seats in window for key in seats)
        if start + WINDOW <= joined:
            playing_throughout = set(range(BOTS))
        elif start >= joined:
            playing_throughout = set(range(BOTS)) - {3} | {BOTS}
        else:  # the window sees bot 3 replaced by its new version: neither plays all of it
            playing_throughout = set(range(BOTS)) - {3}
        for key in playing_throughout:
            assert counts[key] >= MIN_SHARE * fair, (start, key, counts[key])
    # the new version's first game is the very next one after it joined
    first_game = next(n for n, seats in enumerate(played) if BOTS in seats)
    assert first_game == joined
    # and it plays more than a settled bot while its rating is uncertain
    early = Counter(key for seats in played[joined:joined + 200] for key in seats)
    assert early[BOTS] > max(count for key, count in early.items() if key != BOTS)


def test_the_leaders_meet_each_other_far_more_often_than_chance():
    played, _, skill = simulate(3_000)
    leaders = set(sorted(skill, key=skill.get, reverse=True)[:5])
    late = played[1_000:]
    among_leaders = sum(set(seats) <= leaders for seats in late) / len(late)
    chance = 5 * 4 / (BOTS * (BOTS - 1))
    assert among_leaders > 4 * chance


def test_a_new_version_joins_with_the_lowest_pass_and_starts_the_next_match():
    env = environment(0.1)
    settled = [Candidate(key, 25.0 + key, 1.0, 10.0 + key, 40) for key in range(6)]
    newcomer = Candidate(99, 30.0, 4.0, starting_pass(settled), 0)
    match = next_match([*settled, newcomer], 2, env)
    assert match[0].key == 99
    # its opponent: the closest rating (30 against 25 + key) among those at most SLACK games ahead of it
    assert match[1].key == 4


def test_uncertain_versions_weigh_more_and_scheduling_moves_the_pass():
    assert weight(SIGMA) == 2.0 and weight(0.0) == 1.0 and weight(SIGMA * 3) == 2.0
    a, b, c = Candidate(1, 25, SIGMA, 0.0, 0), Candidate(2, 25, 0.0, 0.0, 0), Candidate(3, 25, 0.0, 5.0, 0)
    after = scheduled([a, b, c], [a, b], 2)
    assert [(x.pass_, x.scheduled) for x in after] == [(1.0, 2), (2.0, 2), (5.0, 0)]


def test_plan_matches_stops_when_too_few_bots_play():
    env = environment(0.1)
    planned, after = plan_matches([Candidate(1, 25, 8, 0, 0)], 2, 2, 5, env)
    assert planned == [] and after == [Candidate(1, 25, 8, 0, 0)]
    planned, _ = plan_matches([Candidate(k, 25, 8, 0, 0) for k in range(4)], 2, 2, 3, env)
    assert [[c.key for c in match] for match in planned] == [[0, 1], [2, 3], [0, 1]]


def test_the_pair_quality_is_the_packages_match_quality_to_the_last_bit():
    rng = np.random.default_rng(5)
    for draw_rate in (0.01, 0.1, 0.5):
        env = environment(draw_rate)
        for _ in range(300):
            a = env.create_rating(float(rng.uniform(-10, 60)), float(rng.choice([rng.uniform(0.01, 12), SIGMA])))
            b = env.create_rating(float(rng.choice([a.mu, rng.uniform(-10, 60)])), float(rng.uniform(0.01, 12)))
            assert pair_quality(env, a, b) == env.quality([(a,), (b,)])
