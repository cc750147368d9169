"""Do the statistics mean what they say? Bots of known strength, simulated, checked against the truth.

Run: python experiments/stats_calibration.py [--seed S] [--scale X]

The simulated bots follow a Bradley-Terry model with draws: a bot ``D`` Elo stronger than its opponent
has expected score ``E = 1 / (1 + 10^(-D/400))``; a game is drawn with probability ``d = DRAW * 4E(1 - E)``
(``DRAW`` between equal bots, fewer draws in lopsided games), and the rest of ``E`` is wins:
``P(win) = E - d/2``, ``P(loss) = 1 - E - d/2``. For seat-swapped pairs each pair also gets a seat
advantage ``b ~ Normal(0, SEAT_BIAS)`` Elo that helps whoever sits first (the same map and seed in both
games), so the two games of a pair are correlated, as on a real map.

Each section runs the library (arena.stats, arena.tournament.sprt, arena.stats.ratings) on simulated games and reports:
how often the 95% intervals cover the true value (Wilson for the score, Elo +- error from games and from
pairs, Bradley-Terry ratings), the two-proportion test's false-positive rate at alpha = 0.05 on equal bots,
the SPRT's error rates and mean number of pairs to a decision, and how well TrueSkill with tau = 0 and with
its default tau ranks an 8-bot round robin (Kendall tau against the true order). Everything derives from
``--seed``, so the figures are the same on every run; ``--scale`` multiplies the number of trials.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import trueskill

from arena.stats.bradley_terry import bradley_terry, kendall_tau
from arena.stats.elo import elo_difference, elo_difference_pairs, pentanomial, score_from_elo
from arena.stats.proportions import score_rate, two_proportion_test
from arena.stats.ratings import MU, SIGMA, draw_probability, rate
from arena.tournament.sprt import SprtSettings, SprtState

DRAW = 0.3
SEAT_BIAS = 60.0
BT_RATINGS = (-280.0, -200.0, -120.0, -40.0, 40.0, 120.0, 200.0, 280.0)


def outcome_probabilities(elo: np.ndarray | float, draw: float = DRAW) -> tuple[np.ndarray, np.ndarray]:
    """``(P(win), P(draw))`` of a bot ``elo`` stronger than its opponent."""
    expected = 1 / (1 + 10 ** (-np.asarray(elo, dtype=float) / 400))
    p_draw = draw * 4 * expected * (1 - expected)
    return expected - p_draw / 2, p_draw


def play_games(rng: np.random.Generator, elo: float, games: int, draw: float = DRAW) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of a bot ``elo`` stronger than its opponent over ``games`` games."""
    p_win, p_draw = outcome_probabilities(elo, draw)
    wins, draws, losses = rng.multinomial(games, [float(p_win), float(p_draw), 1 - float(p_win) - float(p_draw)])
    return int(wins), int(draws), int(losses)


def play_pairs(rng: np.random.Generator, elo: float, pairs: int, draw: float = DRAW,
               seat_bias: float = SEAT_BIAS) -> list[tuple[float, float]]:
    """The first bot's scores in ``pairs`` seat-swapped pairs: seat advantage ``+b`` in its first game,
    ``-b`` in its second (where the opponent sits first)."""
    bias = rng.normal(0.0, seat_bias, pairs) if seat_bias > 0 else np.zeros(pairs)
    scores = []
    for sign in (1, -1):
        p_win, p_draw = outcome_probabilities(elo + sign * bias, draw)
        u = rng.random(pairs)
        scores.append(np.where(u < p_win, 1.0, np.where(u < p_win + p_draw, 0.5, 0.0)))
    return [(float(a), float(b)) for a, b in zip(scores[0], scores[1], strict=True)]


# -- intervals ------------------------------------------------------------------------------------------------

@dataclass
class Coverage:
    """How many of ``trials`` intervals contained the truth."""

    covered: int
    trials: int

    @property
    def rate(self) -> float:
        """The fraction covered."""
        return self.covered / self.trials

    def within(self, target: float = 0.95, sds: float = 3.0) -> bool:
        """Whether the count is within ``sds`` binomial standard deviations of ``target``."""
        sd = math.sqrt(self.trials * target * (1 - target))
        return abs(self.covered - target * self.trials) <= sds * sd


