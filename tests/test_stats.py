import importlib.util
import math
import sys
from fractions import Fraction

import pytest

from arena.stats.bradley_terry import bradley_terry, kendall_tau, pair_results
from arena.stats.elo import (
    elo_difference,
    elo_difference_pairs,
    elo_from_score,
    gsprt_llr,
    pentanomial,
    score_from_elo,
    sprt_bounds,
)
from arena.stats.proportions import (
    ELO_PER_NATURAL_UNIT,
    fisher_exact,
    holm,
    normal_cdf,
    normal_quantile,
    score_rate,
    sign_test,
    success,
    two_proportion_test,
    wilson_interval,
)
from tests.helpers import REPO

Z = 1.959963984540054  # the 97.5% normal quantile, to double precision
approx = pytest.approx


def finite_or_inf(*values):
    return all(not math.isnan(v) for v in values)


# -- basics ---------------------------------------------------------------------------------------------------

def test_normal_quantile_and_cdf():
    assert normal_quantile(0.975) == approx(Z, abs=1e-15)
    assert normal_quantile(0.5) == 0
    assert normal_quantile(0.025) == approx(-Z, abs=1e-15)
    assert normal_cdf(1.96) == approx(0.9750021048517795, abs=1e-15)  # standard table value
    assert normal_quantile(0) == -math.inf and normal_quantile(1) == math.inf
    assert normal_cdf(math.inf) == 1 and normal_cdf(-math.inf) == 0
    with pytest.raises(ValueError, match=r"a probability must be in \[0, 1\], not 1\.5"):
        normal_quantile(1.5)


def test_elo_and_score_scale():
    assert elo_from_score(0.75) == approx(400 * math.log10(3))  # 3:1 odds, 190.85 Elo
    assert elo_from_score(0.5) == 0
    assert score_from_elo(400) == approx(10 / 11)  # 400 Elo is 10:1 odds
    assert score_from_elo(elo_from_score(0.3)) == approx(0.3)
    assert elo_from_score(0) == -math.inf and elo_from_score(1) == math.inf
    assert score_from_elo(math.inf) == 1 and score_from_elo(-math.inf) == 0


# -- score rate and Wilson ------------------------------------------------------------------------------------

def test_wilson_interval_worked_examples():
    # 7 of 10: the textbook Wilson 95% interval is (0.3968, 0.8922).
    lower, upper = wilson_interval(7, 10)
    assert (round(lower, 4), round(upper, 4)) == (0.3968, 0.8922)
    # By hand: centre (p + z^2/2n) / (1 + z^2/n), half z / (1 + z^2/n) sqrt(p q / n + z^2 / 4n^2).
    p, n = 0.65, 10
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    rate = score_rate(5, 3, 2)  # 5 wins, 3 draws: 6.5 points of 10
    assert (rate.score, rate.games) == (0.65, 10)
    assert rate.lower == approx(centre - half, abs=1e-12) and rate.upper == approx(centre + half, abs=1e-12)


def test_score_rate_edge_cases():
    # All wins: the interval is [n / (n + z^2), 1], never zero-width.
    wins = score_rate(10, 0, 0)
    assert (wins.score, wins.upper) == (1.0, 1.0)
    assert wins.lower == approx(10 / (10 + Z * Z), abs=1e-12)
    losses = score_rate(0, 0, 10)
    assert (losses.score, losses.lower) == (0.0, 0.0)
    assert losses.upper == approx(Z * Z / (10 + Z * Z), abs=1e-12)
    draws = score_rate(0, 10, 0)
    assert draws.score == 0.5 and draws.lower == approx(1 - draws.upper)
    assert 0 < draws.lower < 0.5 < draws.upper < 1
    empty = score_rate(0, 0, 0)
    assert (empty.score, empty.lower, empty.upper, empty.games) == (0.5, 0.0, 1.0, 0)
    with pytest.raises(ValueError, match="counts must be non-negative, not -1"):
        score_rate(-1, 0, 0)


# -- two proportions ------------------------------------------------------------------------------------------

