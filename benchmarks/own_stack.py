"""What calling a user's bot on a stack of its own costs: the shipped wallhugger, called directly, against the
same module copied into a user's bot folder, which the referee calls on its own stack (a greenlet).

Run: python benchmarks/own_stack.py [--games N] [--repeat R]

Both play the same games against ``random`` in this process, with the same seeds, so they make the same moves;
the difference, divided by the user bot's moves, is the cost of a call on its own stack.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import Figures, add_json_option, best_seconds

from arena.core.bot import BotSpec
from arena.core.maps import resolve_map
from arena.core.paths import shipped_bots_dir
from arena.play.executors import run_in_process
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig, load_registry


def setups(bot: str, games: int) -> list[MatchSetup]:
    """``games`` games of ``random`` against ``bot`` on the empty room, seeded 0 to ``games - 1``."""
    game_map = resolve_map("empty_room")
    return [MatchSetup("tron", (BotSpec("random"), BotSpec(bot)), game_map, dict(game_map.header), seed, 1.0, seed)
            for seed in range(games)]


def main() -> None:
    """Time both, print games per second and the cost of a call."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    with tempfile.TemporaryDirectory() as folder:
        source = (shipped_bots_dir() / "wallhugger.py").read_text()
        Path(folder, "user_hugger.py").write_text(source.replace('name="wallhugger"', 'name="user_hugger"'))
        registry = load_registry(PluginConfig(bot_dirs=(folder,), use_cwd_bots=False, use_env_path=False))
        direct, own = setups("wallhugger", args.games), setups("user_hugger", args.games)
        played = {name: list(run_in_process(games, registry)) for name, games in (("direct", direct), ("own", own))}
        if [o.actions for o in played["direct"]] != [o.actions for o in played["own"]]:
            raise SystemExit("the two bots played different games: the comparison would mean nothing")
        moves = sum(len(outcome.actions) for outcome in played["direct"])  # the measured bot moves once a turn
        seconds = {name: best_seconds(lambda games=games: list(run_in_process(games, registry)), args.repeat)
                   for name, games in (("direct", direct), ("own", own))}
    for name, label in (("direct", "shipped wallhugger, called directly"),
                        ("own", "the same bot from a user folder, on its own stack")):
        print(f"{label:55} {figures.add(label, args.games / seconds[name], 'games/s'):10,.0f} games/s")
    cost = (seconds["own"] - seconds["direct"]) / moves * 1e6
    label = "own stack, per move (its per-game calls included)"
    print(f"{label:55} {figures.add('own stack per move', cost, 'us'):10.2f} us")
    print(f"{'ratio':55} {figures.add('ratio', seconds['own'] / seconds['direct'], 'x'):10.2f} x")
    figures.write()


if __name__ == "__main__":
    main()
