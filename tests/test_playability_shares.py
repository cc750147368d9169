"""The playability tables' shares, worked out by hand on a few games: white, black and draws of all games,
white's share of the decided games, the spread of the length, the games over 100 moves a player, and the
seeds test on each seed's share of its decided games (draws left out)."""

import math

import pytest

from arena.stats.playability import BlockStats, summarise
from arena.stats.seeds import pooled


def block(games):
    stats = BlockStats()
    for winner, plies in games:
        stats.add(winner, plies)
    return stats


# Seed A: white wins in 10 moves of both sides (5 a player), black in 202 (101), a draw at the cap of 2,000
# (1,000), white in 300 (150). Seed B: white once and black three times, 20 moves of both sides each (10).
SEED_A = [(0, 10), (1, 202), (None, 2000), (0, 300)]
SEED_B = [(0, 20), (1, 20), (1, 20), (1, 20)]


def test_a_blocks_shares_count_the_draws_and_leave_them_out_of_the_decided_games():
    row = summarise(block(SEED_A), "all")
    assert (row.games, row.white, row.black, row.draw, row.draws) == (4, 0.5, 0.25, 0.25, 1)
    assert row.white_decided == pytest.approx(2 / 3)  # 2 of the 3 decided games
    assert row.long == 0.75  # 101, 1,000 and 150 moves a player are over 100; 100 exactly would not be
    assert row.mean_moves == (5 + 101 + 1000 + 150) / 4 == 314
    # deviations -309, -213, 686, -164: squares 95,481 + 45,369 + 470,596 + 26,896 = 638,342, over n - 1 = 3
    assert row.sd_moves == pytest.approx(math.sqrt(638_342 / 3))
    assert row.p_half == 1.0  # sign test, 2 wins to 1: 2 * (1 + 3) / 2^3
    data = row.as_json()
    assert (data["draws"], data["over_100_moves"], data["draws_by_cap"]) == (0.25, 0.75, 1)
    assert data["white_of_decided"] == pytest.approx(2 / 3)
    assert math.isnan(summarise(block([(None, 2000)]), "all").white_decided)  # none decided


def test_the_seeds_test_is_on_each_seeds_share_of_its_decided_games():
    whole = pooled([[block(SEED_A)], [block(SEED_B)]], 4)[-1]
    assert (whole.games, whole.white, whole.black, whole.draw, whole.long) == (8, 3 / 8, 4 / 8, 1 / 8, 3 / 8)
    assert whole.white_decided == pytest.approx(3 / 7)
    # The seeds' decided shares are 2/3 and 1/4 (over all games they would be 1/2 and 1/4, mean 3/8):
    assert whole.seed_mean == pytest.approx((2 / 3 + 1 / 4) / 2)  # 11/24
    assert (whole.seed_min, whole.seed_max) == pytest.approx((1 / 4, 2 / 3))
    # Standard error: |2/3 - 1/4| / sqrt(2) / sqrt(2) = 5/24, so t = (11/24 - 12/24) / (5/24) = -0.2 with one
    # degree of freedom (Cauchy): p = 1 - (2 / pi) atan(0.2); the 95% half width is 12.7062 * 5/24.
    assert whole.p_half == pytest.approx(1 - 2 / math.pi * math.atan(0.2), abs=1e-9)
    low, high = whole.seed_interval
    assert (high - low) / 2 == pytest.approx(12.7062 * 5 / 24, rel=1e-5)
    data = whole.as_json()
    assert data["white_of_decided_seed_mean"] == pytest.approx(11 / 24) and data["draws"] == 1 / 8
