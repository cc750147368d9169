"""Training a board-size-free window policy by hill climbing against scripted opponents (the article's version 2).

The policy (see :mod:`arena.engines.catmouse.policies`) covers the 729 ways both players can sit in a 3x3
window with the board's edges; farther apart, the cat closes in and the mouse runs (Euclidean distance).
It starts as "up, or down against the top edge". Each iteration tries ``candidates`` variations of the
current policy (each changing 1 to 10 random entries, never off an edge the window touches) and judges
each on ``games`` games against the current opponent. The current policy and its candidates all play the
same fresh random games (the same random numbers drive the opponent), and the best candidate replaces the
current policy if it beats it on those games:

* cat: more wins, then fewer moves in the games it wins, then a smaller average distance to the mouse
  (over every move of every game);
* mouse: more escapes, then longer games, then a greater average distance.

Opponents come in phases: the policy plays the first until it wins every game of an evaluation, then
the next (the article: the random mouse, then the wary mouse). The article reports about 30 iterations
to win 1,000 of 1,000 games against the random mouse, then 821 of 1,000 against the wary mouse, 1,000 of
1,000 after 17 more iterations, and about 200 iterations in all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.engines.catmouse.policies import WINDOW_ENTRIES, Policy, encode_moves, window_fields, window_move_allowed
from arena.games.catmouse.layouts import layout_from_rows
from arena.games.catmouse.rules import CAT, MOUSE, SIDE_NAMES
from arena.learning.catmouse.batch import play_window_batch
from arena.learning.catmouse.training_rules import SCRIPTED_BOTS_BY_ROLE, Rules

STARTS = ("up", "random", "closer")
MAX_REPEAT_TABLE = 1 << 29
"""The most bytes the repetition rule's table of seen positions may take in one evaluation."""


@dataclass(frozen=True)
class WindowSettings:
    """Everything that defines a version-2 run (stored in its checkpoint and policy file)."""

    board: tuple[str, ...]
    first: str = "mouse"
    max_moves: int = 20
    repeat: bool = False
    role: str = "cat"
    opponents: tuple[str, ...] = ("random", "wary")
    iterations: int = 200
    candidates: int = 10
    games: int = 1000
    cells: tuple[int, int] = (1, 10)
    start: str = "up"
    seed: int = 0

    def __post_init__(self) -> None:
        if self.role not in SIDE_NAMES:
            raise ArenaError(f"--role {self.role!r} is not one of: cat, mouse")
        other = SIDE_NAMES[1 - SIDE_NAMES.index(self.role)]
        if not self.opponents:
            raise ArenaError("give at least one opponent")
        for opponent in self.opponents:
            if opponent not in SCRIPTED_BOTS_BY_ROLE[other]:
                raise ArenaError(f"opponent {opponent!r} cannot play the {other}; choose from: "
                                 f"{', '.join(SCRIPTED_BOTS_BY_ROLE[other])}")
        if self.first not in SIDE_NAMES:
            raise ArenaError(f"--first {self.first!r} is not one of: cat, mouse")
        if self.start not in STARTS:
            raise ArenaError(f"--start {self.start!r} is not one of: {', '.join(STARTS)}")
        for name in ("iterations", "candidates", "games", "max_moves"):
            if getattr(self, name) < (0 if name == "iterations" else 1):
                raise ArenaError(f"--{name.replace('_', '-')} must be at least {0 if name == 'iterations' else 1}")
        low, high = self.cells
        if not 1 <= low <= high:
            raise ArenaError(f"--cells {low}-{high}: give a range like 1-10, from at least 1")
        if len(self.board) < 3 or len(self.board[0]) < 3:
            raise ArenaError("a window policy trains on a board at least 3x3")
        cells = len(self.board) * len(self.board[0])
        if self.repeat and (self.candidates + 1) * self.games * 2 * cells * cells > MAX_REPEAT_TABLE:
            raise ArenaError("the repetition rule needs too much memory for window training on a board this "
                             "large; train on a smaller board or with repeat = off")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data = asdict(self)
        data.update(board=list(self.board), opponents=list(self.opponents), cells=list(self.cells))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WindowSettings:
        """The settings a checkpoint stored."""
        return cls(**{**data, "board": tuple(data["board"]), "opponents": tuple(data["opponents"]),
                          "cells": tuple(data["cells"])})


