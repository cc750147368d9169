"""The scaling experiment (Cloppert 2007, section 4.3): train on 15x15, then play 30x30 trained and untrained.

Per strategy and repetition: an empty automaton plays ``train_games`` games on the small board, learning; a copy of
its table then plays ``test_games`` on the large board, and so does an automaton with an empty table, both still
learning. With ``frozen`` neither learns on the large board: the trained table is played as it left training (a
control that separates what transfers from learning that continues on the large board) against an empty table that
never learns, which never dictates a move and so plays exactly as the pseudo-random opponent (the untrained,
non-learning baseline). Each of the three runs has its own seed, drawn from the experiment's seed, the strategy and the
repetition's number only, so any repetition comes out the same whichever process runs it and in whatever order.
Results go to a JSON-lines file, one line per finished repetition after a header of settings, so a stopped
experiment resumes where it stopped."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.engines.tron.snafu.reading import PAPER, Reading
from arena.engines.tron.snafu.strategy import Strategy
from arena.engines.tron.snafu.table import decisive_entries
from arena.learning.tron.snafu.automaton import Automaton
from arena.play.task_pools import LocalTaskPool, TaskPool

RESULTS_FORMAT = "arena-snafu-scaling/1"
OUTCOME_LETTERS = {1: "W", -1: "L", 0: "T"}
LETTER_VALUES = {"W": 1, "L": -1, "T": 0}


@dataclass(frozen=True)
class ScalingSettings:
    """What a repetition's results depend on, apart from its strategy and number."""

    seed: int = 0
    train_games: int = 1000
    test_games: int = 500
    train_size: tuple[int, int] = (15, 15)
    test_size: tuple[int, int] = (30, 30)
    reading: Reading = PAPER
    frozen: bool = False
    """Whether the large-board games are played without learning (see the module's docstring)."""

    def header(self) -> dict[str, Any]:
        """The results file's first line (the reading's switches included)."""
        return {"format": RESULTS_FORMAT, "seed": self.seed, "train_games": self.train_games,
                "test_games": self.test_games, "train_size": list(self.train_size),
                "test_size": list(self.test_size), **self.reading.settings(), "frozen": self.frozen}


@dataclass
class Repetition:
    """One repetition's games: outcomes as letters (W win, L loss, T tie for the automaton) and table sizes."""

    strategy: str
    rep: int
    train: str
    trained: str
    untrained: str
    train_table: list[int] = field(default_factory=list)
    decisive: int | None = None
    """Entries of the table after training whose best decision beats both others by more than ``t``."""

    def to_json(self) -> dict[str, Any]:
        """The repetition as one JSON object."""
        return dict(self.__dict__)


def repetition_seeds(seed: int, strategy: Strategy, rep: int) -> tuple[int, int, int]:
    """The seeds of the training run and of the trained and untrained runs on the large board."""
    sequence = np.random.SeedSequence([seed, zlib.crc32(strategy.spec.encode()), rep])
    first, second, third = (int(value) for value in sequence.generate_state(3, dtype=np.uint32))
    return first, second, third


def run_repetition(settings: ScalingSettings, strategy: Strategy, rep: int) -> Repetition:
    """Play repetition ``rep`` of ``strategy``."""
    train_seed, trained_seed, untrained_seed = repetition_seeds(settings.seed, strategy, rep)
    reading = settings.reading
    learner = Automaton(strategy, reading=reading)
    train = learner.play(*settings.train_size, settings.train_games, train_seed)
    table = learner.table
    decisive = len(decisive_entries(table.scores, table.size, float(strategy.t)))
    learn = not settings.frozen
    trained = Automaton(strategy, table.copy(), reading).play(*settings.test_size, settings.test_games,
                                                               trained_seed, learn=learn)
    untrained = Automaton(strategy, reading=reading).play(*settings.test_size, settings.test_games, untrained_seed,
                                                          learn=learn)
    return Repetition(strategy.label, rep, _letters(train.outcomes), _letters(trained.outcomes),
                      _letters(untrained.outcomes), train.table_sizes, decisive)


def _letters(outcomes: Iterable[int]) -> str:
    return "".join(OUTCOME_LETTERS[outcome] for outcome in outcomes)