def test_two_proportion_z_test_worked_example():
    # 60/100 against 45/100, by hand:
    #   unpooled se = sqrt(.6*.4/100 + .45*.55/100) = sqrt(.004875) -> z = .15 / .069821 = 2.1483
    #   pooled p = 105/200 = .525, se = sqrt(.525*.475*(2/100)) = .070622 -> z = 2.1240, two-sided p = 0.0337
    test = two_proportion_test(60, 100, 45, 100)
    assert test.test == "z"
    assert test.z == approx(0.15 / math.sqrt(0.004875))
    assert round(test.z, 4) == 2.1483
    assert test.z_pooled == approx(0.15 / math.sqrt(0.525 * 0.475 * 0.02))
    assert round(test.z_pooled, 4) == 2.1240
    assert round(test.p_value, 4) == 0.0337  # 2 * (1 - Phi(2.124)), Phi(2.124) = 0.98316 from the table
    assert test.lower == approx(0.15 - Z * math.sqrt(0.004875))
    assert test.upper == approx(0.15 + Z * math.sqrt(0.004875))
    assert test.significant(0.05) and not test.significant(0.01)


def exact_fisher(a, b, c, d):
    """Fisher's two-sided p-value in exact rational arithmetic, by enumerating every table."""
    row1, row2, col1 = a + b, c + d, a + c
    total = math.comb(row1 + row2, col1)

    def p(k):
        return Fraction(math.comb(row1, k) * math.comb(row2, col1 - k), total)

    observed = p(a)
    return sum(p(k) for k in range(max(0, col1 - row2), min(row1, col1) + 1) if p(k) <= observed)


def test_fisher_exact_worked_examples():
    # The lady tasting tea, 3 of 4 right: tables have probabilities [1, 16, 36, 16, 1] / 70;
    # those no likelier than 16/70 sum to 34/70.
    assert fisher_exact(3, 1, 1, 3) == approx(34 / 70, abs=1e-12)
    for table in [(8, 2, 1, 5), (1, 9, 11, 3), (0, 5, 5, 0), (2, 7, 8, 2), (12, 5, 3, 9), (5, 0, 0, 5)]:
        assert fisher_exact(*table) == approx(float(exact_fisher(*table)), abs=1e-12), table
    assert fisher_exact(0, 0, 3, 4) == 1.0  # an empty row: only one arrangement
    assert fisher_exact(0, 0, 0, 0) == 1.0


def test_small_counts_switch_to_fisher_and_say_so():
    # 9 of 12 against 3 of 12: cells 9, 3, 3, 9 -> fewer than 10 events in a cell.
    test = two_proportion_test(9, 12, 3, 12)
    assert test.test == "fisher"
    assert test.p_value == approx(float(exact_fisher(9, 3, 3, 9)), abs=1e-12)
    assert test.z == approx(0.5 / math.sqrt(2 * 0.75 * 0.25 / 12))  # the statistic is still reported
    assert two_proportion_test(9, 12, 3, 12, min_count=3).test == "z"


def test_two_proportion_edge_cases():
    # p = 1 against p = 0: zero unpooled standard error gives an explicit infinity, Fisher decides.
    extreme = two_proportion_test(20, 20, 0, 20)
    assert extreme.z == math.inf and extreme.test == "fisher"
    assert extreme.z_pooled == approx(1 / math.sqrt(0.25 * 0.1))
    assert extreme.p_value == approx(float(exact_fisher(20, 0, 0, 20)), abs=1e-15)
    assert (extreme.lower, extreme.upper) == (1.0, 1.0)
    assert two_proportion_test(0, 20, 20, 20).z == -math.inf
    for same in [two_proportion_test(0, 30, 0, 30), two_proportion_test(30, 30, 30, 30)]:
        assert (same.z, same.z_pooled, same.p_value, same.difference) == (0.0, 0.0, 1.0, 0.0)
    empty = two_proportion_test(0, 0, 5, 10)
    assert (empty.p1, empty.difference, empty.z, empty.p_value, empty.test) == (0.0, 0.0, 0.0, 1.0, "fisher")
    assert (empty.lower, empty.upper) == (-1.0, 1.0)
    assert finite_or_inf(*[getattr(two_proportion_test(0, 0, 0, 0), f) for f in ("z", "z_pooled", "p_value")])
    with pytest.raises(ValueError, match="successes cannot exceed trials"):
        two_proportion_test(11, 10, 0, 10)


