"""What the speed measurements in this folder share: timing a piece of work, and their figures as JSON.

Each script adds ``--json FILE`` to its arguments with :func:`add_json_option`, collects the figures it
prints in a :class:`Figures`, and writes them at the end, so the performance tables of the README can be
regenerated rather than pasted::

    figures = Figures.from_arguments(args)
    rate = figures.add("random play 5x5, bare engine", per_second(games, run), "games/s")
    figures.write()
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def best_seconds(run: Callable[[], object], repeat: int = 1) -> float:
    """The shortest wall-clock time, in seconds, of ``repeat`` calls of ``run``."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def per_second(count: float, run: Callable[[], object], repeat: int = 1) -> float:
    """``count`` things (games, moves, nodes) that one call of ``run`` does, per second of its best of ``repeat``
    calls."""
    return count / best_seconds(run, repeat)


def add_json_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--json FILE``: write the figures there as well as printing them."""
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures to FILE as JSON")


def add_baseline_option(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--baseline DIR``: ``what`` with this code and with the arena of DIR (a checkout of another commit),
    the runs of the two interleaved."""
    parser.add_argument("--baseline", metavar="DIR",
                        help=f"{what} with this code and with the arena in DIR (a checkout of another commit), "
                             "interleaved")


def command_environment(code: str | None = None) -> dict[str, str]:
    """The environment of a command run as on a user's machine: this process's, with Python's bytecode cache on
    (``PYTHONDONTWRITEBYTECODE`` unset: otherwise every process compiles its modules again) and, given
    ``code`` (a checkout of other arena code), that checkout's arena first on ``PYTHONPATH``."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(code).resolve()), env.get("PYTHONPATH")]))
    return env

@dataclass
class Figures:
    """The figures one run of a speed script measured, by name, with their units."""

    path: Path | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    figures: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_arguments(cls, args: argparse.Namespace) -> Figures:
        """Figures written to ``args.json`` (if given), recording the script's other arguments."""
        arguments = {key: value for key, value in vars(args).items() if key != "json"}
        return cls(args.json, {key: value if isinstance(value, int | float | str | bool | None) else str(value)
                               for key, value in arguments.items()})

    def add(self, name: str, value: float, unit: str) -> float:
        """Record one figure; returns ``value``, so a script can print it too."""
        self.figures.append({"name": name, "value": value, "unit": unit})
        return value

    def write(self) -> None:
        """Write the figures to the ``--json`` file, if one was given: the script, its arguments, the machine
        and each figure's name, value and unit."""
        if self.path is None:
            return
        document = {"script": Path(sys.argv[0]).name, "arguments": self.arguments,
                    "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
                    "figures": self.figures}
        self.path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
