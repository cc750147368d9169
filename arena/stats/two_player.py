"""TrueSkill for two players, in closed form: the update the ``trueskill`` package's factor graph computes
for two one-player teams with ``tau = 0``, without building the graph (about a hundred times faster).

With ``c = sqrt(2 beta^2 + sigma_1^2 + sigma_2^2)``, ``t = (mu_winner - mu_loser) / c`` and the draw margin
``e = epsilon / c``, the winner's mean moves up by ``sigma^2 / c * v`` and the loser's down by as much
for its own ``sigma``, and each variance shrinks by the factor ``1 - sigma^2 / c^2 * w``; ``v`` and ``w``
are the package's own functions of ``t`` and ``e`` (for a win, or a draw), computed with its normal
distribution, so the results agree with the package to within rounding (checked in the tests).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import trueskill
from trueskill import backends

Skill = tuple[float, float]
"""A player's ``(mu, sigma)``."""

TwoPlayerUpdate = Callable[[Skill, Skill, Sequence[int], float], tuple[Skill, Skill]]
"""``update(first, second, ranks, margin)``: both players' ``(mu, sigma)`` after one game with draw margin
``margin`` (see :func:`rate_two`)."""

_SQRT_2 = math.sqrt(2)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


def draw_margin(env: trueskill.TrueSkill) -> float:
    """The draw margin ``epsilon`` of a two-player game in ``env``."""
    return float(trueskill.calc_draw_margin(env.draw_probability, 2, env))


def rate_two(env: trueskill.TrueSkill, margin: float, first: Skill, second: Skill,
             ranks: Sequence[int]) -> tuple[Skill, Skill]:
    """The ``(mu, sigma)`` of two players after one game with ``ranks`` (lower is better, equal is a draw)."""
    return two_player_update(env)(first, second, ranks, margin)


def two_player_update(env: trueskill.TrueSkill) -> TwoPlayerUpdate:
    """:func:`rate_two` in ``env``, as one function to call for game after game (what depends only on the
    environment is worked out once)."""
    two_beta_squared = 2 * env.beta * env.beta
    cdf, pdf = _distribution(env)
    sqrt = math.sqrt

    def update(first: Skill, second: Skill, ranks: Sequence[int], margin: float) -> tuple[Skill, Skill]:
        (mu_a, sigma_a), (mu_b, sigma_b) = first, second
        var_a, var_b = sigma_a * sigma_a, sigma_b * sigma_b
        c = sqrt(two_beta_squared + var_a + var_b)
        if ranks[0] == ranks[1]:
            sign = 1.0
            v, w = _v_w_draw(env, cdf, pdf, (mu_a - mu_b) / c, margin / c)
        else:
            sign = 1.0 if ranks[0] < ranks[1] else -1.0
            v, w = _v_w_win(env, cdf, pdf, sign * (mu_a - mu_b) / c, margin / c)
        mu_a += sign * var_a / c * v
        mu_b -= sign * var_b / c * v
        sigma_a = sqrt(var_a * max(1 - var_a / (c * c) * w, 0.0))
        sigma_b = sqrt(var_b * max(1 - var_b / (c * c) * w, 0.0))
        return (mu_a, sigma_a), (mu_b, sigma_b)

    return update


def _distribution(env: trueskill.TrueSkill) -> tuple[Callable[[float], float], Callable[[float], float]]:
    """``env``'s normal ``cdf`` and ``pdf``: for the package's own backend, the same arithmetic with its
    default arguments (mean 0, deviation 1) folded in, which gives the same bits for less work."""
    if env.cdf is not backends.cdf or env.pdf is not backends.pdf:
        return env.cdf, env.pdf
    erfc: Callable[[float], float] = backends.erfc
    exp = math.exp

    def cdf(x: float) -> float:
        return 0.5 * erfc(-x / _SQRT_2)

    def pdf(x: float) -> float:
        return _INV_SQRT_2PI * exp(-(x ** 2 / 2))

    return cdf, pdf


def v_w_win(env: trueskill.TrueSkill, diff: float, margin: float) -> tuple[float, float]:
    """``(env.v_win(diff, margin), env.w_win(diff, margin))``, to the last bit, with the normal distribution
    evaluated once rather than twice (the package's ``w_win`` computes ``v_win`` again)."""
    return _v_w_win(env, env.cdf, env.pdf, diff, margin)


def v_w_draw(env: trueskill.TrueSkill, diff: float, margin: float) -> tuple[float, float]:
    """``(env.v_draw(diff, margin), env.w_draw(diff, margin))``, to the last bit, with the normal distribution
    evaluated once rather than three times."""
    return _v_w_draw(env, env.cdf, env.pdf, diff, margin)


def _v_w_win(env: trueskill.TrueSkill, cdf: Callable[[float], float], pdf: Callable[[float], float],
             diff: float, margin: float) -> tuple[float, float]:
    """:func:`v_w_win` with ``env``'s distribution given as ``cdf`` and ``pdf``."""
    x = diff - margin
    denom = cdf(x)
    v = (pdf(x) / denom) if denom else -x
    w = v * (v + x)
    if not 0 < w < 1:
        w = env.w_win(diff, margin)  # raises the package's floating point error
    return v, w


def _v_w_draw(env: trueskill.TrueSkill, cdf: Callable[[float], float], pdf: Callable[[float], float],
              diff: float, margin: float) -> tuple[float, float]:
    """:func:`v_w_draw` with ``env``'s distribution given as ``cdf`` and ``pdf``."""
    abs_diff = abs(diff)
    a, b = margin - abs_diff, -margin - abs_diff
    denom = cdf(a) - cdf(b)
    if not denom:
        return env.v_draw(diff, margin), env.w_draw(diff, margin)  # raises the package's floating point error
    pdf_a, pdf_b = pdf(a), pdf(b)
    v_abs = (pdf_b - pdf_a) / denom  # v_draw(abs_diff, margin): its sign factor is +1
    return v_abs * (-1 if diff < 0 else +1), (v_abs ** 2) + (a * pdf_a - b * pdf_b) / denom
