"""The two sides of a one-worker tournament, each timed alone in CPU seconds: the worker playing the games, and
the parent storing them.

Run: python benchmarks/tournament_sides.py [--games N]

``arena tournament empty_room -b random,wallhugger -n N -w 1`` runs two processes at once: the worker plays the
games (every move timed and guarded, the outcomes pickled in messages) while the parent stores the ones it has
sent (records, summaries, the run's live ratings), then rates the run. On a machine with two idle cores the
slower side sets the pace. This script does each side's work in this process, one after the other:

- worker: the games played as a worker plays them (a move guard writing to shared memory, outcomes pickled in
  messages of 64 games);
- parent: the same outcomes handed to ``play_stored_run`` in groups of 64, as a worker's messages arrive,
  stored in a new database, then the run rated and the leaderboard updated.

CPU seconds hardly move with other work on the machine, unlike elapsed time. For counts that do not move at all,
run it under valgrind (``valgrind --tool=callgrind python benchmarks/tournament_sides.py --games N``) with two
values of N: the difference of the instruction counts, over the difference of N, is the cost of a game (with
``--side worker`` too, the worker's alone; the parent's is what ``--side both`` adds). ``--side parent
--outcomes FILE`` counts the parent alone: the worker's messages are played and kept in FILE by a first run
(run it outside valgrind), and each later run only unpickles them, as the parent does, and stores them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import pickle
import signal
import tempfile
import time
from collections.abc import Iterable, Iterator
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from timing import Figures, add_json_option

from arena.play.limits import Limits, MoveGuard, alarm_tick
from arena.play.referee import MatchOutcome, MatchSetup, play
from arena.plugins.registry import PluginConfig, Registry, load_registry
from arena.storage.store import Store
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import open_run, play_stored_run
from arena.tournament.selection import command_line_definition

MESSAGE = 64
"""Games per message from the worker (a worker sends at most this many at once)."""
CONFIG = PluginConfig(use_cwd_bots=False, use_env_path=False)


def worker_side(setups: list[MatchSetup], registry: Registry) -> list[MatchOutcome]:
    """Play ``setups`` as a worker does; return the outcomes."""
    guard = MoveGuard(multiprocessing.RawArray("d", 3), 0, Limits().grace)
    outcomes = []
    with guard.installed(alarm_tick(setups[0].move_seconds())):
        for setup in setups:
            outcomes.append(play(setup, registry, guard=guard))
    # The guard's alarm is off now; under valgrind, which delivers signals late, one can still arrive: ignore it.
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    for start in range(0, len(outcomes), MESSAGE):
        ForkingPickler.dumps(outcomes[start:start + MESSAGE])
    return outcomes


class _Played:
    """Stands in for a started worker pool: hands back games played already, in a worker's messages."""

    def __init__(self, outcomes: list[MatchOutcome]):
        self.outcomes = outcomes

    def run_batches(self, setups: Iterable[MatchSetup]) -> Iterator[list[MatchOutcome]]:
        """Take every setup (as the pool hands them out), then yield the outcomes in messages."""
        for _ in setups:
            pass
        for start in range(0, len(self.outcomes), MESSAGE):
            yield self.outcomes[start:start + MESSAGE]

    def close(self, terminate: bool = False) -> None:
        """Nothing to stop."""


class _AlreadyPlayed:
    """Stands in for the executor choice: its pool is :class:`_Played`."""

    def __init__(self, outcomes: list[MatchOutcome]):
        self.outcomes = outcomes

    def start(self, *args: Any, **kwargs: Any) -> _Played:
        """The pool of played games."""
        return _Played(self.outcomes)


def parent_side(games: int, outcomes: list[MatchOutcome], registry: Registry, folder: Path) -> None:
    """Store ``outcomes`` as the parent of a tournament of ``games`` games does, then rate the run."""
    plan = plan_tournament(command_line_definition(["empty_room"], registry,
                                                   {"bots": ("random", "wallhugger"), "games": games}), registry)
    with Store(folder / "arena.db") as store:
        opened = open_run(store, plan, True, CONFIG)
        play_stored_run(store, opened.run, registry, CONFIG, workers=1, on_game=lambda _: None,
                        executor=_AlreadyPlayed(outcomes))  # type: ignore[arg-type]


def cpu_seconds(run: Any) -> float:
    """CPU seconds of this process that one call of ``run`` takes."""
    started = time.process_time()
    run()
    return time.process_time() - started


def main() -> None:
    """Print each side's CPU time per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games of random against wallhugger on empty_room")
    parser.add_argument("--side", choices=("both", "worker", "parent"), default="both",
                        help="worker: only play the games; parent: only store them (with --outcomes)")
    parser.add_argument("--outcomes", type=Path,
                        help="with --side parent: the worker's messages, played and written here if missing")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    registry = load_registry(CONFIG)
    plan = plan_tournament(command_line_definition(["empty_room"], registry,
                                                   {"bots": ("random", "wallhugger"), "games": args.games}), registry)
    games = len(plan.first_stage())
    outcomes: list[MatchOutcome] = []
    sides = []
    if args.side == "parent":  # the schedule is worked out once, as the parent does, not twice
        if args.outcomes is None:
            parser.error("--side parent needs --outcomes FILE")
        if not args.outcomes.exists():
            played = worker_side(list(plan.first_stage()), registry)
            args.outcomes.write_bytes(pickle.dumps([bytes(ForkingPickler.dumps(played[start:start + MESSAGE]))
                                                    for start in range(0, len(played), MESSAGE)]))
        messages = pickle.loads(args.outcomes.read_bytes())
        if len(messages) != -(-games // MESSAGE):
            parser.error(f"{args.outcomes} holds the games of another --games")
        with tempfile.TemporaryDirectory() as folder:
            sides.append(("parent", cpu_seconds(lambda: parent_side(
                args.games, [outcome for message in messages for outcome in pickle.loads(message)], registry,
                Path(folder)))))
    else:
        setups = list(plan.first_stage())
        sides.append(("worker", cpu_seconds(lambda: outcomes.extend(worker_side(setups, registry)))))
    if args.side == "both":
        with tempfile.TemporaryDirectory() as folder:
            sides.append(("parent", cpu_seconds(lambda: parent_side(args.games, outcomes, registry, Path(folder)))))
    print(f"{'side':<8} {'CPU us/game':>11}")
    for name, seconds in sides:
        figures.add(f"{name} side", seconds / games * 1e6, "CPU us/game")
        print(f"{name:<8} {seconds / games * 1e6:>11.1f}")
    figures.write()


if __name__ == "__main__":
    main()
