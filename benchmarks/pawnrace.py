"""Pawn race speed: the engine playing random games (bare, and through the referee), and self-play training
games per second for each learner on the paper's configurations.

Run: python benchmarks/pawnrace.py [--quick]

Ratios compare figures measured in this same run, since absolute speeds vary from machine to machine:

* bare engine: ``rules.play`` with uniformly random moves, no learning;
* referee: the same games between two ``pr_random`` bots through ``arena``'s referee (one process);
* table: tabular TD(lambda) self-play (5 x 5 with one pawn, 6 x 6 with three), against the bare engine's
  games on the same board;
* network: the compiled network learner against the plain Python and numpy reference
  (:mod:`arena.learning.pawnrace.network_reference`), on 6 x 6 with three pawns and 8 x 8 with five.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from timing import Figures, add_json_option, per_second

from arena.core.maps import resolve_map
from arena.games.pawnrace.rules import Setup, legal_moves, play, start
from arena.learning.pawnrace.network_kernel import seed_state
from arena.learning.pawnrace.network_reference import reference_game
from arena.learning.pawnrace.td_network import TdNetworkTrainer, network_settings
from arena.learning.pawnrace.td_table import TdSettings, TdTableTrainer
from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, load_registry


def rate(games: int, run: Callable[[], object]) -> float:
    """Games per second of ``run``, which plays ``games`` games."""
    return per_second(games, run)


def random_games(setup: Setup, games: int) -> None:
    """Play ``games`` games of uniformly random moves."""
    rng = random.Random(0)
    for _ in range(games):
        position = start(setup)
        while not position.over:
            position = play(setup, position, rng.choice(legal_moves(setup, position)))


def referee_games(board: str, games: int) -> None:
    """Play ``games`` games of ``pr_random`` against itself through the referee."""
    registry = load_registry(PluginConfig())
    game_map = resolve_map(f"pawnrace_{board}")
    for seed in range(games):
        run_match("pawnrace", ["pr_random", "pr_random"], game_map=game_map, seed=seed, registry=registry)


def trainer_rate(trainer_class: type, settings: TdSettings) -> float:
    """Self-play games per second of a trainer (the first game, which may compile, is not counted)."""
    trainer = trainer_class(settings)
    trainer.play_game()
    return rate(settings.games, lambda: [trainer.play_game() for _ in range(settings.games)])


def reference_rate(settings: TdSettings) -> float:
    """Self-play games per second of the plain Python network learner."""
    networks = TdNetworkTrainer(settings).networks
    state = seed_state(settings.seed)
    return rate(settings.games, lambda: [reference_game(settings, networks, state) for _ in range(settings.games)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke test)")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    scale = 0.1 if args.quick else 1.0

    def count(games: int) -> int:
        return max(int(games * scale), 2)

    print("| workload | games/s | ratio |")
    print("|---|---|---|")
    for board, n, pawns in (("5x5", 5, 1), ("8x8", 8, 5)):
        bare = rate(count(2000 if n == 5 else 100), lambda n=n, pawns=pawns: random_games(
            Setup(n=n, a=2, pawns=pawns), count(2000 if n == 5 else 100)))
        refereed = rate(count(500 if n == 5 else 50), lambda board=board, n=n: referee_games(
            board, count(500 if n == 5 else 50)))
        figures.add(f"random play {board}, bare engine", bare, "games/s")
        figures.add(f"random play {board}, through the referee", refereed, "games/s")
        print(f"| random play {board}, bare engine | {bare:,.0f} | 1.00 |")
        print(f"| random play {board}, through the referee | {refereed:,.0f} | {refereed / bare:.2f} of bare |")
    for n, pawns, games in ((5, 1, 2000), (6, 3, 500)):
        bare = rate(count(games), lambda n=n, pawns=pawns, games=games: random_games(Setup(n=n, a=2, pawns=pawns),
                                                                                     count(games)))
        table = trainer_rate(TdTableTrainer, TdSettings(n=n, a=2, pawns=pawns, games=count(games)))
        figures.add(f"table learner {n}x{n}, {pawns} pawn(s)", table, "games/s")
        print(f"| table learner {n}x{n}, {pawns} pawn(s) | {table:,.0f} | {table / bare:.2f} of random play |")
    for n, pawns, games, reference_games in ((6, 3, 1000, 20), (8, 5, 500, 10)):
        settings = network_settings(TdSettings(n=n, a=2, pawns=pawns, games=count(games)))
        compiled = trainer_rate(TdNetworkTrainer, settings)
        reference = reference_rate(network_settings(TdSettings(n=n, a=2, pawns=pawns, games=count(reference_games))))
        figures.add(f"network learner {n}x{n}, {pawns} pawns, plain Python", reference, "games/s")
        figures.add(f"network learner {n}x{n}, {pawns} pawns, compiled", compiled, "games/s")
        print(f"| network learner {n}x{n}, {pawns} pawns, plain Python | {reference:,.1f} | 1.00 |")
        print(f"| network learner {n}x{n}, {pawns} pawns, compiled | {compiled:,.0f} | {compiled / reference:.1f}x |")
    figures.write()


if __name__ == "__main__":
    main()