def pair_interval_coverage(seed: int, trials: int, games: int = 100, spread: float = 300.0
                           ) -> dict[str, Coverage]:
    """Coverage of Wilson (score), Elo +- error from games and from pairs, each trial a new true difference
    drawn uniformly from ``[-spread, spread]`` Elo and ``games`` games (``games / 2`` seat-swapped pairs)."""
    rng = np.random.default_rng(seed)
    counts = {"wilson": 0, "elo_games": 0, "elo_pairs": 0}
    for _ in range(trials):
        truth = float(rng.uniform(-spread, spread))
        true_score = score_from_elo(truth)
        wins, draws, losses = play_games(rng, truth, games)
        rate = score_rate(wins, draws, losses)
        counts["wilson"] += int(rate.lower <= true_score <= rate.upper)
        estimate = elo_difference(wins, draws, losses)
        counts["elo_games"] += int(abs(estimate.elo - truth) <= estimate.error)
        # Pairs: the true per-game expected score averages over the seat advantages.
        pair_estimate = elo_difference_pairs(pentanomial(play_pairs(rng, truth, games // 2)))
        counts["elo_pairs"] += int(abs(pair_estimate.elo - _pair_truth(truth)) <= pair_estimate.error)
    return {name: Coverage(count, trials) for name, count in counts.items()}


def _pair_truth(elo: float, seat_bias: float = SEAT_BIAS) -> float:
    """The Elo of the expected per-game score in a pair, averaged over seat advantages (Gauss-Hermite)."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(40)
    expected = np.sum(weights * (score_from_elo_array(elo + seat_bias * nodes)
                                 + score_from_elo_array(elo - seat_bias * nodes)) / 2) / np.sum(weights)
    return 400 * math.log10(expected / (1 - expected))


def score_from_elo_array(elo: np.ndarray) -> np.ndarray:
    """``1 / (1 + 10^(-elo / 400))`` elementwise."""
    return 1 / (1 + 10 ** (-elo / 400))


def round_robin_games(rng: np.random.Generator, ratings: Sequence[float], games_per_pair: int
                      ) -> list[tuple[int, int, float]]:
    """A simulated round robin in schedule order: repetition by repetition, every pair once per
    repetition, seats alternating. Each game is ``(seat 0 bot, seat 1 bot, seat 0's score)``."""
    pairs = list(combinations(range(len(ratings)), 2))
    games = []
    for repetition in range(games_per_pair):
        for a, b in pairs:
            if repetition % 2:
                a, b = b, a
            p_win, p_draw = outcome_probabilities(ratings[a] - ratings[b])
            u = rng.random()
            games.append((a, b, 1.0 if u < p_win else 0.5 if u < p_win + p_draw else 0.0))
    return games


def bt_coverage(seed: int, tournaments: int, ratings: Sequence[float] = BT_RATINGS, games_per_pair: int = 50
                ) -> Coverage:
    """Coverage of the Bradley-Terry 95% intervals (ratings relative to the field's mean) over
    ``tournaments`` simulated round robins of bots with the given true ratings."""
    rng = np.random.default_rng(seed)
    centred = np.asarray(ratings) - np.mean(ratings)
    covered = total = 0
    for _ in range(tournaments):
        tally: dict[tuple[int, int], list[int]] = {}
        for a, b, score in round_robin_games(rng, ratings, games_per_pair):
            key, score = ((a, b), score) if a < b else ((b, a), 1 - score)
            counts = tally.setdefault(key, [0, 0, 0])
            counts[0 if score == 1 else 1 if score == 0.5 else 2] += 1
        fit = bradley_terry({key: (w, d, l_) for key, (w, d, l_) in tally.items()})
        for bot, truth in enumerate(centred):
            rating = fit.ratings[bot]
            covered += int(rating.lower <= truth <= rating.upper)
            total += 1
    return Coverage(covered, total)


# -- the two-proportion test ----------------------------------------------------------------------------------

@dataclass
class FalsePositives:
    """Rejections at alpha = 0.05 when the truth is "no difference"."""

    games: int
    trials: int
    rejected: int
    rejected_unpooled: int
    fisher: int

    @property
    def rate(self) -> float:
        """The false-positive rate of the test as chosen (z or Fisher)."""
        return self.rejected / self.trials


def proportion_false_positives(seed: int, trials: int, games: int, win_rate: float = 0.4) -> FalsePositives:
    """Two equally strong bots each play ``games`` games against the same opponent, winning each with
    probability ``win_rate``; compare their win rates with :func:`two_proportion_test`."""
    rng = np.random.default_rng(seed)
    rejected = unpooled = fisher = 0
    for _ in range(trials):
        first, second = (int(x) for x in rng.binomial(games, win_rate, 2))
        test = two_proportion_test(first, games, second, games)
        rejected += test.p_value < 0.05
        unpooled += abs(test.z) > 1.959963984540054
        fisher += test.test == "fisher"
    return FalsePositives(games, trials, rejected, unpooled, fisher)


# -- SPRT -----------------------------------------------------------------------------------------------------

@dataclass
class SprtRuns:
    """Outcomes of repeated SPRT runs at one true Elo difference."""

    truth: float
    runs: int
    accepted_h1: int
    undecided: int
    mean_pairs: float


def sprt_runs(seed: int, runs: int, truth: float, settings: SprtSettings, max_pairs: int = 20000) -> SprtRuns:
    """Run the SPRT of :mod:`arena.tournament.sprt` ``runs`` times on simulated seat-swapped pairs at ``truth`` Elo."""
    rng = np.random.default_rng(seed)
    accepted = undecided = total_pairs = 0
    for _ in range(runs):
        state = SprtState(settings)
        while state.decision is None and state.pairs < max_pairs:
            for first, second in play_pairs(rng, truth, 64):
                state.add_pair(first, second)
                if state.decision is not None or state.pairs >= max_pairs:
                    break
        accepted += state.decision == "H1"
        undecided += state.decision is None
        total_pairs += state.pairs
    return SprtRuns(truth, runs, accepted, undecided, total_pairs / runs)


# -- TrueSkill tau ---------------------------------------------------------------------------------------------

def trueskill_ratings(games: Sequence[tuple[Sequence[int], Sequence[int]]], tau: float) -> dict[int, float]:
    """Conservative TrueSkill ratings (mu - 3 sigma) set up exactly as :func:`arena.stats.ratings.rate`, but with
    a chosen ``tau``."""
    env = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=tau,
                              draw_probability=draw_probability([ranks for _, ranks in games]))
    current: dict[int, trueskill.Rating] = {}
    for players, ranks in games:
        groups = [(current.setdefault(player, env.create_rating()),) for player in players]
        for player, (rating,) in zip(players, env.rate(groups, ranks=list(ranks)), strict=True):
            current[player] = rating
    return {player: r.mu - 3 * r.sigma for player, r in current.items()}


def trueskill_ranking(seed: int, tournaments: int, bots: int = 8, games_per_pair: int = 50, spread: float = 200.0
                      ) -> dict[str, float]:
    """Mean Kendall tau between the true order and TrueSkill's, with ``tau = 0`` (as :func:`arena.stats.ratings.rate`)
    and the library default ``tau = sigma / 100``; true ratings are drawn from Normal(0, ``spread``) Elo."""
    rng = np.random.default_rng(seed)
    totals = {"tau=0": 0.0, "default tau": 0.0}
    for trial in range(tournaments):
        ratings = rng.normal(0.0, spread, bots)
        games = [((a, b), (1, 2) if s == 1 else (1, 1) if s == 0.5 else (2, 1))
                 for a, b, s in round_robin_games(rng, ratings, games_per_pair)]
        fixed = trueskill_ratings(games, 0.0)
        if trial == 0:  # the benchmark's TrueSkill is the library's
            library = rate(games)[0]
            assert all(abs(fixed[b] - library[b].conservative) < 1e-9 for b in range(bots))
        drifting = trueskill_ratings(games, SIGMA / 100)
        truth = list(ratings)
        totals["tau=0"] += kendall_tau(truth, [fixed[b] for b in range(bots)])
        totals["default tau"] += kendall_tau(truth, [drifting[b] for b in range(bots)])
    return {name: total / tournaments for name, total in totals.items()}


# -- report ---------------------------------------------------------------------------------------------------

def main() -> None:
    """Run every check and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of everything (default 1)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of trials (default 1)")
    args = parser.parse_args()

    def n(count: int) -> int:
        return max(1, round(count * args.scale))

    started = time.perf_counter()
    print(f"Simulated bots: draw rate {DRAW:g} between equals, seat advantage sd {SEAT_BIAS:g} Elo in pairs; "
          f"seed {args.seed}\n")

    print("95% intervals: how often they contain the true value")
    for games in (30, 100, 400):
        coverage = pair_interval_coverage(args.seed, n(4000), games)
        print(f"  {games:>3} games, true difference uniform in [-300, 300] Elo ({n(4000)} trials): "
              f"Wilson {coverage['wilson'].rate:.1%}, Elo ± error {coverage['elo_games'].rate:.1%}, "
              f"Elo ± error from {games // 2} pairs {coverage['elo_pairs'].rate:.1%}")
    bt = bt_coverage(args.seed, n(200))
    print(f"  Bradley-Terry, 8 bots {BT_RATINGS[0]:+g} to {BT_RATINGS[-1]:+g} Elo, 50 games a pair "
          f"({bt.trials} intervals): {bt.rate:.1%}")

    print("\nTwo-proportion test on equal bots (win rate 0.4), false positives at alpha = 0.05")
    for games in (10, 30, 100, 1000):
        fp = proportion_false_positives(args.seed, n(4000), games)
        print(f"  {games:>4} games each ({fp.trials} trials): {fp.rate:.1%} as chosen "
              f"(Fisher in {fp.fisher / fp.trials:.0%} of trials), |unpooled z| > 1.96: "
              f"{fp.rejected_unpooled / fp.trials:.1%}")

    settings = SprtSettings(0.0, 20.0)
    print(f"\nSPRT H0 {settings.elo0:g} vs H1 {settings.elo1:g} Elo, alpha = beta = 0.05, seat-swapped pairs")
    for index, truth in enumerate((-10.0, 0.0, 10.0, 20.0, 30.0)):
        runs = sprt_runs(args.seed + index, n(400), truth, settings)
        print(f"  true {truth:+5g} Elo ({runs.runs} runs): H1 accepted {runs.accepted_h1 / runs.runs:.1%}, "
              f"mean {runs.mean_pairs:,.0f} pairs ({2 * runs.mean_pairs:,.0f} games)"
              + (f", {runs.undecided} undecided" if runs.undecided else ""))

    ranking = trueskill_ranking(args.seed, n(100))
    print("\nTrueSkill ranking an 8-bot round robin, 50 games a pair, true ratings Normal(0, 200) Elo "
          f"({n(100)} tournaments), mean Kendall tau vs the true order:")
    print(f"  tau = 0: {ranking['tau=0']:.3f}   default tau (sigma / 100): {ranking['default tau']:.3f}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