def outcome_values(letters: str) -> np.ndarray:
    """Outcome letters as 1, -1 and 0."""
    return np.array([LETTER_VALUES[letter] for letter in letters], dtype=np.int64)


class ResultsFile:
    """The finished repetitions of an experiment, kept in a JSON-lines file."""

    def __init__(self, path: Path, settings: ScalingSettings):
        self.path = path
        self.settings = settings
        self.done: dict[tuple[str, int], Repetition] = {}
        if path.exists():
            self._load()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(settings.header()) + "\n")

    def _load(self) -> None:
        try:
            lines = self.path.read_text().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ArenaError(f"{self.path}: not a readable results file ({exc})") from None
        try:
            header = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            header = None
        if not isinstance(header, dict) or header.get("format") != RESULTS_FORMAT:
            raise ArenaError(f"{self.path}: not a snafu-scaling results file")
        if isinstance(header, dict):  # a file from before the switches (or --frozen): the paper's reading, learning
            header = {**PAPER.settings(), "frozen": False, **header}
        if header != self.settings.header():
            raise ArenaError(f"{self.path} holds an experiment with other settings ({_differences(header, self)}); "
                             "give another --results file")
        for line in lines[1:]:
            try:
                repetition = Repetition(**json.loads(line))
            except (json.JSONDecodeError, TypeError):
                continue  # a line cut short when the run was killed: that repetition runs again
            self.done[(repetition.strategy, repetition.rep)] = repetition

    def add(self, repetition: Repetition) -> None:
        """Record a finished repetition."""
        self.done[(repetition.strategy, repetition.rep)] = repetition
        with self.path.open("a") as file:
            file.write(json.dumps(repetition.to_json()) + "\n")

    def repetitions(self, strategy: Strategy, reps: int) -> list[Repetition]:
        """The finished repetitions ``0 .. reps - 1`` of ``strategy``, in order."""
        return [self.done[(strategy.label, rep)] for rep in range(reps) if (strategy.label, rep) in self.done]


def _differences(header: dict[str, Any], results: ResultsFile) -> str:
    wanted = results.settings.header()
    return ", ".join(f"{key} {header.get(key)} there, {wanted[key]} here" for key in wanted
                     if header.get(key) != wanted[key])


def run_experiment(results: ResultsFile, strategies: Iterable[Strategy], reps: int, workers: int | None = 1,
                   should_stop: Callable[[], bool] = lambda: False,
                   on_done: Callable[[Repetition], None] | None = None,
                   start_pool: Callable[[int | None], TaskPool] | None = None) -> bool:
    """Run every missing repetition ``0 .. reps - 1`` of each strategy into ``results``; return whether all are
    done (False when ``should_stop`` asked to stop first).

    Repetitions run ``workers`` at a time on the task pool ``start_pool(workers)`` starts (by default
    processes of this machine, or this process alone for one worker); results are recorded here, in the
    order they finish, and do not depend on where or in which order repetitions ran.
    """
    todo = [(strategy, rep) for rep in range(reps) for strategy in strategies
            if (strategy.label, rep) not in results.done]
    if start_pool is None and (workers or 1) <= 1:
        for strategy, rep in todo:
            if should_stop():
                return False
            _finished(results, run_repetition(results.settings, strategy, rep), on_done)
        return True
    with (start_pool or _local_pool)(workers) as pool:
        pending = iter(todo)
        running: set[Future[Any]] = set()
        stopped = False
        while True:
            while not stopped and len(running) < 2 * pool.size:
                task = next(pending, None)
                if task is None:
                    break
                running.add(pool.submit(run_repetition, results.settings, *task))
            if not running:
                return not stopped
            finished, running = wait(running, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in finished:
                _finished(results, future.result(), on_done)
            stopped = stopped or should_stop()


def _local_pool(workers: int | None) -> TaskPool:
    return LocalTaskPool(workers or 1)


def _finished(results: ResultsFile, repetition: Repetition, on_done: Callable[[Repetition], None] | None) -> None:
    results.add(repetition)
    if on_done is not None:
        on_done(repetition)

