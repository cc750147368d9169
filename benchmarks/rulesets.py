"""Random-vs-random games per second for each Tron rule set, through the full referee in one process.

Run: python benchmarks/rulesets.py [--games N] [--repeat R]

Each line plays N games with the shipped ``random`` bot in every seat, by the same code a tournament
uses (schedule, referee with per-move timing and validation, outcome collection), on one core. The
ratio column compares each rule set with the AI Challenge line measured in the same command, since
absolute speeds vary from machine to machine. With ``--repeat``, each figure is the best of R runs.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from timing import Figures, add_json_option, best_seconds

from arena.core.bot import BotSpec
from arena.core.maps import resolve_map
from arena.play.executors import run_in_process
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig, load_registry

CONFIG = PluginConfig(use_cwd_bots=False, use_env_path=False)


@dataclass(frozen=True)
class RuleSet:
    """One benchmark line: a game on a map with options."""

    label: str
    game: str
    map_name: str
    options: dict[str, str] = field(default_factory=dict)


RULE_SETS = (
    RuleSet("aichallenge (simultaneous)", "tron", "empty_room"),
    RuleSet("alternating", "tron", "empty_room", {"moves": "alternating"}),
    RuleSet("brown (powerups on)", "tron", "powerup_room"),
    RuleSet("snafu 15x15", "snafu", "snafu_15x15"),
    RuleSet("free-for-all, 4 players", "tron", "four_corners"),
)


def schedule(rule_set: RuleSet, games: int) -> list[MatchSetup]:
    """``games`` random-vs-random games of ``rule_set``, each with its own seed."""
    game_map = resolve_map(rule_set.map_name)
    registry = load_registry(CONFIG)
    seats = registry.game(rule_set.game).num_players(game_map)
    bots = tuple(BotSpec("random") for _ in range(seats))
    options = {**game_map.header, **rule_set.options}
    return [MatchSetup(rule_set.game, bots, game_map, options, seed, 1.0, seed) for seed in range(games)]


def games_per_second(setups: list[MatchSetup]) -> tuple[float, float]:
    """Games per second and mean turns per game, played in this process."""
    registry = load_registry(CONFIG)
    outcomes = []
    elapsed = best_seconds(lambda: outcomes.extend(run_in_process(setups, registry)))
    assert all(not outcome.failure_kinds for outcome in outcomes)
    return len(outcomes) / elapsed, sum(outcome.turns for outcome in outcomes) / len(outcomes)


def main() -> None:
    """Print one line per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per rule set")
    parser.add_argument("--repeat", type=int, default=3, help="runs per rule set; the best counts")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    print(f"{'rule set':<28} {'map':<14} {'games/s':>9} {'turns/game':>10} {'ratio':>6}")
    base = None
    for rule_set in RULE_SETS:
        setups = schedule(rule_set, args.games)
        runs = [games_per_second(setups) for _ in range(args.repeat)]
        rate, turns = max(runs)
        base = base or rate
        figures.add(f"{rule_set.label} ({rule_set.map_name})", rate, "games/s")
        print(f"{rule_set.label:<28} {rule_set.map_name:<14} {rate:>9,.0f} {turns:>10.1f} {rate / base:>6.2f}")
    figures.write()


if __name__ == "__main__":
    main()
