"""Real chess engines in arena: Stockfish at several ``UCI_Elo`` settings, Ethereal and GNU Chess, played over
the ``uci`` protocol from the shipped opening book, and arena's Elo differences beside the nominal ones.

Run: python benchmarks/engine_gauntlet.py [--openings N] [--time-control 1+0.01] [--workers 2] [--db FILE]

It runs one ``arena tournament`` (printed before it starts, so it can be rerun or resumed by hand): a round
robin in which every two engines play the first N openings of ``openings/chess-starters.epd`` (random order,
seed 0) once with each colour, Stockfish told to keep 100 ms a move for the pipes (as Ethereal does by
default), under cutechess-style adjudication (resign after 3 moves at -600 cp or worse, a draw after 8 moves
each within 10 cp from move 40, a draw after 150 moves). It then prints, from the stored games:

* each engine's Bradley-Terry rating relative to the weakest Stockfish, with its 95% interval, beside the
  difference the ``UCI_Elo`` settings claim (Stockfish calibrates ``UCI_Elo`` at 60+0.6 against CCRL
  engines; at a much shorter time control the scale need not hold, which is what this shows);
* each two adjacent Stockfish levels' head-to-head Elo from their opening pairs (pentanomial), with its 95%
  margin, beside the nominal step.

Needs /usr/games/stockfish, /usr/games/ethereal-chess and /usr/games/gnuchess (Debian: ``apt-get install
stockfish ethereal-chess gnuchess``); an engine that is missing is left out. Stockfish names its strength
bounds in ``uci``'s option list; the levels used are inside Stockfish 15's 1350-2850.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import Figures, add_json_option

from arena.stats.bradley_terry import bradley_terry
from arena.stats.elo import elo_difference_pairs, pentanomial
from arena.storage.store import Store

LEVELS = (1350, 1650, 1950, 2250, 2550)
ENGINE_OPTIONS = "option.Threads=1,option.Hash=16"
ADJUDICATION = ("resign_movecount=3", "resign_score=600", "draw_movecount=8", "draw_score=10",
                "draw_movenumber=40", "max_moves=150")


def engines() -> dict[str, str]:
    """Each engine's label and its bot spec: the Stockfish levels, then Ethereal and GNU Chess if installed."""
    found: dict[str, str] = {}
    stockfish = shutil.which("stockfish", path="/usr/games:" + os.environ.get("PATH", ""))
    if stockfish is None:
        sys.exit("needs Stockfish: apt-get install stockfish")
    for level in LEVELS:
        found[f"sf{level}"] = (f"exec:command={stockfish},protocol=uci,name=sf{level},{ENGINE_OPTIONS},"
                               f"option.Move Overhead=100,option.UCI_LimitStrength=true,option.UCI_Elo={level}")
    ethereal = shutil.which("ethereal-chess", path="/usr/games")
    if ethereal:
        found["ethereal"] = f"exec:command={ethereal},protocol=uci,name=ethereal,{ENGINE_OPTIONS}"
    gnuchess = shutil.which("gnuchess", path="/usr/games")
    if gnuchess:
        found["gnuchess"] = (f"exec:command={gnuchess} --uci,protocol=uci,name=gnuchess,option.Hash=16,"
                             "option.OwnBook=false")
    return found


def main() -> None:
    """Play the tournament, then print arena's Elo differences beside the nominal ones."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=6, help="openings per pairing, each played twice")
    parser.add_argument("--time-control", default="1+0.01")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", type=Path, default=None, help="keep the games here [default: a temporary file]")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    specs = engines()
    folder = tempfile.mkdtemp(prefix="gauntlet-")
    db = args.db or Path(folder) / "gauntlet.db"
    command = [sys.executable, "-m", "arena", "tournament", "-b", ",".join(specs.values()),
               "--openings", "openings/chess-starters.epd", "--openings-order", "random",
               "--openings-count", str(args.openings), "--time-control", args.time_control,
               "-w", str(args.workers), "--db", str(db), "-f", "md"]
    for option in ADJUDICATION:
        command += ["-o", option]
    print("$", " ".join(f"'{part}'" if " " in part or "," in part else part for part in command), flush=True)
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=Path(__file__).resolve().parent.parent)
    took = time.perf_counter() - started
    report(db, list(specs), took, figures)
    figures.write()


def ending(reason: str) -> str:
    """How a game ended, in a few words: by the rules, by adjudication, or on time."""
    if "ran out of time" in reason or "did not answer within" in reason or "still thinking" in reason:
        return "lost on time"
    return reason.split(":")[0]


def report(db: Path, labels: list[str], took: float, figures: Figures) -> None:
    """Print (and add to ``figures``) the Elo differences from the stored games of the latest run in ``db``."""
    results: dict[tuple[str, str], list[int]] = {}
    pairs: dict[tuple[str, str, str], list[float]] = {}  # (a, b, opening) -> a's scores
    reasons: dict[str, int] = {}
    with Store(db, read_only=True) as store:
        run = store.latest_run().id
        rows = list(store.games(run_id=run))
    for row in rows:
        record = row.record
        white, black = (player["bot"] for player in sorted(record["players"], key=lambda p: p["seat"]))
        ranks = record["result"]["ranks"]
        score = 1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0
        a, b = sorted((white, black))
        score_a = score if a == white else 1 - score
        counts = results.setdefault((a, b), [0, 0, 0])
        counts[0 if score_a == 1 else 1 if score_a == 0.5 else 2] += 1
        pairs.setdefault((a, b, record["map"]["name"]), []).append(score_a)
        reason = ending(record["result"]["reason"])
        reasons[reason] = reasons.get(reason, 0) + 1
    anchor = f"sf{LEVELS[0]}"
    fit = bradley_terry({pair: (won, drawn, lost) for pair, (won, drawn, lost) in results.items()}, anchor=anchor)
    print(f"\n{len(rows)} games in {took / 60:.1f} min; how they ended: "
          + ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1])))
    print(f"\nRatings relative to {anchor} (Bradley-Terry over every game, 95% interval):\n")
    print("| engine | nominal (UCI_Elo difference) | arena's Elo difference | 95% interval |")
    print("|---|---:|---:|---|")
    for label in labels:
        diff, lower, upper = fit.difference(label, anchor)
        nominal = f"{int(label[2:]) - LEVELS[0]:+d}" if label.startswith("sf") else "-"
        print(f"| {label} | {nominal} | {diff:+.0f} | [{lower:+.0f}, {upper:+.0f}] |")
        figures.add(f"{label} - {anchor}", diff, "Elo")
    print("\nAdjacent Stockfish levels, head to head (pentanomial over opening pairs, 95% margin):\n")
    print("| stronger vs weaker | nominal | arena's Elo difference | pairs (LL, LD, DD+WL, WD, WW) |")
    print("|---|---:|---:|---|")
    for low, high in itertools.pairwise(LEVELS):
        a, b = sorted((f"sf{low}", f"sf{high}"))
        opening_pairs = [scores for (x, y, _), scores in pairs.items() if (x, y) == (a, b) and len(scores) == 2]
        as_high = [(s1, s2) if a == f"sf{high}" else (1 - s1, 1 - s2) for s1, s2 in opening_pairs]
        counts = pentanomial(as_high)
        elo = elo_difference_pairs(counts)
        print(f"| sf{high} vs sf{low} | {high - low:+d} | {elo.elo:+.0f} ± {elo.error:.0f} | {counts} |")
        figures.add(f"sf{high} - sf{low}, head to head", elo.elo, "Elo")


if __name__ == "__main__":
    main()