@dataclass(frozen=True)
class Score:
    """How a policy did over one evaluation: the learner's wins (escapes for a mouse), the average moves (of
    both players) in the games a cat wins or in every game for a mouse (0 with no wins), and the average
    Euclidean distance between the players after each move."""

    wins: int
    moves: float
    distance: float

    def key(self, role: str) -> tuple[float, ...]:
        """Larger is better, for the learner ``role``."""
        if role == "cat":
            return (self.wins, -self.moves, -self.distance)
        return (self.wins, self.moves, self.distance)


@dataclass
class WindowProgress:
    """One iteration, for progress displays."""

    iteration: int
    iterations: int
    opponent: str
    phase_iteration: int
    games: int
    score: Score
    improved: bool
    games_per_second: float


@dataclass
class WindowTrainer:
    """A version-2 run: call :meth:`step` once per iteration, or :meth:`run`."""

    settings: WindowSettings
    checkpoint_data: dict[str, Any] | None = None
    policy_moves: np.ndarray = field(init=False)
    milestones: list[dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        settings = self.settings
        layout = layout_from_rows(list(settings.board))
        self.rules = Rules(layout, CAT if settings.first == "cat" else MOUSE, settings.max_moves, settings.repeat)
        self.role = settings.role
        self.learner = CAT if self.role == "cat" else MOUSE
        self.allowed = np.array([[window_move_allowed(entry, self.role, move) for move in range(4)]
                                 for entry in range(WINDOW_ENTRIES)])
        self.rng = np.random.default_rng(settings.seed)
        self.played = 0
        self.seconds_playing = 0.0
        data = self.checkpoint_data
        if data is None:
            self.policy_moves = initial_window_policy(self.role, settings.start, self.rng)
            self.iteration = 0
            self.phase = 0
            self.phase_iteration = 0
            self.milestones = []
            self.score = self._baseline()
        else:
            self.policy_moves = np.array(["UDLR".index(c) for c in data["policy"]], dtype=np.int8)
            self.iteration = int(data["iteration"])
            self.phase = int(data["phase"])
            self.phase_iteration = int(data["phase_iteration"])
            self.milestones = list(data["milestones"])
            self.score = Score(**data["score"])
            self.played = int(data.get("played", 0))
            self.seconds_playing = float(data.get("seconds_playing", 0.0))
            self.rng.bit_generator.state = data["rng"]

    @property
    def opponent(self) -> str:
        """The opponent of the current phase."""
        return self.settings.opponents[self.phase]

    def _controllers(self, policies: np.ndarray) -> tuple[Any, Any]:
        learner = ("window", policies)
        return (learner, self.opponent) if self.learner == CAT else (self.opponent, learner)

    def evaluate(self, policies: np.ndarray) -> list[Score]:
        """Score each policy (rows of ``policies``) on the same fresh set of random games."""
        games = self.settings.games
        u = self.rng.random((games, self.rules.max_plies))
        started = time.perf_counter()
        cat, mouse = self._controllers(policies)
        caught, plies, distance = play_window_batch(self.rules, cat, mouse, u, groups=len(policies))
        self.seconds_playing += time.perf_counter() - started
        self.played += caught.size
        caught = caught.reshape(len(policies), games)
        plies = plies.reshape(len(policies), games).astype(np.float64)
        distance = distance.reshape(len(policies), games)
        scores = []
        for row in range(len(policies)):
            won = int(caught[row].sum())
            average_distance = float(distance[row].sum() / plies[row].sum())
            if self.learner == CAT:
                moves = float(plies[row][caught[row]].mean()) if won else 0.0
                scores.append(Score(won, moves, average_distance))
            else:
                scores.append(Score(games - won, float(plies[row].mean()), average_distance))
        return scores

    def _baseline(self) -> Score:
        score = self.evaluate(self.policy_moves[None, :])[0]
        self.milestones.append({"event": "start", "iteration": self.iteration, "opponent": self.opponent,
                                "wins": score.wins})
        return score

    def step(self) -> WindowProgress:
        """One iteration: the opponent and score it played for, and whether the policy improved."""
        settings, rng = self.settings, self.rng
        count = settings.candidates
        sizes = rng.integers(settings.cells[0], settings.cells[1] + 1, size=count)
        entries = rng.integers(0, WINDOW_ENTRIES, size=int(sizes.sum())).tolist()
        moves = rng.integers(0, 4, size=len(entries)).tolist()
        candidates = np.repeat(self.policy_moves[None, :], count + 1, axis=0)
        start = 0
        for row, size in enumerate(sizes.tolist(), start=1):
            for entry, move in zip(entries[start:start + size], moves[start:start + size], strict=True):
                if self.allowed[entry, move]:
                    candidates[row, entry] = move
            start += size
        scores = self.evaluate(candidates)
        best = max(range(count + 1), key=lambda row: (scores[row].key(self.role), -row))
        improved = best > 0
        self.policy_moves = candidates[best].copy()
        self.score = scores[best]
        self.iteration += 1
        self.phase_iteration += 1
        report = WindowProgress(self.iteration, settings.iterations, self.opponent, self.phase_iteration,
                                settings.games, self.score, improved, self.games_per_second())
        if self.score.wins == settings.games:
            if not any(m["event"] == "all won" and m["opponent"] == self.opponent for m in self.milestones):
                self.milestones.append({"event": "all won", "iteration": self.iteration, "opponent": self.opponent,
                                        "phase_iteration": self.phase_iteration})
            if self.phase + 1 < len(settings.opponents):
                self.phase += 1
                self.phase_iteration = 0
                self.score = self._baseline()
        return report

    def games_per_second(self) -> float:
        """Games played per second of playing so far."""
        return self.played / self.seconds_playing if self.seconds_playing else 0.0

    def run(self, on_progress: Callable[[WindowProgress], None] | None = None,
            should_stop: Callable[[], bool] = lambda: False,
            on_checkpoint: Callable[[WindowTrainer], None] | None = None, checkpoint_seconds: float = 30.0) -> bool:
        """Iterate up to ``settings.iterations``; return ``False`` if ``should_stop`` ended the run early."""
        last_save = time.perf_counter()
        while self.iteration < self.settings.iterations:
            if should_stop():
                return False
            report = self.step()
            if on_progress is not None:
                on_progress(report)
            if on_checkpoint is not None and time.perf_counter() - last_save >= checkpoint_seconds:
                on_checkpoint(self)
                last_save = time.perf_counter()
        return True

    def checkpoint(self) -> dict[str, Any]:
        """The whole state, JSON-ready."""
        return {
            "settings": self.settings.to_json(),
            "policy": encode_moves(self.policy_moves),
            "iteration": self.iteration,
            "phase": self.phase,
            "phase_iteration": self.phase_iteration,
            "milestones": self.milestones,
            "score": asdict(self.score),
            "played": self.played,
            "seconds_playing": self.seconds_playing,
            "rng": self.rng.bit_generator.state,
        }

    def policy(self, extra: dict[str, Any] | None = None) -> Policy:
        """The trained policy, with what produced it."""
        training = {
            "method": f"hill climbing, window policy for the {self.role} (version 2)",
            "rules": self.rules.describe(),
            "settings": self.settings.to_json(),
            "iterations_done": self.iteration,
            "milestones": self.milestones,
            "final_score": {"opponent": self.opponent, **asdict(self.score)},
            **(extra or {}),
        }
        return Policy("window", {self.role: encode_moves(self.policy_moves)}, None, {self.role: training})


def initial_window_policy(role: str, start: str = "random", rng: np.random.Generator | None = None) -> np.ndarray:
    """The starting window policy: ``random`` (a random move in each entry, never off an edge the window
    touches), ``up`` (up, or down against the top edge, as in version 1) or ``closer`` (the move that brings
    the cat nearer the mouse or the mouse farther from the cat, within the window)."""
    policy = np.zeros(WINDOW_ENTRIES, dtype=np.int8)
    if start == "random":
        rng = rng if rng is not None else np.random.default_rng(0)
        for entry in range(WINDOW_ENTRIES):
            allowed = [move for move in range(4) if window_move_allowed(entry, role, move)]
            policy[entry] = allowed[int(rng.integers(len(allowed)))]
        return policy
    for entry in range(WINDOW_ENTRIES):
        cx, cy, mx, my, _, v_edge = window_fields(entry)
        if start == "up":
            y = cy if role == "cat" else my
            policy[entry] = 1 if (y == 0 and v_edge == 1) else 0
            continue
        here, other = ((cx, cy), (mx, my)) if role == "cat" else ((mx, my), (cx, cy))
        best, best_gap = 0, None
        for move, (dx, dy) in enumerate(((0, -1), (0, 1), (-1, 0), (1, 0))):
            if not window_move_allowed(entry, role, move):
                continue
            gap = (here[0] + dx - other[0]) ** 2 + (here[1] + dy - other[1]) ** 2
            if best_gap is None or (gap < best_gap if role == "cat" else gap > best_gap):
                best, best_gap = move, gap
        policy[entry] = best
    return policy
