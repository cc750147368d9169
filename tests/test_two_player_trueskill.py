"""The closed-form two-player TrueSkill update agrees with the trueskill package's factor graph."""

import random

import trueskill

from arena.stats.ratings import MU, SIGMA, environment, rate, rate_game
from arena.stats.two_player import draw_margin, rate_two, v_w_draw, v_w_win


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


def test_v_and_w_computed_together_equal_the_package_functions_to_the_last_bit():
    chooser = random.Random(34)
    env = environment(0.3)
    cases = [(chooser.uniform(-6, 6), chooser.uniform(0.0, 2.0)) for _ in range(5000)]
    cases += [(0.0, 0.5), (-0.0, 0.5), (3.0, 0.0), (-3.0, 0.0), (0.25, 0.25), (-0.25, 0.25)]
    for diff, margin in cases:
        assert outcome(v_w_win, env, diff, margin) == outcome(lambda *a: (env.v_win(*a[1:]), env.w_win(*a[1:])),
                                                              env, diff, margin)
        assert outcome(v_w_draw, env, diff, margin) == outcome(lambda *a: (env.v_draw(*a[1:]), env.w_draw(*a[1:])),
                                                               env, diff, margin)
    assert outcome(v_w_draw, env, 40.0, 0.1) == "FloatingPointError"  # where the package gives up, so does it


def outcome(function, *args):
    """What ``function(*args)`` returns, or the name of what it raises."""
    try:
        return function(*args)
    except Exception as exc:
        return type(exc).__name__


def test_rate_game_equals_rating_in_the_game_s_own_environment_to_the_last_bit():
    chooser = random.Random(35)
    for _ in range(2000):
        probability = chooser.uniform(0.001, 0.999)
        before = [(chooser.uniform(-20, 70), chooser.uniform(0.2, 9.0)) for _ in range(2)]
        ranks = chooser.choice([(1, 2), (2, 1), (1, 1)])
        env = environment(probability)
        assert rate_game(probability, before, ranks) == list(rate_two(env, draw_margin(env), *before, ranks))
