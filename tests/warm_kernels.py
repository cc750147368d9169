"""Fill numba's cache of arena's compiled kernels while the first tests run: ``python -m tests.warm_kernels``.

A fresh checkout has no cache, and the test workers that first reach a kernel would each compile it (tens of
seconds of CPU, twice when both reach it at once). The session starts this at the lowest priority
(:func:`start`), so it takes the CPU the workers leave idle while they wait on processes and sockets; a kernel
it has not cached yet when a test needs it is compiled by the test as before. It plays the smallest run of
each compiled path with the argument types the tests use, since numba keeps one compiled copy per signature.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start() -> subprocess.Popen[bytes]:
    """Start the warm-up in the background, at the lowest priority, its output discarded."""
    return subprocess.Popen([sys.executable, "-m", "tests.warm_kernels"], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=lambda: os.nice(19),
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a warm-up still running when the session ends (what it cached stays cached)."""
    if process.poll() is None:
        process.kill()
    process.wait()


def main() -> None:
    """Compile every kernel the tests reach: the Tron searches and fills, the Snafu learner's games and the
    pawn race network's self-play."""
    from arena.cli.main import app
    from arena.engines.tron import compiled, compiled_fill
    from tests.cli_runner import CliRunner

    compiled.warm_up()
    compiled_fill.warm_up()
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        runner.invoke(app, ["experiment", "snafu-scaling", "--strategy", "PR:t=3", "--reps", "1", "--train-games",
                            "2", "--test-games", "2", "--results", "r.jsonl"])
        runner.invoke(app, ["train", "snafu-cla", "--strategy", "PR:t=3", "--size", "9x9", "--games", "2",
                            "--out", "t.json"])
        runner.invoke(app, ["playability", "pawnrace", "-o", "n=6", "-o", "pawns=3", "--games", "2", "--block",
                            "2", "--learner", "network"])


if __name__ == "__main__":
    main()
