"""Tabular TD(lambda) self-play for the pawn race, as Kalles and Kanellopoulos (2001) describe it.

Each side learns its own table of afterstate values (the position its move leaves, keyed exactly: both
sides' pawn squares, the waiting pawns and the side to move). It picks the move whose afterstate it values
most (a move that ends the game is worth its reward), or, one move in ten, a random legal move. After each
of its moves it learns on-line: ``delta = r + gamma V(s') - V(s)`` moves every state on its replacing
eligibility trace (decaying by ``gamma * lambda``) by ``alpha * delta * e``. Rewards: ``-1`` a move that does
not end the game, ``+50`` to the winner's last move and ``-50`` to the loser's (``loss_reward`` sets it).
The paper's settings are the defaults but for the key, a deviation: ``key="full"`` (the default) keys a
position exactly, where the paper's key (``key="paper"``) leaves out the waiting pawns, so that positions
differing only in them share one value. (With one pawn a side the two keys name the same positions.)

The whole run is reproducible from its seed: one ``random.Random`` drives every choice, and a checkpoint
holds its state, so a resumed run ends exactly as an uninterrupted one.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from arena.engines.pawnrace.td_model import (  # noqa: F401 - load_model, save_model: old imports of stored td bots
    MODEL_FORMAT,
    choose,
    load_model,
    position_key,
    save_model,
    unmoved,
)
from arena.games.pawnrace.rules import Position, Setup, start
from arena.stats.playability import BlockStats

TRACE_FLOOR = 1e-6  # traces below this are dropped: 0.5 ** 20


@dataclass(frozen=True)
class TdSettings:
    """A training run: the configuration, how many games, the learning settings, the seed, the block size."""

    n: int = 5
    a: int = 2
    pawns: int = 1
    removal: str = "all"
    max_moves: int = 2000
    games: int = 5000
    lam: float = 0.5
    alpha: float = 0.001
    gamma: float = 1.0
    greedy: float = 0.9
    win_reward: float = 50.0
    move_reward: float = -1.0
    seed: int = 0
    block: int = 10_000
    init: str | None = None
    """The network's initial weights: ``random``, ``mirror`` or ``zero``; ``None``: the learner's default (a
    table starts at zero, a network at random)."""
    loss_reward: float | None = None
    """The loser's reward for the game's last move; ``None``: the learner's default (the table's ``-win_reward``,
    the paper's -50; the network's 0)."""
    network_inputs: str = "parts"
    """The network's inputs (:data:`arena.engines.pawnrace.td_model.INPUTS`)."""
    key: str = "full"
    """The table's key of a position (:data:`arena.engines.pawnrace.td_model.KEYS`)."""

    @cached_property
    def setup(self) -> Setup:
        """The rules the games are played by (one object, so its tables are built once)."""
        return Setup(self.n, self.a, self.pawns, self.removal, self.max_moves)


@dataclass
class TableLearner:
    """One side's on-line TD(lambda) over its ``table`` with replacing traces: after each of its moves
    :meth:`learn` moves every state on the trace by ``alpha * delta * e`` and decays the trace by ``gamma *
    lambda``; :meth:`visit` sets the trace of the position the move left to 1."""

    table: dict[str, float]
    traces: dict[str, float] = field(default_factory=dict)
    last: str | None = None

    def learn(self, settings: TdSettings, reward: float, value_now: float) -> None:
        """``delta = reward + gamma * value_now - V(last)``; every state on the trace moves by ``alpha * delta *
        e``, then the trace decays."""
        if self.last is None:
            return
        delta = reward + settings.gamma * value_now - self.table.get(self.last, 0.0)
        step = settings.alpha * delta
        decay = settings.gamma * settings.lam
        for key, trace in list(self.traces.items()):
            self.table[key] = self.table.get(key, 0.0) + step * trace
            trace *= decay
            if trace < TRACE_FLOOR:
                del self.traces[key]
            else:
                self.traces[key] = trace

    def visit(self, key: str) -> None:
        """The side's move left the position ``key``: its trace is 1 (replacing, not adding)."""
        self.traces[key] = 1.0  # replacing traces
        self.last = key


