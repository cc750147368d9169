"""Playability studies: a game's self-play learners, as ``arena playability GAME`` runs them.

A game takes part by registering a :class:`PlayabilityStudy` through the ``register_studies`` hook: its
learners, how to train them on a map with options, and how to read back what a trained model recorded.
The statistics of the verdict (Kalles and Kanellopoulos 2001) are in :mod:`arena.stats.playability`; their
names are importable from here too, as studies written before they moved import them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from arena.core.errors import ArenaError
from arena.stats.playability import BlockStats, PlayabilityRow, merged, playability, summarise

__all__ = ["BlockStats", "PlayabilityRow", "PlayabilityStudy", "StudyRun", "merged", "playability", "summarise"]


@dataclass(frozen=True)
class StudyRun:
    """What a study found: a title naming the configuration, the blocks of games, the block size, each
    side's name (first player, second player), and the perfect-play verdict where one is known."""

    title: str
    blocks: list[BlockStats]
    block_size: int
    sides: tuple[str, str] = ("first", "second")
    perfect_play: str = ""


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
              on_game: Callable[[], None] | None = None) -> StudyRun:
        """Train ``learner`` by ``games`` self-play games on a map with extra options; the statistics."""

    @abstractmethod
    def recorded(self, model: str) -> StudyRun:
        """The statistics a trained model's file recorded."""
