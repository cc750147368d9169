"""What a sandboxed Python bot's kept bytecode saves each game: its start and finish with and without it.

Run: python benchmarks/sandbox_bytecode.py [--quick] [--lines N]   (needs bubblewrap)

A bot module of about ``--lines`` lines (a bot class and helper functions) from a bot folder, sandboxed: its
prepare run keeps its bytecode in its compile cache; then, alternately, a game's start and finish (through its
zygote) with that bytecode there, and with it taken away (the module compiled in the game, as before the cache
kept it): the median of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from timing import Figures, add_json_option

from arena.core.bot import BotSpec
from arena.core.game import MatchInfo, Result
from arena.play.referee import bot_rng
from arena.play.sandbox import SandboxLimits
from arena.play.sandbox.bytecode import bytecode_file
from arena.play.sandbox.players import SandboxedBots, compile_cache
from arena.play.sandbox.probe import SandboxProbe
from arena.plugins.registry import PluginConfig, load_registry

HEAD = '''
from arena import Bot


class Long(Bot):
    name = "long"
    games = ("tron",)

    def act(self, obs):
        return obs.legal_moves()[0]
'''
HELPER = '''

def helper_{number}(board, x, y):
    total = 0
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if (x + dx, y + dy) in board:
            total += {number} * dx - dy
    return total
'''


def module_text(lines: int) -> str:
    """A bot module of about ``lines`` lines."""
    return HEAD + "".join(HELPER.format(number=number) for number in range(max(0, (lines - 10) // 8)))


def start_and_finish_ms(make: SandboxedBots, info: MatchInfo) -> float:
    """Milliseconds of one game's start and finish of the bot."""
    started = time.perf_counter()
    player = make(BotSpec("long"), 0)
    player.start(info)
    player.finish(Result((1, 1), "benchmark"))
    return (time.perf_counter() - started) * 1000


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    parser.add_argument("--lines", type=int, default=800, help="the bot module's length (default 800)")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    rounds = 10 if args.quick else 40
    with tempfile.TemporaryDirectory(prefix="bytecode-") as folder:
        bots = Path(folder)
        bots.chmod(0o755)
        text = module_text(args.lines)
        (bots / "long.py").write_text(text)
        (bots / "long.py").chmod(0o644)
        config = PluginConfig(bot_dirs=(str(bots),), use_cwd_bots=False, use_env_path=False,
                              confined=SandboxProbe(SandboxLimits()))
        registry = load_registry(config)
        make = SandboxedBots(config, SandboxLimits(), registry)
        info = MatchInfo("tron", 0, 2, None, {}, "empty_room", 0, 1.0, bot_rng(0, 0))
        try:
            make(BotSpec("long"), 0).prepare()  # as a worker does before the bot's first game: keeps the bytecode
            start_and_finish_ms(make, info)  # its zygote started
            kept = [path for path in compile_cache("long", "").parent.glob("long-*")
                    if bytecode_file(path, text.encode()).exists()]
            if len(kept) != 1:
                raise SystemExit(f"the prepare run kept no bytecode ({kept})")
            bytecode = bytecode_file(kept[0], text.encode())
            saved = bytecode.read_bytes()
            times: dict[str, list[float]] = {"kept bytecode": [], "compiled each game": []}
            for _ in range(rounds):
                times["kept bytecode"].append(start_and_finish_ms(make, info))
                bytecode.unlink()
                times["compiled each game"].append(start_and_finish_ms(make, info))
                bytecode.write_bytes(saved)
        finally:
            make.close()
    lines = text.count("\n")
    print(f"a sandboxed bot of {lines} lines, a game's start and finish (median of {rounds}, alternately):")
    for way, values in times.items():
        print(f"  {way:20s} {statistics.median(values):6.1f} ms")
        figures.add(f"start and finish, {lines} lines, {way}", statistics.median(values), "ms")
    figures.write()


if __name__ == "__main__":
    main()
