"""How long each bot thought a move, over whole games: the check behind "equal thinking time".

Run: python experiments/think_time.py DB [DB ...] [--run N]

For each database (and each stored run in it, or only run ``N``), prints per bot: games, moves, seconds of
thinking a move (its total thinking time in the game records over the turns it played), and its
wins-draws-losses. A node budget's time is set by the positions it was calibrated on; over a game, forced
moves, proven results and small regions to fill stop early, so this is what a bot actually spends.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from arena.storage.store import Store


def think_times(records: list[dict]) -> dict[str, dict[str, float]]:
    """Per bot label: games, moves, seconds of thinking a move, wins, draws and losses."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(
        ("games", "moves", "seconds", "wins", "draws", "losses"), 0.0))
    for record in records:
        ranks = record["result"]["ranks"]
        for player in record["players"]:
            seat, row = player["seat"], totals[player["bot"]]
            row["games"] += 1
            row["moves"] += len(record["turns"])
            row["seconds"] += record["think_time"][seat]
            best, mine = min(ranks), ranks[seat]
            outcome = "draws" if ranks.count(best) > 1 and mine == best else ("wins" if mine == best else "losses")
            row[outcome] += 1
    for row in totals.values():
        row["per_move"] = row["seconds"] / row["moves"] if row["moves"] else 0.0
    return dict(totals)


def main() -> None:
    """Print each bot's thinking time a move for every run asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", nargs="+")
    parser.add_argument("--run", type=int, default=None, help="only this run of each database")
    args = parser.parse_args()
    for path in args.databases:
        with Store(path) as store:
            run_ids = [args.run] if args.run is not None else [run.id for run in store.runs()]
            for run_id in run_ids:
                records = [row.record for row in store.games(run_id=run_id)]
                print(f"{path} run {run_id}: {len(records)} games")
                for bot, row in sorted(think_times(records).items()):
                    print(f"  {bot:<32} {row['per_move']:.3f} s a move over {int(row['moves'])} moves, "
                          f"W-D-L {int(row['wins'])}-{int(row['draws'])}-{int(row['losses'])}")


if __name__ == "__main__":
    main()
