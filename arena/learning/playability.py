"""Playability studies: a game's self-play learners, as ``arena playability GAME`` runs them.

A game takes part by registering a :class:`PlayabilityStudy` through the ``register_studies`` hook: its
learners, how to train them on a map with options, and how to read back what a trained model recorded.
The statistics of the verdict (Kalles and Kanellopoulos 2001) are in :mod:`arena.stats.playability`; their
names are importable from here too, as studies written before they moved import them. :func:`train_seeds`
runs a study under several seeds at once on a task pool.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from typing import Any, ClassVar

from arena.core.errors import ArenaError
from arena.play.task_pools import TaskPool
from arena.stats.playability import BlockStats, PlayabilityRow, merged, playability, summarise

__all__ = ["BlockStats", "PlayabilityRow", "PlayabilityStudy", "PublishedRow", "StudyRun", "merged", "playability",
           "summarise", "train_seed"]


@dataclass(frozen=True)
class StudyRun:
    """What a study found: a title naming the configuration, the blocks of games, the block size, each
    side's name (first player, second player), and the perfect-play verdict where one is known."""

    title: str
    blocks: list[BlockStats]
    block_size: int
    sides: tuple[str, str] = ("first", "second")
    perfect_play: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    """The run's learning settings (the readings it was trained under among them)."""
    published: list[PublishedRow] = field(default_factory=list)
    """The paper's figures for this configuration and learner, block by block, where it gives them."""


@dataclass(frozen=True)
class PublishedRow:
    """A block of a paper's table: its label, moves per player, their standard deviation, the first player's
    and the second player's shares of the games (what they leave, if anything, is draws)."""

    label: str
    mean_moves: float
    sd_moves: float
    white: float
    black: float


class PlayabilityStudy(ABC):
    """A game's self-play learners, as ``arena playability`` runs them."""

    game: ClassVar[str]
    """The registered game the study judges."""
    default_map: ClassVar[str]
    """The map ``arena playability`` uses without ``--map``."""
    learners: ClassVar[dict[str, str]]
    """Each learner's name and a short description; the first is the default."""
    aliases: ClassVar[dict[str, str]] = {}
    """Other names of learners (``nn`` for ``network``)."""
    readings: ClassVar[tuple[str, ...]] = ()
    """The learning settings :meth:`train` takes in ``readings`` (such as ``init`` or ``learning_rate``)."""

    def check_readings(self, readings: Mapping[str, Any], learner: str) -> None:
        """Refuse, in one line, a setting ``learner`` does not have or a value it does not take (before any
        training starts)."""
        for name in readings:
            if name not in self.readings:
                raise ArenaError(f"--{name.replace('_', '-')} is not a setting of the {self.game} study")

    def check_configuration(self, map_spec: str, options: Mapping[str, str]) -> None:
        """Refuse, in one line, a map or game option the study cannot train on (before any training starts);
        by default the training itself finds out."""
        return None

    def learner_named(self, text: str | None) -> str:
        """The learner ``text`` names (``None``: the first); anything else is a one-line error."""
        if text is None:
            return next(iter(self.learners))
        name = self.aliases.get(text, text)
        if name not in self.learners:
            other = f" (or {', '.join(self.aliases)})" if self.aliases else ""
            raise ArenaError(f"--learner {text!r} is not one of: {', '.join(self.learners)}{other}")
        return name

    @abstractmethod
    def train(self, map_spec: str, options: Mapping[str, str], learner: str, games: int, block: int, seed: int,
              on_game: Callable[[], None] | None = None, readings: Mapping[str, Any] | None = None) -> StudyRun:
        """Train ``learner`` by ``games`` self-play games on a map with extra options and learning settings
        (``readings``, names of :attr:`readings`); the statistics."""

    @abstractmethod
    def recorded(self, model: str) -> StudyRun:
        """The statistics a trained model's file recorded."""


def train_seed(study: PlayabilityStudy, map_spec: str, options: Mapping[str, str], learner: str, games: int,
               block: int, seed: int, readings: Mapping[str, Any]) -> StudyRun:
    """One seed's run of a multi-seed study: a task for a task pool (:mod:`arena.play.task_pools`)."""
    if not readings:  # a study written before readings existed takes none
        return study.train(map_spec, dict(options), learner, games, block, seed)
    return study.train(map_spec, dict(options), learner, games, block, seed, readings=dict(readings))


def train_seeds(study: PlayabilityStudy, map_spec: str, options: Mapping[str, str], learner: str, games: int,
                block: int, seeds: Sequence[int], readings: Mapping[str, Any], pool: TaskPool | None = None,
                on_seed: Callable[[int], None] | None = None) -> list[StudyRun]:
    """Each seed's run, in the order of ``seeds``: on ``pool`` (a task pool, so seeds run at once), or here one
    after another. The runs do not depend on where or in which order they ran."""
    if pool is None:
        runs = []
        for seed in seeds:
            runs.append(train_seed(study, map_spec, options, learner, games, block, seed, readings))
            if on_seed is not None:
                on_seed(seed)
        return runs
    futures = {pool.submit(train_seed, study, map_spec, dict(options), learner, games, block, seed, dict(readings)):
               seed for seed in seeds}
    found: dict[int, StudyRun] = {}
    for future in as_completed(futures):
        found[futures[future]] = future.result()
        if on_seed is not None:
            on_seed(futures[future])
    return [found[seed] for seed in seeds]
