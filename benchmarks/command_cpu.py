"""Where a whole tournament command's time goes: its wall time, and the CPU time of the parent and of each worker.

Run: python benchmarks/command_cpu.py [--games N] [--workers W] [--runs R]

It runs ``arena tournament empty_room -b random,wallhugger -n N -w W -f json`` as a user does (a new process,
Python's bytecode cache on) and reads, every 10 ms, the CPU time of the command and of every process under it
from ``/proc`` (Linux only); a worker's last reading before it exits is its CPU time. With two cores, the
command's pace is set by the busier side, and each side runs slower while the other works beside it, so the
parent's and the workers' CPU seconds say which side to make cheaper.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import Figures, add_json_option

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of process ``pid`` so far (``None`` once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found += [int(child) for child in listed.read().split()]
    except OSError:
        pass
    return found


def run_command(games: int, workers: int, folder: Path) -> tuple[float, float, list[float]]:
    """Wall seconds of one command, its own CPU seconds, and each of its processes' CPU seconds."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    database = folder / f"run-{time.monotonic_ns()}.db"
    command = [sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "random,wallhugger", "-n", str(games),
               "-w", str(workers), "-f", "json", "--db", str(database)]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder, env=env)
    seen: dict[int, float] = {}
    while process.poll() is None:
        for pid in [process.pid, *children(process.pid)]:
            reading = cpu_seconds(pid)
            if reading is not None:
                seen[pid] = reading
        time.sleep(0.01)
    wall = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"the command failed with status {process.returncode}: {' '.join(command)}")
    parent = seen.pop(process.pid, 0.0)
    return wall, parent, sorted(seen.values(), reverse=True)


def main() -> None:
    """Print the wall time and the CPU time of each side of the command, medians of the runs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000, help="games of the tournament command")
    parser.add_argument("--workers", type=int, default=1, help="its --workers")
    parser.add_argument("--runs", type=int, default=3, help="runs of the command (medians are printed)")
    add_json_option(parser)
    args = parser.parse_args()
    if not Path("/proc/self/stat").exists():
        raise SystemExit("this measurement reads /proc: Linux only")
    figures = Figures.from_arguments(args)
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "random,wallhugger", "-n",
                        "2", "-w", str(args.workers), "--db", str(Path(folder) / "warm-up.db")], check=True,
                       capture_output=True, cwd=folder)  # fills the bytecode cache
        runs = [run_command(args.games, args.workers, Path(folder)) for _ in range(args.runs)]
    wall = statistics.median(run[0] for run in runs)
    parent = statistics.median(run[1] for run in runs)
    busiest = statistics.median(run[2][0] if run[2] else 0.0 for run in runs)
    others = statistics.median(sum(run[2]) for run in runs)
    print(f"{'':<28} {'seconds':>8} {'us/game':>8}")
    for name, seconds in (("wall", wall), ("parent CPU", parent), ("busiest worker CPU", busiest),
                          ("all other processes' CPU", others)):
        figures.add(name, seconds, "s")
        print(f"{name:<28} {seconds:>8.2f} {seconds / args.games * 1e6:>8.0f}")
    figures.add("games per second", args.games / wall, "games/s")
    print(f"{'games per second':<28} {args.games / wall:>8,.0f}")
    figures.write()


if __name__ == "__main__":
    main()
