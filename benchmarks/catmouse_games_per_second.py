"""Cat-and-mouse games per second: the plain engine (one game at a time) against the numpy engine (many at once),
and the version-1 trainer with and without skipping the candidates the current game never reaches.

Run: python benchmarks/catmouse_games_per_second.py [--quick]

Every ratio compares two figures measured in this same run, since absolute speeds vary from machine to machine:

* window games: the version-2 workload, a window-policy cat against the random or the wary mouse on the 5x5
  board (mouse first, 20 mouse moves); the numpy engine plays 10 policies x 1,000 games at once, as the
  trainer does;
* full-policy games: the version-1 workload, two deterministic policies on the 8x7 board (repetition rule);
* the referee: the same games through ``arena``'s referee with ``cm_random`` bots, for scale;
* the version-1 trainer: iterations per second, judging candidates by playing them all, or skipping those
  whose changed entries the current game never visits (the results are identical; the tests check it).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from timing import Figures, add_json_option, best_seconds, per_second

from arena.core.bot import BotSpec
from arena.games.catmouse.layouts import layout_rows, open_map
from arena.games.catmouse.rules import CAT, MOUSE, open_layout
from arena.learning.catmouse.batch import play_full_batch, play_window_batch
from arena.learning.catmouse.full_policy_trainer import FullSettings, FullTrainer
from arena.learning.catmouse.plain import play_full, play_window
from arena.learning.catmouse.training_rules import Rules
from arena.play.referee import MatchSetup, play
from arena.plugins.registry import PluginConfig, load_registry


def rate(games: int, run: Callable[[], object], repeat: int = 3) -> float:
    """Best games/s over ``repeat`` runs of ``run`` (each plays ``games`` games)."""
    return per_second(games, run, repeat)


def window_rates(opponent: str, plain_games: int) -> tuple[float, float]:
    """(plain, numpy) games/s of window-cat games against ``opponent``."""
    rules = Rules(open_layout(5, 5), MOUSE, 20, False)
    rng = np.random.default_rng(0)
    policies = rng.integers(0, 4, (10, 729))
    u = rng.random((1000, rules.max_plies))
    lists = [row.tolist() for row in policies]

    def plain() -> None:
        for game in range(plain_games):
            play_window(rules, ("window", lists[game % 10]), opponent, u[game % 1000])

    def batch() -> None:
        play_window_batch(rules, ("window", policies), opponent, u, groups=10)

    return rate(plain_games, plain), rate(10_000, batch)


def full_rates(batch_size: int, plain_games: int) -> tuple[float, float, float]:
    """(plain, numpy) games/s of random full-policy games, the numpy engine playing ``batch_size`` at once,
    and the mean number of moves a game."""
    layout = open_layout(8, 7)
    rules = Rules(layout, CAT, None, True)
    rng = np.random.default_rng(1)
    tables = []
    for role in (CAT, MOUSE):
        table = np.zeros((batch_size, layout.cells ** 2), dtype=np.int64)
        for entry in range(layout.cells ** 2):
            options = [target for _, target in layout.moves_from[divmod(entry, layout.cells)[role]]]
            table[:, entry] = np.array(options)[rng.integers(len(options), size=batch_size)]
        tables.append(table)
    lists = [[row.tolist() for row in table] for table in tables]

    def plain() -> None:
        for game in range(plain_games):
            play_full(rules, lists[0][game % batch_size], lists[1][game % batch_size])

    def batch() -> None:
        play_full_batch(rules, tables[0], tables[1])

    moves = float(play_full_batch(rules, tables[0], tables[1])[1].mean())
    return rate(plain_games, plain), rate(batch_size, batch), moves


def referee_rate(games: int) -> float:
    """Games/s of cm_random against cm_random through the referee, on the 5x5 board."""
    registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    game_map = open_map(5, 5, {"first": "mouse"})
    bots = (BotSpec("cm_random"), BotSpec("cm_random"))
    setups = [MatchSetup("catmouse", bots, game_map, dict(game_map.header), seed, 1.0, seed) for seed in range(games)]

    def run() -> None:
        for setup in setups:
            play(setup, registry)

    return rate(games, run, repeat=1)


class _PlaysEveryCandidate(FullTrainer):
    def _replay_current(self) -> None:
        super()._replay_current()
        self.visited = [np.ones(self.entries, dtype=bool), np.ones(self.entries, dtype=bool)]


def trainer_rates(iterations: int) -> tuple[float, float, float, float]:
    """(iterations/s, candidate games/s) of the version-1 trainer playing every candidate, then skipping."""
    settings = FullSettings(tuple(layout_rows(open_layout(8, 7))), iterations=iterations, seed=0)
    figures = []
    for cls in (_PlaysEveryCandidate, FullTrainer):
        trainer = cls(settings)
        elapsed = best_seconds(trainer.run)
        figures += [iterations / elapsed, trainer.judged / elapsed]
    return figures[0], figures[1], figures[2], figures[3]


def main() -> None:
    """Print one line per workload and engine."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke test")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    scale = 10 if args.quick else 1

    lines = [("workload", "engine", "games/s", "vs plain")]
    for opponent in ("random", "wary"):
        plain, batch = window_rates(opponent, 5000 // scale)
        lines.append((f"window cat vs {opponent} mouse, 5x5", "plain, one game at a time", f"{plain:,.0f}", "1.00"))
        lines.append((f"window cat vs {opponent} mouse, 5x5", "numpy, 10 x 1,000 games", f"{batch:,.0f}",
                      f"{batch / plain:.1f}"))
    for size in (10, 1000):
        plain, batch, moves = full_rates(size, 2000 // scale)
        workload = f"random full policies, 8x7 ({moves:.1f} moves)"
        lines.append((workload, "plain, one game at a time", f"{plain:,.0f}", "1.00"))
        lines.append((workload, f"numpy, {size:,} games at once", f"{batch:,.0f}", f"{batch / plain:.2f}"))
    lines.append(("cm_random vs cm_random, 5x5", "arena referee", f"{referee_rate(2000 // scale):,.0f}", ""))
    every_its, every_games, skip_its, skip_games = trainer_rates(20_000 // scale)
    lines.append(("version-1 trainer, 8x7", "plays every candidate", f"{every_games:,.0f}", "1.00"))
    lines.append(("version-1 trainer, 8x7", "skips unreached candidates", f"{skip_games:,.0f}",
                  f"{skip_games / every_games:.1f}"))
    for workload, engine, games_per_second, _ in lines[1:]:
        figures.add(f"{workload}, {engine}", float(games_per_second.replace(",", "")), "games/s")
    figures.add("version-1 trainer, 8x7, plays every candidate", every_its, "iterations/s")
    figures.add("version-1 trainer, 8x7, skips unreached candidates", skip_its, "iterations/s")
    figures.write()
    widths = [max(len(line[i]) for line in lines) for i in range(4)]
    for index, line in enumerate(lines):
        print("  ".join(cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]) for i, cell in enumerate(line)))
        if index == 0:
            print("  ".join("-" * width for width in widths))
    print(f"\nversion-1 trainer: {every_its:,.0f} iterations/s playing every candidate, {skip_its:,.0f} skipping "
          "(games/s above counts candidates judged)")


if __name__ == "__main__":
    main()
