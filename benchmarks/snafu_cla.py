"""Snafu CLA speed: games and rounds per second of the learning automaton against plain ``mindless`` games.

Run: python benchmarks/snafu_cla.py [--quick]

Figures measured in this one run, as ratios, since absolute speeds vary from machine to machine:

* referee: ``mindless`` against ``mindless`` through ``arena``'s referee (one process), 15x15;
* compiled, empty table: the compiled games with a table that never grows (the CLA plays as ``mindless``);
* learner: one repetition of the scaling experiment for a strategy (1,000 games learning on 15x15, then 500
  trained and 500 untrained on 30x30), where matching against the growing table is the hot loop.
"""

from __future__ import annotations

import argparse

from timing import Figures, add_json_option, best_seconds

from arena.engines.tron.snafu.strategy import PAPER_STRATEGIES, Strategy
from arena.learning.tron.snafu.automaton import Automaton
from arena.learning.tron.snafu.experiment import ScalingSettings
from arena.play.referee import run_match


def referee_games(games: int) -> tuple[float, float]:
    """Games and rounds per second of ``mindless`` against itself through the referee."""
    turns: list[int] = []
    elapsed = best_seconds(lambda: turns.extend(
        run_match("snafu", ["mindless", "mindless"], options={"size": "15x15"}, seed=seed).turns
        for seed in range(games)))
    rounds = sum(turns)
    return games / elapsed, rounds / elapsed


def compiled_games(games: int) -> tuple[float, float]:
    """Games and rounds per second of the compiled games with the table kept empty (no learning)."""
    automaton = Automaton(PAPER_STRATEGIES[4])
    automaton.play(15, 15, 10, seed=0, learn=False)  # compile (or load the cache) first
    sessions = []
    elapsed = best_seconds(lambda: sessions.append(automaton.play(15, 15, games, seed=1, learn=False)))
    session = sessions[0]
    return games / elapsed, sum(session.rounds) / elapsed


def repetition(strategy: Strategy, settings: ScalingSettings) -> tuple[float, int, int]:
    """Seconds, games and rounds of one experiment repetition of ``strategy`` (as ``run_repetition`` plays it)."""
    sessions = []

    def run() -> None:
        learner = Automaton(strategy)
        sessions.append(learner.play(*settings.train_size, settings.train_games, 1))
        sessions.append(Automaton(strategy, learner.table.copy()).play(*settings.test_size, settings.test_games, 2))
        sessions.append(Automaton(strategy).play(*settings.test_size, settings.test_games, 3))

    elapsed = best_seconds(run)
    return elapsed, sum(len(s.rounds) for s in sessions), sum(sum(s.rounds) for s in sessions)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    referee_count, compiled_count = (50, 2000) if args.quick else (300, 20000)
    settings = ScalingSettings(train_games=100, test_games=50) if args.quick else ScalingSettings()
    ref_games, ref_rounds = referee_games(referee_count)
    figures.add("referee, mindless vs mindless, 15x15", ref_rounds, "rounds/s")
    print(f"referee, mindless vs mindless, 15x15: {ref_games:8.1f} games/s {ref_rounds:10.0f} rounds/s")
    fast_games, fast_rounds = compiled_games(compiled_count)
    figures.add("compiled, empty table, 15x15", fast_rounds, "rounds/s")
    print(f"compiled, empty table, 15x15:        {fast_games:8.1f} games/s {fast_rounds:10.0f} rounds/s "
          f"({fast_games / ref_games:.0f}x the referee)")
    total = 0.0
    for strategy in PAPER_STRATEGIES:
        elapsed, games, rounds = repetition(strategy, settings)
        total += elapsed
        figures.add(f"learner {strategy.label}, one repetition", rounds / elapsed, "rounds/s")
        print(f"learner {strategy.label:<9} one repetition: {games / elapsed:8.1f} games/s {rounds / elapsed:10.0f} "
              f"rounds/s ({elapsed:.2f} s; {rounds / elapsed / ref_rounds:.2f}x the referee's rounds/s)")
    print(f"one repetition of all six strategies: {total:.1f} s; 100 repetitions on 2 free cores: about "
          f"{100 * total / 2 / 60:.0f} min")
    figures.write()


if __name__ == "__main__":
    main()