def test_sign_test_and_success():
    assert sign_test(9, 1) == approx(2 * (1 + 10) / 1024)  # 2 P(X <= 1), X ~ Binomial(10, 1/2)
    assert sign_test(1, 9) == sign_test(9, 1)
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0
    assert sign_test(10, 0) == approx(2 / 1024)
    # Cloppert's success: opponent losses / games - own losses / games; ties help neither.
    assert success(30, 20, 100) == approx(0.1)
    assert success(0, 0, 50) == 0.0  # all ties
    assert success(10, 0, 10) == 1.0 and success(0, 10, 10) == -1.0
    assert success(0, 0, 0) == 0.0


# -- Elo ------------------------------------------------------------------------------------------------------

def test_elo_difference_matches_cutechess_output():
    # cutechess-cli printed "Score ... 99 - 97 - 104 [0.503] 300 / Elo difference: 2.3 +/- 31.8, LOS: 55.7 %"
    # and "45 - 37 - 18 [0.540] 100 / Elo difference: 27.9 +/- 62.4, LOS: 81.2 %" (wins - losses - draws).
    # cutechess takes its 97.5% quantile from an approximate inverse error function, 1.9571619 rather
    # than 1.9599640; at that confidence the margins agree to the printed digit.
    cutechess_confidence = 2 * normal_cdf(1.9571619316560775) - 1
    for (w, l_, d), elo, error, los in [((99, 97, 104), 2.3, 31.8, 55.7), ((45, 37, 18), 27.9, 62.4, 81.2)]:
        estimate = elo_difference(w, d, l_, confidence=cutechess_confidence)
        assert (round(estimate.elo, 1), round(estimate.error, 1), round(100 * estimate.los, 1)) == (elo, error, los)
        assert estimate.samples == w + l_ + d
    # With the exact quantile, by hand: s = 0.54, v = (.45 * .46^2 + .18 * .04^2 + .37 * .54^2) = 0.2024,
    # interval s +- 1.96 sqrt(v / 100).
    estimate = elo_difference(45, 18, 37)
    v = 0.45 * 0.46 ** 2 + 0.18 * 0.04 ** 2 + 0.37 * 0.54 ** 2
    half = Z * math.sqrt(v / 100)
    assert estimate.error == approx((elo_from_score(0.54 + half) - elo_from_score(0.54 - half)) / 2)
    assert estimate.los == approx(0.5 + 0.5 * math.erf(8 / math.sqrt(2 * 82)))


def test_elo_difference_edge_cases():
    empty = elo_difference(0, 0, 0)
    assert (empty.elo, empty.error, empty.los, empty.samples) == (0.0, math.inf, 0.5, 0)
    wins = elo_difference(10, 0, 0)
    assert (wins.elo, wins.error) == (math.inf, math.inf)
    assert wins.los == approx(0.5 + 0.5 * math.erf(10 / math.sqrt(20)))
    losses = elo_difference(0, 0, 10)
    assert (losses.elo, losses.error) == (-math.inf, math.inf) and losses.los < 0.001
    draws = elo_difference(0, 10, 0)
    assert (draws.elo, draws.error, draws.los) == (0.0, 0.0, 0.5)
    # 9 wins and a draw: s = .95, the interval reaches a score of 1, so the margin is infinite.
    assert elo_difference(9, 1, 0).error == math.inf
    assert elo_difference(9, 1, 0).elo == approx(elo_from_score(0.95))


def test_pentanomial_counts_and_elo_match_fastchess():
    pairs = [(1, 1), (1, 0), (0.5, 0.5), (0, 0.5), (1, 0.5), (0, 0)]
    assert pentanomial(pairs) == [1, 1, 2, 1, 1]
    with pytest.raises(ValueError, match="a pair's scores must each be 0, 1/2 or 1"):
        pentanomial([(0.3, 0)])
    # fastchess's own unit tests: LL 34, LD 54, WL 31, DD 32, WD 64, WW 75 -> 55.58 +- 27.65, LOS 100.00 %;
    # LL 332, LD 433, WL 457, DD 41, WD 333, WW 334 -> -8.64 +- 10.33, LOS 5.05 %.
    first = elo_difference_pairs([34, 54, 31 + 32, 64, 75])
    assert (round(first.elo, 2), round(first.error, 2), round(100 * first.los, 2)) == (55.58, 27.65, 100.0)
    second = elo_difference_pairs([332, 433, 457 + 41, 333, 334])
    assert (round(second.elo, 2), round(second.error, 2), round(100 * second.los, 2)) == (-8.64, 10.33, 5.05)
    assert second.samples == 1930


