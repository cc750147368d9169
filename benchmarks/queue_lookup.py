"""The league queue's look-up of a match's first place, with its index and without it, in one league.

Run: python benchmarks/queue_lookup.py [--queued 100000] [--lookups 200]

Fills a new league's queue with ``--queued`` ranked games (two a match, as a two-player league queues them),
then times the look-up every queued game makes (``arena.league.game_queue.FIRST_OF_MATCH``) for matches near
the end of the queue: once with the ``league_queue_match`` index, once after dropping it (a league made
before the index), in the same process.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import Figures, add_json_option, best_seconds

from arena.league.facade import League
from arena.league.game_queue import FIRST_OF_MATCH


def main() -> None:
    """Time the look-up both ways and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queued", type=int, default=100_000)
    parser.add_argument("--lookups", type=int, default=200)
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    with tempfile.TemporaryDirectory() as folder:
        league, _ = League.create(Path(folder) / "league", "tron", ["center_block"], seed=1)
        with league:
            conn = league.conn
            with league.store.transaction():
                conn.executemany("INSERT INTO league_queue (idx, kind, run_id, match, versions, map, seed, created_at) "
                                 "VALUES (?, 'ranked', 1, ?, '[]', 'center_block', 0, '')",
                                 [(idx, idx // 2) for idx in range(args.queued)])
            last = args.queued // 2
            matches = range(max(0, last - args.lookups), last)

            def look_up() -> None:
                for match in matches:
                    conn.execute(FIRST_OF_MATCH, ("ranked", 1, match)).fetchone()

            indexed = best_seconds(look_up) / len(matches)
            conn.execute("DROP INDEX league_queue_match")
            scanned = best_seconds(look_up) / len(matches)
    figures.add("with the index", indexed * 1e6, "us")
    figures.add("without it", scanned * 1e6, "us")
    figures.write()
    print(f"{args.queued:,} ranked games queued, {len(matches)} look-ups near the end of the queue")
    print(f"with the index: {indexed * 1e6:,.1f} us a look-up")
    print(f"without it:     {scanned * 1e6:,.1f} us a look-up ({scanned / indexed:,.0f}x)")


if __name__ == "__main__":
    main()
