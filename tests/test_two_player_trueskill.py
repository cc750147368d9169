"""The closed-form two-player TrueSkill update agrees with the trueskill package's factor graph."""

import math
import random

import pytest
import trueskill
from trueskill import backends

from arena.stats.ratings import MU, SIGMA, environment, rate, rate_game
from arena.stats.two_player import draw_margin, rate_two, two_player_update, v_w_draw, v_w_win


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


def reference_update(env, margin, first, second, ranks):
    """The closed form written out with the package-exact ``v`` and ``w`` functions, step by step."""
    (mu_a, sigma_a), (mu_b, sigma_b) = first, second
    var_a, var_b = sigma_a * sigma_a, sigma_b * sigma_b
    c = math.sqrt(2 * env.beta * env.beta + var_a + var_b)
    if ranks[0] == ranks[1]:
        sign = 1.0
        v, w = v_w_draw(env, (mu_a - mu_b) / c, margin / c)
    else:
        sign = 1.0 if ranks[0] < ranks[1] else -1.0
        v, w = v_w_win(env, sign * (mu_a - mu_b) / c, margin / c)
    mu_a += sign * var_a / c * v
    mu_b -= sign * var_b / c * v
    return ((mu_a, math.sqrt(var_a * max(1 - var_a / (c * c) * w, 0.0))),
            (mu_b, math.sqrt(var_b * max(1 - var_b / (c * c) * w, 0.0))))


def scaled_cdf(x, mu=0, sigma=1):
    """Not the normal distribution's: a backend the fast path must not take for the package's own."""
    return 0.75 * backends.cdf(x, mu, sigma) + 0.125


@pytest.mark.parametrize("own_backend", [False, True])
def test_the_update_for_game_after_game_equals_the_closed_form_to_the_last_bit(own_backend):
    chooser = random.Random(1410)
    for _ in range(300):
        probability = chooser.uniform(0.01, 0.95)
        env = environment(probability)
        if own_backend:  # a backend of its own: the update uses the environment's functions as they are
            env = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=0.0, draw_probability=probability,
                                      backend=(scaled_cdf, backends.pdf, backends.ppf))
        margin = draw_margin(env)
        update = two_player_update(env)
        first = (chooser.uniform(-20, 70), chooser.uniform(0.05, 9.0))
        second = (chooser.uniform(-20, 70), chooser.uniform(0.05, 9.0))
        for _ in range(20):
            ranks = chooser.choice([(1, 2), (2, 1), (1, 1)])
            expected = outcome(reference_update, env, margin, first, second, ranks)
            assert outcome(update, first, second, ranks, margin) == expected
            assert outcome(rate_two, env, margin, first, second, ranks) == expected
            if isinstance(expected, str):
                break
            first, second = expected