class SelfPlayTrainer(ABC):
    """What every self-play trainer shares: its settings, its random stream, and the games played by block.
    A subclass plays one game with :meth:`play_game`."""

    settings: TdSettings
    played: int
    blocks: list[BlockStats]

    @abstractmethod
    def play_game(self) -> tuple[int | None, int]:
        """Play and learn from one self-play game; its winner (``None``: a draw) and its length in moves."""

    def run(self, report: Callable[[Any], None] | None = None, should_stop: Callable[[], bool] = lambda: False,
            on_checkpoint: Callable[[Any], None] | None = None, on_game: Callable[[], None] | None = None) -> bool:
        """Play up to ``settings.games`` games; report and checkpoint at every block's end, ``on_game`` after
        each game. Returns whether the run finished (rather than being stopped)."""
        fastest_win = self.settings.setup.fastest_win()
        while self.played < self.settings.games:
            if should_stop():
                return False
            winner, plies = self.play_game()
            if self.played % self.settings.block == 0:
                self.blocks.append(BlockStats())
            self.blocks[-1].add(winner, plies, fastest_win)
            self.played += 1
            if on_game is not None:
                on_game()
            if self.played % self.settings.block == 0 or self.played == self.settings.games:
                if report is not None:
                    report(self)
                if on_checkpoint is not None:
                    on_checkpoint(self)
        return True

    @abstractmethod
    def random_state(self) -> Any:
        """The random stream's state as JSON-ready data."""

    @abstractmethod
    def set_random_state(self, state: Any) -> None:
        """Restore the random stream from :meth:`random_state`'s data."""

    def _restore(self, data: dict[str, Any]) -> None:
        self.played = int(data["played"])
        self.blocks = [BlockStats(**block) for block in data["blocks"]]
        self.set_random_state(data["rng"])

    def _state(self) -> dict[str, Any]:
        return {"settings": asdict(self.settings), "played": self.played,
                "blocks": [asdict(block) for block in self.blocks], "rng": self.random_state()}


class TdTableTrainer(SelfPlayTrainer):
    """Self-play training of both sides' tables; ``data`` (a checkpoint) resumes a stopped run."""

    def __init__(self, settings: TdSettings, data: dict[str, Any] | None = None):
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.tables: list[dict[str, float]] = [{}, {}]
        self.played = 0
        self.blocks: list[BlockStats] = []
        if data is not None:
            self.tables = [dict(data["tables"][0]), dict(data["tables"][1])]
            self._restore(data)

    def play_game(self) -> tuple[int | None, int]:
        """Play and learn from one self-play game; its winner (``None``: a draw) and its length in moves."""
        settings, setup = self.settings, self.settings.setup
        learners = [TableLearner(self.tables[0]), TableLearner(self.tables[1])]
        position = start(setup)
        while not position.over:
            side = position.to_move
            _, after, value = self.choose(side, position)
            learner = learners[side]
            if after.over:
                # the paper: -1 a move "unless the resulting state is a final one; then it is +50 for the winner
                # and -50 for the loser's last move" (a draw by the move cap, which the paper has not, is a move)
                loss = -settings.win_reward if settings.loss_reward is None else settings.loss_reward
                final = (settings.move_reward if after.winner is None else settings.win_reward
                         if after.winner == side else loss)
                learner.learn(settings, final, 0.0)
                other = learners[1 - side]
                if after.winner == side:
                    other.learn(settings, loss, 0.0)
                elif after.winner is None:
                    other.learn(settings, 0.0, 0.0)
                else:
                    other.learn(settings, settings.win_reward, 0.0)
            else:
                learner.learn(settings, settings.move_reward, value)
                learner.visit(position_key(unmoved(after), settings.key))
            position = after
        return position.winner, position.moves

    def choose(self, side: int, position: Position) -> tuple[Any, Position, float]:
        """The move ``side`` plays from ``position`` (epsilon-greedy by its table), the position it leaves and
        that position's value to the side."""
        settings = self.settings
        return choose(settings.setup, self.tables[side], position, settings.win_reward, self.rng, settings.greedy,
                      settings.key)

    def random_state(self) -> Any:
        """The state of the run's ``random.Random`` as JSON-ready data."""
        version, internal, gauss = self.rng.getstate()
        return [version, list(internal), gauss]

    def set_random_state(self, state: Any) -> None:
        """Restore the run's ``random.Random``."""
        version, internal, gauss = state
        self.rng.setstate((version, tuple(internal), gauss))

    def checkpoint(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return {**self._state(), "learner": "table", "tables": self.tables}

    def model(self) -> dict[str, Any]:
        """The model file's contents: both tables, the settings, and the statistics per block."""
        return {"format": MODEL_FORMAT, "kind": "table", "settings": asdict(self.settings), "played": self.played,
                "tables": self.tables, "blocks": [asdict(block) for block in self.blocks]}
