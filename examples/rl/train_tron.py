"""Train a Tron agent with numpy only, save it as .npz, and run a tournament of it against shipped bots.

The agent (``tron_training.py``) is a small network that learns by deep Q-learning (``numpy_dqn.py``) on
center_block against the shipped ``random``, ``wallhugger`` and ``chaser`` bots, rewarded by the game's
result only. It is saved as an ``MLPPolicy``, so the shipped ``npz`` bot plays it.

    pip install -e '.[rl]'
    python examples/rl/train_tron.py

trains for 300,000 moves, saves ``tron_agent.npz`` and the untrained network ``tron_agent_initial.npz``, and
plays both in a gauntlet against random, wallhugger, chaser and floodfill. Then any arena command takes the
agent, e.g. ``arena play npz:file=tron_agent.npz floodfill``.
"""

import os

# The matrices are small: BLAS threads would cost far more time than they save (set before numpy loads).
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

from tron_training import MAP, Settings, train  # noqa: E402

from arena.tournament.definition import TournamentDefinition  # noqa: E402
from arena.tournament.runner import run_tournament  # noqa: E402

FIELD = ("random", "wallhugger", "chaser", "floodfill")


def gauntlet(agent: str, games: int, seed: int, workers: int = 1) -> dict[str, tuple[int, int, int]]:
    """Play ``agent`` against the shipped bots of :data:`FIELD` on center_block, ``games`` games a pairing
    (half from each seat); returns its wins, draws and losses against each."""
    definition = TournamentDefinition(maps=(MAP,), game="tron", bots=(agent, *FIELD), format="gauntlet",
                                      gauntlet=agent, games=games, seed=seed)
    run = run_tournament(definition, workers=workers)
    tally = {name: [0, 0, 0] for name in FIELD}
    for played in run.played.values():
        labels = [label for label, _ in played.players]
        mine = labels.index(agent)
        other, theirs = labels[1 - mine], played.ranks[1 - mine]
        tally[other][0 if played.ranks[mine] < theirs else 1 if played.ranks[mine] == theirs else 2] += 1
    return {name: (won, drawn, lost) for name, (won, drawn, lost) in tally.items()}


def result_table(columns: dict[str, dict[str, tuple[int, int, int]]]) -> str:
    """A markdown table: one row per opponent, for each agent its won-drawn-lost and score (a draw is half)."""
    head = "| opponent | " + " | ".join(f"{title}: won-drawn-lost | score" for title in columns) + " |"
    rule = "|---|" + "---|---|" * len(columns)
    lines = [head, rule]
    for name in FIELD:
        cells = []
        for tally in columns.values():
            won, drawn, lost = tally[name]
            cells.append(f"{won}-{drawn}-{lost} | {(won + drawn / 2) / max(won + drawn + lost, 1):.2f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> str:
    """Train, save the network before and after, play both against the shipped bots, print and return the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", type=int, default=Settings.steps, help="moves to train for")
    parser.add_argument("--seed", type=int, default=Settings.seed)
    parser.add_argument("--games", type=int, default=100, help="games per pairing in the tournament")
    parser.add_argument("--out", default="tron_agent.npz")
    args = parser.parse_args(argv)

    settings = Settings(steps=args.steps, seed=args.seed)
    print(f"training on {MAP} against {', '.join(settings.opponents)} for {settings.steps:,} moves")
    training = train(settings, log=lambda block: print(block.line(), flush=True),
                     log_every=max(settings.steps // 12, 1))
    out = Path(args.out)
    before = out.with_name(f"{out.stem}_initial{out.suffix}")
    training.trained.save(out)
    training.initial.save(before)
    print(f"trained in {training.seconds:.0f} s; saved {out} (and the untrained network as {before})")

    started = time.perf_counter()
    columns = {"trained": gauntlet(f"npz:file={out}", args.games, seed=7),
               "untrained": gauntlet(f"npz:file={before}", args.games, seed=7)}
    table = result_table(columns)
    print(f"\n{args.games} games against each bot on {MAP} ({time.perf_counter() - started:.0f} s):\n\n{table}")
    return table


if __name__ == "__main__":
    main()
