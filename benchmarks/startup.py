"""Wall time of short ``arena`` commands, where start-up is most of the time.

Run: python benchmarks/startup.py [--runs N] [--baseline DIR]

Each command runs as on a user's machine (a new ``python -m arena`` process, Python's bytecode cache on,
``PYTHONDONTWRITEBYTECODE`` unset, and one run first to fill the cache): ``arena --version``, which loads the
whole command line, and a 1-round tournament, ``arena tournament empty_room -b random,wallhugger -n 2 -w 1``
into a new database, whose time is mostly the start-up of the parent and of its worker. The figures are
medians of ``--runs`` runs. With ``--baseline DIR`` every command also runs with the arena in DIR (a checkout
of another commit, put first on ``PYTHONPATH``), the two codes' runs interleaved, and the ratio is printed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import Figures, add_baseline_option, add_json_option, command_environment

COMMANDS = {
    "python alone": ["-c", "pass"],
    "arena --version": ["-m", "arena", "--version"],
    "arena tournament, 2 games": ["-m", "arena", "tournament", "empty_room", "-b", "random,wallhugger", "-n", "2",
                                  "-w", "1", "-f", "json", "--db", "{db}"],
}


def wall_seconds(arguments: list[str], folder: Path, env: dict[str, str]) -> float:
    """Wall seconds of one run of ``python ARGUMENTS`` in ``folder``, ``{db}`` a new database there."""
    database = folder / f"run-{time.monotonic_ns()}.db"
    command = [sys.executable, *(argument.replace("{db}", str(database)) for argument in arguments)]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder, env=env)
    return time.perf_counter() - started


def main() -> None:
    """Print each command's median wall time in milliseconds (beside the baseline's, given one)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (medians are printed)")
    add_baseline_option(parser, "also run each command")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    codes = {"this code": command_environment()}
    if args.baseline:
        codes = {"baseline": command_environment(args.baseline), **codes}
    print(f"{'command':<28}" + "".join(f" {name:>10}" for name in codes) + (" {:>6}".format("ratio")
                                                                              if args.baseline else ""))
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for name, arguments in COMMANDS.items():
            times: dict[str, list[float]] = {code: [] for code in codes}
            for env in codes.values():
                wall_seconds(arguments, folder, env)  # fills the bytecode cache
            for _ in range(args.runs):
                for code, env in codes.items():
                    times[code].append(wall_seconds(arguments, folder, env))
            medians = {code: statistics.median(values) * 1000 for code, values in times.items()}
            for code, value in medians.items():
                figures.add(f"{name}, {code}" if args.baseline else name, value, "ms")
            ratio = f" {medians['this code'] / medians['baseline']:>6.2f}" if args.baseline else ""
            print(f"{name:<28}" + "".join(f" {value:>10.0f}" for value in medians.values()) + ratio)
    figures.write()


if __name__ == "__main__":
    main()