def test_pentanomial_edge_cases():
    empty = elo_difference_pairs([0, 0, 0, 0, 0])
    assert (empty.elo, empty.error, empty.los, empty.samples) == (0.0, math.inf, 0.5, 0)
    assert (elo_difference_pairs([0, 0, 0, 0, 7]).elo, elo_difference_pairs([0, 0, 0, 0, 7]).error) == (
        math.inf, math.inf)
    assert elo_difference_pairs([7, 0, 0, 0, 0]).elo == -math.inf
    split = elo_difference_pairs([0, 0, 12, 0, 0])  # every pair split 1-1 (or two draws)
    assert (split.elo, split.error, split.los) == (0.0, 0.0, 0.5)
    one_bucket = elo_difference_pairs([0, 0, 0, 5, 0])  # mean 3/4 with no spread
    assert (one_bucket.elo, one_bucket.error, one_bucket.los) == (approx(elo_from_score(0.75)), 0.0, 1.0)
    with pytest.raises(ValueError, match="a pentanomial has 5 counts"):
        elo_difference_pairs([1, 2, 3])


# -- Holm -----------------------------------------------------------------------------------------------------

def test_holm_worked_example():
    # Sorted: .005 * 4 = .02, .01 * 3 = .03, .03 * 2 = .06, .04 * 1 = .04 -> kept monotone: .06.
    assert holm([0.01, 0.04, 0.03, 0.005]) == approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]  # capped at 1
    assert holm([0.02]) == [0.02]
    assert holm([]) == []
    assert holm([0.0, 1.0]) == [0.0, 1.0]
    adjusted = holm([0.001 * k for k in range(1, 21)])
    bonferroni = [min(1.0, 20 * 0.001 * k) for k in range(1, 21)]
    assert all(h <= b + 1e-15 for h, b in zip(adjusted, bonferroni, strict=True))
    with pytest.raises(ValueError, match=r"p-values must be in \[0, 1\], not 1\.2"):
        holm([1.2])


# -- GSPRT ----------------------------------------------------------------------------------------------------

def test_sprt_bounds():
    assert sprt_bounds(0.05, 0.05) == approx((-math.log(19), math.log(19)))  # +-2.944
    assert sprt_bounds(0.05, 0.1) == approx((math.log(0.1 / 0.95), math.log(18)))
    for alpha, beta in [(0, 0.05), (0.05, 1), (0.6, 0.5)]:
        with pytest.raises(ValueError, match=r"alpha and beta must be in \(0, 1\)"):
            sprt_bounds(alpha, beta)


def trinomial_llr_closed_form(losses, draws, wins, elo0, elo1):
    """The trinomial GSPRT by hand: the law (pL, pD, pW) of largest likelihood with mean s is
    pW = t, pD = 2 (s - t), pL = 1 - 2 s + t, where t solves the quadratic obtained by setting
    d/dt [wins log t + draws log(s - t) + losses log(1 - 2s + t)] to zero:
    -N t^2 + (wins (s - c) - draws c + losses s) t + wins s c = 0 with c = 1 - 2s."""
    n = losses + draws + wins

    def law(s):
        c = 1 - 2 * s
        a, b, k = -n, wins * (s - c) - draws * c + losses * s, wins * s * c
        roots = [(-b + sign * math.sqrt(b * b - 4 * a * k)) / (2 * a) for sign in (1, -1)]
        t = next(r for r in roots if max(0.0, 2 * s - 1) < r < s)
        return 1 - 2 * s + t, 2 * (s - t), t

    p0, p1 = law(score_from_elo(elo0)), law(score_from_elo(elo1))
    return sum(count * math.log(q1 / q0) for count, q0, q1 in zip((losses, draws, wins), p0, p1, strict=True))


