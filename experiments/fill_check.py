"""Did the bots fill their space perfectly once apart? A check of Tron records against the exact longest path.

Run: python experiments/fill_check.py RECORDS_DIR [--every N] [--node-limit N]

For each record (every ``N``-th file of the directory, in name order) of a two-player Tron game without
failures, finds the first turn at which the players can no longer reach each other, computes each head's
longest path from there (:func:`arena.engines.tron.endgame.longest_path`, within a node limit), and counts the
moves each player made before crashing. Only a player that crashed is checked (the winner stops when the
game ends, not when its space does). Prints, per bot, how many such endgames were solved exactly and in how
many the bot made fewer moves than the longest path, with the total moves it left unused.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from arena.core.maps import parse_map
from arena.engines.tron.endgame import longest_path
from arena.engines.tron.search import Position
from arena.games.tron.game import TronGame


def endgames(record: dict, node_limit: int) -> list[tuple[str, int, bool, int]]:
    """``(bot, longest path, exact, moves made)`` for each player of ``record`` that crashed after the
    players were apart (none if they never were)."""
    game = TronGame(parse_map(record["map"]["text"], record["map"]["name"]), record["options"],
                    np.random.default_rng(0))
    best: list[tuple[int, bool]] = []
    made = [0, 0]
    for actions in record["turns"]:
        if not best:
            pos = Position.from_observation(game.observe(0))
            if len(pos.ops) == 1 and not pos.in_contact():
                for seat in (0, 1):
                    mine = Position.from_observation(game.observe(seat))
                    best.append(longest_path(mine.free, mine.me, mine.stride, node_limit=node_limit))
        if best:
            for seat in (0, 1):
                made[seat] += str(seat) in actions
        game.apply({int(seat): action for seat, action in actions.items()})
        if game.result is not None:
            break
    if not best:
        return []
    ranks = record["result"]["ranks"]
    return [(record["players"][seat]["bot"], best[seat][0], best[seat][1], made[seat] - 1)  # the last move crashed
            for seat in (0, 1) if ranks[seat] == max(ranks)]


def main() -> None:
    """Check the records and print the counts per bot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--every", type=int, default=1, help="check every N-th record")
    parser.add_argument("--node-limit", type=int, default=300_000)
    args = parser.parse_args()
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # exact, short, moves short, unsolved
    for path in sorted(args.records.glob("*.json"))[::args.every]:
        record = json.loads(path.read_text())
        if record["game"] != "tron" or record["failures"] or len(record["players"]) != 2:
            continue
        for bot, longest, exact, made in endgames(record, args.node_limit):
            entry = counts[bot]
            if not exact:
                entry[3] += 1
                continue
            entry[0] += 1
            if made < longest:
                entry[1] += 1
                entry[2] += longest - made
    for bot, (exact, short, moves, unsolved) in sorted(counts.items()):
        print(f"{bot}: {exact} endgames solved exactly, {short} filled short ({moves} moves left unused); "
              f"{unsolved} not solved within the node limit")


if __name__ == "__main__":
    main()
