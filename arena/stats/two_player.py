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
from collections.abc import Sequence

import trueskill


def draw_margin(env: trueskill.TrueSkill) -> float:
    """The draw margin ``epsilon`` of a two-player game in ``env``."""
    return float(trueskill.calc_draw_margin(env.draw_probability, 2, env))


def rate_two(env: trueskill.TrueSkill, margin: float, first: tuple[float, float], second: tuple[float, float],
             ranks: Sequence[int]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The ``(mu, sigma)`` of two players after one game with ``ranks`` (lower is better, equal is a draw)."""
    (mu_a, sigma_a), (mu_b, sigma_b) = first, second
    var_a, var_b = sigma_a * sigma_a, sigma_b * sigma_b
    c = math.sqrt(2 * env.beta * env.beta + var_a + var_b)
    if ranks[0] == ranks[1]:
        t = (mu_a - mu_b) / c
        v, w = v_w_draw(env, t, margin / c)
        sign = 1.0
    else:
        sign = 1.0 if ranks[0] < ranks[1] else -1.0
        t = sign * (mu_a - mu_b) / c
        v, w = v_w_win(env, t, margin / c)
    mu_a += sign * var_a / c * v
    mu_b -= sign * var_b / c * v
    sigma_a = math.sqrt(var_a * max(1 - var_a / (c * c) * w, 0.0))
    sigma_b = math.sqrt(var_b * max(1 - var_b / (c * c) * w, 0.0))
    return (mu_a, sigma_a), (mu_b, sigma_b)


def v_w_win(env: trueskill.TrueSkill, diff: float, margin: float) -> tuple[float, float]:
    """``(env.v_win(diff, margin), env.w_win(diff, margin))``, to the last bit, with the normal distribution
    evaluated once rather than twice (the package's ``w_win`` computes ``v_win`` again)."""
    x = diff - margin
    denom = env.cdf(x)
    v = (env.pdf(x) / denom) if denom else -x
    w = v * (v + x)
    if not 0 < w < 1:
        w = env.w_win(diff, margin)  # raises the package's floating point error
    return v, w


def v_w_draw(env: trueskill.TrueSkill, diff: float, margin: float) -> tuple[float, float]:
    """``(env.v_draw(diff, margin), env.w_draw(diff, margin))``, to the last bit, with the normal distribution
    evaluated once rather than three times."""
    abs_diff = abs(diff)
    a, b = margin - abs_diff, -margin - abs_diff
    denom = env.cdf(a) - env.cdf(b)
    pdf_a, pdf_b = env.pdf(a), env.pdf(b)
    if not denom:
        return env.v_draw(diff, margin), env.w_draw(diff, margin)  # raises the package's floating point error
    v_abs = (pdf_b - pdf_a) / denom  # v_draw(abs_diff, margin): its sign factor is +1
    return v_abs * (-1 if diff < 0 else +1), (v_abs ** 2) + (a * pdf_a - b * pdf_b) / denom