def pentanomial_llr_by_search(counts, elo0, elo1):
    """The pentanomial GSPRT by brute force: maximize the log-likelihood over laws on 0, 1/4, ..., 1 with
    the given mean by coordinate ascent (a golden-section search along each of the first three
    probabilities in turn; the last two follow from the constraints). The objective is concave, so this
    finds the maximum without any of the theory the library uses."""

    def complete(free, s):
        p0, p1, p2 = free
        rest, mean_rest = 1 - p0 - p1 - p2, s - 0.25 * p1 - 0.5 * p2
        p3 = 4 * (rest - mean_rest)
        return [p0, p1, p2, p3, mean_rest - 0.75 * p3]

    def loglik(free, s):
        law = complete(free, s)
        if min(law) <= 0:
            return -math.inf
        return sum(c * math.log(p) for c, p in zip(counts, law, strict=True))

    def edge(along, inside, outside):
        for _ in range(60):
            middle = (inside + outside) / 2
            inside, outside = (middle, outside) if along(middle) > -math.inf else (inside, middle)
        return inside

    def maximize(s):
        weight = abs(2 * s - 1)  # a feasible start: uniform mixed with a point mass at 0 or 1
        free = [(1 - weight) / 5 + (weight if s < 0.5 else 0), (1 - weight) / 5, (1 - weight) / 5]
        ratio = (math.sqrt(5) - 1) / 2
        for _ in range(400):  # coordinate ascent creeps along the constraint: many sweeps
            for i in range(3):
                def along(x, i=i):
                    return loglik([*free[:i], x, *free[i + 1:]], s)

                lo, hi = edge(along, free[i], 0.0), edge(along, free[i], 1.0)
                x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
                f1, f2 = along(x1), along(x2)
                for _ in range(60):
                    if f1 < f2:
                        lo, x1, f1 = x1, x2, f2
                        x2 = lo + ratio * (hi - lo)
                        f2 = along(x2)
                    else:
                        hi, x2, f2 = x2, x1, f1
                        x1 = hi - ratio * (hi - lo)
                        f1 = along(x1)
                free[i] = (lo + hi) / 2
        return loglik(free, s)

    return maximize(score_from_elo(elo1)) - maximize(score_from_elo(elo0))


def test_gsprt_llr_trinomial_matches_the_closed_form():
    for (losses, draws, wins), elo0, elo1 in [((30, 40, 50), 0, 20), ((120, 300, 100), -5, 5),
                                              ((7, 2, 11), 0, 50), ((500, 10, 480), -10, 10)]:
        assert gsprt_llr([losses, draws, wins], elo0, elo1) == approx(
            trinomial_llr_closed_form(losses, draws, wins, elo0, elo1), rel=1e-9, abs=1e-9)


@pytest.mark.slow
def test_gsprt_llr_pentanomial_matches_a_brute_force_maximum():
    for counts, elo0, elo1 in [([10, 30, 60, 35, 15], 0, 20), ([3, 20, 40, 22, 2], -10, 10),
                               ([1, 2, 50, 2, 1], 0, 30)]:
        assert gsprt_llr(counts, elo0, elo1) == approx(pentanomial_llr_by_search(counts, elo0, elo1), abs=1e-6)


def test_gsprt_llr_properties_and_edge_cases():
    counts = [10, 30, 60, 35, 15]
    assert gsprt_llr(counts, 0, 20) == approx(-gsprt_llr(counts, 20, 0))
    assert gsprt_llr(counts, 5, 5) == 0
    # Near the truth the LLR is close to the normal approximation N (s1 - s0)(2 s - s0 - s1) / (2 var).
    n = sum(counts)
    mean = sum(c * i / 4 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(counts)) / n
    s0, s1 = score_from_elo(0), score_from_elo(2)
    assert gsprt_llr(counts, 0, 2) == approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), rel=0.01)
    assert gsprt_llr([0, 0, 0], 0, 5) == 0.0 and gsprt_llr([0] * 5, 0, 5) == 0.0
    all_wins, all_losses = gsprt_llr([0, 0, 10], 0, 5), gsprt_llr([10, 0, 0], 0, 5)
    assert 0 < all_wins < math.inf and -math.inf < all_losses < 0
    assert gsprt_llr([0, 10, 0], 0, 5) < 0  # all draws favour "no difference"
    assert gsprt_llr([0, 0, 20, 0, 0], 0, 5) < 0
    assert gsprt_llr([0, 0, 0, 0, 20], 0, 5) > 0
    with pytest.raises(ValueError, match=r"give 3 counts \(losses, draws, wins\) or 5 \(a pentanomial\), not 4"):
        gsprt_llr([1, 2, 3, 4], 0, 5)
    with pytest.raises(ValueError, match="elo0 and elo1 must be finite"):
        gsprt_llr([1, 2, 3], 0, math.inf)


