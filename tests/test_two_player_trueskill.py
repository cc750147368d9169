"""The closed-form two-player TrueSkill update agrees with the trueskill package's factor graph."""

import random

import trueskill

from arena.stats.ratings import MU, SIGMA, environment, rate
from arena.stats.two_player import draw_margin, rate_two


def test_the_closed_form_matches_the_package_on_random_cases():
    chooser = random.Random(2026)
    worst = 0.0
    for _ in range(3000):
        env = environment(chooser.uniform(0.01, 0.95))
        first = (chooser.uniform(-20, 70), chooser.uniform(0.2, 9.0))
        second = (chooser.uniform(-20, 70), chooser.uniform(0.2, 9.0))
        ranks = chooser.choice([(1, 2), (2, 1), (1, 1)])
        (a,), (b,) = env.rate([(env.create_rating(*first),), (env.create_rating(*second),)], ranks=list(ranks))
        mine = rate_two(env, draw_margin(env), first, second, ranks)
        for (mu, sigma), theirs in zip(mine, (a, b), strict=True):
            worst = max(worst, abs(mu - theirs.mu) / max(1.0, abs(theirs.mu)), abs(sigma - theirs.sigma))
    assert worst < 1e-9


def test_rate_uses_it_for_two_players_and_the_package_for_more():
    games = [(("a", "b"), (1, 2)), (("b", "c"), (1, 1)), (("a", "b", "c"), (2, 1, 3)), (("c", "a"), (1, 2))]
    ratings, probability = rate(games)
    env = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=0.0, draw_probability=probability)
    current = {name: env.create_rating() for name in "abc"}
    for players, ranks in games:
        updated = env.rate([(current[p],) for p in players], ranks=list(ranks))
        for player, (rating,) in zip(players, updated, strict=True):
            current[player] = rating
    for name, rating in current.items():
        assert abs(ratings[name].mu - rating.mu) < 1e-9 and abs(ratings[name].sigma - rating.sigma) < 1e-9