# -- Bradley-Terry --------------------------------------------------------------------------------------------

def test_bradley_terry_two_bots_agrees_with_elo_difference():
    fit = bradley_terry({("a", "b"): (60, 20, 20)})
    a, b = fit.ratings["a"], fit.ratings["b"]
    assert a.rating - b.rating == approx(400 * math.log10(0.7 / 0.3))  # = elo_difference(60, 20, 20).elo
    assert a.rating == approx(-b.rating)
    # By hand: P = .7, draws .2, so each game varies by P(1-P) - d/4 = .21 - .05 = .16; the information is
    # 100 P(1-P) = 21, so var(a - b) = 100 * .16 / 21^2 in natural units.
    se_diff = math.sqrt(100 * 0.16 / 21 ** 2) * ELO_PER_NATURAL_UNIT
    diff, lower, upper = fit.difference("a", "b")
    assert (upper - diff) == approx(Z * se_diff) and (diff - lower) == approx(Z * se_diff)
    assert a.stderr == approx(se_diff / 2)  # a - mean = (a - b) / 2
    assert (a.games, b.games) == (100, 100)


def test_bradley_terry_chain_by_hand():
    # a-b and b-c only: a tree, so each difference is that pair's own: score .75 -> 400 log10(3) each.
    fit = bradley_terry({("a", "b"): (30, 0, 10), ("c", "b"): (0, 20, 20)})
    e = 400 * math.log10(3)
    assert [fit.ratings[x].rating for x in "abc"] == approx([e, 0, -e], abs=1e-9)
    # var(a - b) = 40 (.1875 - 0) / (40 * .1875)^2, var(b - c) = 40 (.1875 - .5 / 4) / (40 * .1875)^2;
    # a - mean = (2 (a - b) + (b - c)) / 3.
    v1 = 40 * 0.1875 / (40 * 0.1875) ** 2
    v2 = 40 * (0.1875 - 0.125) / (40 * 0.1875) ** 2
    assert fit.ratings["a"].stderr == approx(math.sqrt((4 * v1 + v2) / 9) * ELO_PER_NATURAL_UNIT)
    anchored = bradley_terry({("a", "b"): (30, 0, 10), ("c", "b"): (0, 20, 20)}, anchor="b")
    assert [anchored.ratings[x].rating for x in "abc"] == approx([e, 0, -e], abs=1e-9)
    assert anchored.ratings["b"].stderr == 0
    assert anchored.ratings["a"].stderr == approx(math.sqrt(v1) * ELO_PER_NATURAL_UNIT)
    assert anchored.ratings["c"].stderr == approx(math.sqrt(v2) * ELO_PER_NATURAL_UNIT)


def test_bradley_terry_fit_solves_the_likelihood_equations():
    results = {("a", "b"): (12, 5, 3), ("a", "c"): (8, 2, 10), ("b", "c"): (9, 9, 2), ("c", "d"): (15, 3, 2),
               ("a", "d"): (20, 0, 0), ("b", "d"): (1, 0, 0)}
    fit = bradley_terry(results)
    assert sum(r.rating for r in fit.ratings.values()) == approx(0, abs=1e-9)
    # At the maximum every bot's expected score equals its actual score.
    for bot in "abcd":
        actual = expected = 0.0
        for (x, y), (w, d, l_) in results.items():
            if bot in (x, y):
                other = y if bot == x else x
                mine = w + d / 2 if bot == x else l_ + d / 2
                p = score_from_elo(fit.ratings[bot].rating - fit.ratings[other].rating)
                actual, expected = actual + mine, expected + (w + d + l_) * p
        assert actual == approx(expected, abs=1e-8)
    ordered = sorted("abcd", key=lambda x: -fit.ratings[x].rating)
    assert ordered == ["a", "b", "c", "d"]
    assert all(r.lower < r.rating < r.upper for r in fit.ratings.values())


def test_bradley_terry_edge_cases():
    # A bot that won every game: the plain maximum does not exist, one virtual draw keeps it finite:
    # score 10.5 of 11 -> 400 log10(10.5 / 0.5) between them.
    fit = bradley_terry({("a", "b"): (10, 0, 0)})
    assert fit.ratings["a"].rating == approx(200 * math.log10(21))
    assert all(math.isfinite(v) for r in fit.ratings.values() for v in (r.rating, r.lower, r.upper, r.stderr))
    assert bradley_terry({("a", "b"): (0, 0, 10)}).ratings["a"].rating == approx(-200 * math.log10(21))
    draws = bradley_terry({("a", "b"): (0, 10, 0)})
    assert [(r.rating, r.lower, r.upper) for r in draws.ratings.values()] == [(0.0, 0.0, 0.0)] * 2
    assert bradley_terry({}).ratings == {}
    lonely = bradley_terry({}, players=["x"]).ratings["x"]
    assert (lonely.rating, lonely.lower, lonely.upper, lonely.games) == (0.0, -math.inf, math.inf, 0)
    split = bradley_terry({("a", "b"): (3, 1, 2), ("c", "d"): (1, 1, 1)})
    assert all((r.lower, r.upper) == (-math.inf, math.inf) for r in split.ratings.values())
    assert math.isfinite(split.difference("a", "b")[1]) and split.difference("a", "c")[1:] == (-math.inf, math.inf)
    with pytest.raises(ValueError, match="a bot cannot play itself"):
        bradley_terry({("a", "a"): (1, 0, 0)})
    with pytest.raises(ValueError, match="prior_draws must be positive, not 0"):
        bradley_terry({("a", "b"): (1, 0, 0)}, prior_draws=0)


def test_pair_results_tallies_games():
    games = [("a", "b", 1), ("b", "a", 1), ("a", "b", 0.5), ("c", "a", 0)]
    assert pair_results(games) == {("a", "b"): (1, 1, 1), ("c", "a"): (0, 0, 1)}
    with pytest.raises(ValueError, match=r"a game's score must be 0, 1/2 or 1, not 0\.3"):
        pair_results([("a", "b", 0.3)])


def test_kendall_tau():
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == approx(4 / 6)  # 5 concordant, 1 discordant
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1
    assert kendall_tau([1, 2, 2, 3], [1, 2, 3, 4]) == approx(5 / math.sqrt(5 * 6))  # tau-b with a tie
    assert kendall_tau([1], [2]) == 0.0 and kendall_tau([1, 1], [1, 2]) == 0.0


# -- calibration ----------------------------------------------------------------------------------------------

def load_calibration():
    spec = importlib.util.spec_from_file_location("stats_calibration", REPO / "experiments" / "stats_calibration.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the module runs
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_simulated_intervals_cover_the_truth_about_95_percent():
    calibration = load_calibration()
    coverage = calibration.pair_interval_coverage(seed=7, trials=1000, games=100)
    bt = calibration.bt_coverage(seed=7, tournaments=50)
    # Fixed seeds, so the counts are exact; each must also be within 3 binomial sd of 95% (+-20.7 of 1000,
    # +-13.1 of 400).
    assert (coverage["elo_games"].covered, coverage["elo_pairs"].covered, bt.covered) == (965, 957, 380)
    assert (coverage["elo_games"].trials, coverage["elo_pairs"].trials, bt.trials) == (1000, 1000, 400)
    assert coverage["elo_games"].within(0.95) and coverage["elo_pairs"].within(0.95) and bt.within(0.95)
    # Wilson treats a game as a coin flip, so with 30% draws it errs on the wide side.
    assert coverage["wilson"].covered == 983
