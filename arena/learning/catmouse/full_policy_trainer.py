"""Training full policies for both players, improved in turn by hill climbing (the article's version 1).

Each player's policy holds a move for every (cat cell, mouse cell) pair. Both start as "always up, down on
the top row". The two players then take turns: each iteration the player that loses the current game
(cat policy against mouse policy: deterministic, so one game decides) tries a few random variations of
its policy and keeps the best one that improves on the current game, judged by the article's rules:

* cat: a win beats a loss; between wins, fewer moves; between losses, ending nearer the mouse, then a
  longer game;
* mouse: a win beats a loss; between wins, ending farther from the cat, then a longer game; between
  losses, a longer game.

Each iteration draws how many candidates to try (``candidates``, 1 to 10 by default) and, for each, how
many cells to change (``cells``, 1 by default as in the article's notebook); a change that would move the
learner off the board or into an obstacle is dropped. The iteration's winner (after the update) is
tallied: the article reports 54,760 mouse and 45,240 cat iterations over 100,000 on the 8x7 board.

A candidate's game can only differ from the current game once it reaches a changed entry, so candidates
whose changes the current game never visits are judged without playing: their game is the current one,
which is not an improvement. The others are played with the plain or the numpy engine (same results).

Two variants:

* ``arena`` (the default): games follow the arena's ``catmouse`` rules (``repeat = on``: a position is
  both cells and the side to move), moves are counted one per player move, candidates come from numpy's
  PCG64 generator, and the rules above are the article's as its text states them;
* ``notebook``: an exact re-run of the article's notebook: its random stream (numpy's legacy
  ``RandomState``, the same draws in the same order), its game loop
  (:func:`.plain.play_full_notebook`) and its code's rule for a mouse that keeps winning (a longer game,
  not a greater distance). With seed 0 it gives the article's 54,760 / 45,240 exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.engines.catmouse.policies import Policy, board_of, decode_moves, encode_moves
from arena.games.catmouse.layouts import layout_from_rows
from arena.games.catmouse.rules import CAT, MOUSE, SIDE_NAMES, Layout
from arena.learning.catmouse.batch import play_full_batch
from arena.learning.catmouse.plain import play_full, play_full_notebook
from arena.learning.catmouse.training_rules import Rules

ENGINES = ("plain", "batch")
VARIANTS = ("arena", "notebook")
_NOTEBOOK_MOVES = {"R": 3, "L": 2, "U": 0, "D": 1}


@dataclass(frozen=True)
class FullSettings:
    """Everything that defines a version-1 run (stored in its checkpoint and policy file)."""

    board: tuple[str, ...]
    first: str = "cat"
    max_moves: int | None = None
    repeat: bool = True
    iterations: int = 100_000
    candidates: tuple[int, int] = (1, 10)
    cells: tuple[int, int] = (1, 1)
    seed: int = 0
    engine: str = "plain"
    variant: str = "arena"

    def __post_init__(self) -> None:
        for name in ("candidates", "cells"):
            low, high = getattr(self, name)
            if not 1 <= low <= high:
                raise ArenaError(f"--{name} {low}-{high}: give a range like 1-10, from at least 1")
        if self.iterations < 0:
            raise ArenaError("--iterations must not be negative")
        if self.max_moves is not None and self.max_moves < 1:
            raise ArenaError("--max-moves must be at least 1")
        if self.first not in SIDE_NAMES:
            raise ArenaError(f"--first {self.first!r} is not one of: cat, mouse")
        if self.engine not in ENGINES:
            raise ArenaError(f"--engine {self.engine!r} is not one of: {', '.join(ENGINES)}")
        if self.max_moves is None and not self.repeat:
            raise ArenaError("a game needs a move limit, the repetition rule, or both")
        if self.variant not in VARIANTS:
            raise ArenaError(f"variant {self.variant!r} is not one of: {', '.join(VARIANTS)}")
        if self.variant == "notebook" and (self.max_moves is not None or not self.repeat or self.engine != "plain"
                                           or self.candidates != (1, 10) or self.cells != (1, 1)):
            raise ArenaError("the notebook variant plays the notebook's own settings: repetition rule, no move "
                             "limit, 1-10 candidates of one cell each, the plain engine")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data = asdict(self)
        data["board"] = list(self.board)
        data["candidates"], data["cells"] = list(self.candidates), list(self.cells)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FullSettings:
        """The settings a checkpoint stored."""
        return cls(**{**data, "board": tuple(data["board"]), "candidates": tuple(data["candidates"]),
                          "cells": tuple(data["cells"])})


@dataclass
class FullProgress:
    """A snapshot for progress displays: iteration, wins, the current game, and averages since the last one."""

    iteration: int
    iterations: int
    wins: dict[str, int]
    winner: str
    moves: int
    distance: int
    mean_moves: float
    mean_distance: float
    judged: int
    played: int
    elapsed: float


@dataclass
class _Window:
    moves: int = 0
    distance: int = 0
    count: int = 0


def initial_policy(layout: Layout, role: int) -> np.ndarray:
    """The article's starting policy: up, or down on the top row (else the first legal move)."""
    cells = layout.cells
    policy = np.full(cells * cells, -1, dtype=np.int8)
    for entry in range(cells * cells):
        here = entry // cells if role == CAT else entry % cells
        options = layout.targets[here]
        preferred = (1, 0) if here < layout.width else (0, 1)
        for move in (*preferred, 2, 3):
            if options[move] >= 0:
                policy[entry] = move
                break
    return policy


def acceptance_key(learner: int, winner: int, moves: int, distance: int, variant: str = "arena") -> tuple[int, ...]:
    """How the learner ranks a game's outcome (larger is better); see the module docstring."""
    if learner == CAT:
        return (1, -moves) if winner == CAT else (0, -distance, moves)
    if winner == MOUSE:
        return (1, moves) if variant == "notebook" else (1, distance, moves)
    return (0, moves, distance)


class FullTrainer:
    """A version-1 run: call :meth:`step` once per iteration, or :meth:`run`."""

    def __init__(self, settings: FullSettings, checkpoint: dict[str, Any] | None = None):
        self.settings = settings
        layout = layout_from_rows(list(settings.board))
        self.layout = layout
        self.rules = Rules(layout, CAT if settings.first == "cat" else MOUSE, settings.max_moves, settings.repeat)
        cells = layout.cells
        self.entries = cells * cells
        self.targets = self.rules.targets
        entry_cells = np.arange(self.entries)
        self._here = (entry_cells // cells, entry_cells % cells)
        self.iteration = 0
        self.wins = {"cat": 0, "mouse": 0}
        self.played = 0
        self.judged = 0
        self.rng = np.random.default_rng(settings.seed)
        self.legacy = np.random.RandomState(settings.seed) if settings.variant == "notebook" else None
        self._play_one = play_full_notebook if settings.variant == "notebook" else play_full
        if checkpoint is None:
            self.policies = [initial_policy(layout, CAT), initial_policy(layout, MOUSE)]
        else:
            self.policies = [np.array(decode_moves(checkpoint["cat"]), dtype=np.int8),
                             np.array(decode_moves(checkpoint["mouse"]), dtype=np.int8)]
            self.iteration = int(checkpoint["iteration"])
            self.wins = {role: int(checkpoint["wins"][role]) for role in SIDE_NAMES}
            self.played = int(checkpoint.get("played", 0))
            self.judged = int(checkpoint.get("judged", 0))
            if self.legacy is not None:
                state = checkpoint["rng"]
                self.legacy.set_state({**state, "state": {"key": np.array(state["state"]["key"], dtype=np.uint32),
                                                          "pos": state["state"]["pos"]}})
            else:
                self.rng.bit_generator.state = checkpoint["rng"]
        self.next_tables = [self._next_table(CAT), self._next_table(MOUSE)]
        self._replay_current()

    def _next_table(self, role: int) -> np.ndarray:
        here = self._here[role]
        policy = self.policies[role].astype(np.int64)
        return np.where(policy >= 0, self.targets[here, np.maximum(policy, 0)], here)

    def _replay_current(self) -> None:
        visits: tuple[list[int], list[int]] = ([], [])
        self._lists = [self.next_tables[CAT].tolist(), self.next_tables[MOUSE].tolist()]
        self.winner, self.moves, self.distance = self._play_one(self.rules, self._lists[CAT], self._lists[MOUSE],
                                                                visits)
        self.visited = []
        for role in (CAT, MOUSE):
            mask = np.zeros(self.entries, dtype=bool)
            mask[visits[role]] = True
            self.visited.append(mask)

    def step(self) -> None:
        """One iteration: the losing player tries its candidates and keeps the best improvement."""
        learner = MOUSE if self.winner == CAT else CAT
        count, changes = self._draw_notebook(learner) if self.legacy is not None else self._draw(learner)
        self.judged += count
        policy, visited = self.policies[learner], self.visited[learner]
        candidates = [[(entry, move) for entry, move in dict(candidate).items() if policy[entry] != move]
                      for candidate in changes if any(visited[entry] for entry, _ in candidate)]
        candidates = [candidate for candidate in candidates if candidate]
        if not candidates:
            self._tally()
            return
        outcomes = self._play(learner, candidates)
        self.played += len(candidates)
        variant = self.settings.variant
        best_key = acceptance_key(learner, self.winner, self.moves, self.distance, variant)
        best = None
        for candidate, outcome in zip(candidates, outcomes, strict=True):
            key = acceptance_key(learner, *outcome, variant)
            if key > best_key:
                best_key, best = key, candidate
        if best is not None:
            for entry, move in best:
                self.policies[learner][entry] = move
            self.next_tables[learner] = self._next_table(learner)
            self._replay_current()
        self._tally()

    def _draw(self, learner: int) -> tuple[int, list[list[tuple[int, int]]]]:
        """Draw this iteration's candidates: lists of legal (entry, move) changes (a candidate may end empty)."""
        settings, rng = self.settings, self.rng
        count = int(rng.integers(settings.candidates[0], settings.candidates[1] + 1))
        sizes = rng.integers(settings.cells[0], settings.cells[1] + 1, size=count)
        entries = rng.integers(0, self.entries, size=int(sizes.sum()))
        moves = rng.integers(0, 4, size=entries.size)
        legal = (self.targets[self._here[learner][entries], moves] >= 0).tolist()
        pairs = list(zip(entries.tolist(), moves.tolist(), strict=True))
        candidates, start = [], 0
        for size in sizes.tolist():
            candidates.append([pair for pair, ok in zip(pairs[start:start + size], legal[start:start + size],
                                                        strict=True) if ok])
            start += size
        return count, candidates

    def _draw_notebook(self, learner: int) -> tuple[int, list[list[tuple[int, int]]]]:
        """The notebook's draws: 1-10 single changes, each as (cat x, cat y, mouse x, mouse y, direction)
        with y counted from the bottom row, dropping those that leave the board."""
        legacy, layout = self.legacy, self.layout
        assert legacy is not None
        width, height, cells = layout.width, layout.height, layout.cells
        count = int(legacy.randint(1, 11))
        candidates = []
        for _ in range(count):
            cat_x, cat_y = int(legacy.randint(width)), int(legacy.randint(height))
            mouse_x, mouse_y = int(legacy.randint(width)), int(legacy.randint(height))
            move = _NOTEBOOK_MOVES[str(legacy.choice(["R", "L", "U", "D"]))]
            cat = (height - 1 - cat_y) * width + cat_x
            mouse = (height - 1 - mouse_y) * width + mouse_x
            here = cat if learner == CAT else mouse
            if self.targets[here, move] >= 0:
                candidates.append([(cat * cells + mouse, move)])
        return count, candidates

    def _play(self, learner: int, candidates: list[list[tuple[int, int]]]) -> list[tuple[int, int, int]]:
        here = self._here[learner]
        if self.settings.engine == "batch":
            tables = np.repeat(self.next_tables[learner][None, :], len(candidates), axis=0)
            for row, changes in enumerate(candidates):
                for entry, move in changes:
                    tables[row, entry] = self.targets[here[entry], move]
            other = np.broadcast_to(self.next_tables[1 - learner], tables.shape)
            cat, mouse = (tables, other) if learner == CAT else (other, tables)
            winner, moves, distance = play_full_batch(self.rules, cat, mouse)
            return list(zip(winner.tolist(), moves.tolist(), distance.tolist(), strict=True))
        table = self._lists[learner]
        outcomes = []
        for changes in candidates:
            saved = []
            for entry, move in changes:
                saved.append((entry, table[entry]))
                table[entry] = int(self.targets[here[entry], move])
            outcomes.append(self._play_one(self.rules, self._lists[CAT], self._lists[MOUSE]))
            for entry, old in reversed(saved):
                table[entry] = old
        return outcomes

    def _tally(self) -> None:
        self.iteration += 1
        self.wins[SIDE_NAMES[self.winner]] += 1

    def run(self, on_progress: Callable[[FullProgress], None] | None = None, every: int = 1000,
            should_stop: Callable[[], bool] = lambda: False,
            on_checkpoint: Callable[[FullTrainer], None] | None = None, checkpoint_seconds: float = 30.0) -> bool:
        """Iterate up to ``settings.iterations``; return ``False`` if ``should_stop`` ended the run early."""
        started = last_save = time.perf_counter()
        recent = _Window()
        while self.iteration < self.settings.iterations:
            if should_stop():
                return False
            self.step()
            recent.moves += self.moves
            recent.distance += self.distance
            recent.count += 1
            if on_progress is not None and (self.iteration % every == 0
                                            or self.iteration == self.settings.iterations):
                on_progress(self.progress(recent, time.perf_counter() - started))
                recent = _Window()
            if on_checkpoint is not None and time.perf_counter() - last_save >= checkpoint_seconds:
                on_checkpoint(self)
                last_save = time.perf_counter()
        return True

    def progress(self, recent: _Window | None = None, elapsed: float = 0.0) -> FullProgress:
        """The current progress snapshot."""
        recent = recent if recent is not None and recent.count else _Window(self.moves, self.distance, 1)
        return FullProgress(self.iteration, self.settings.iterations, dict(self.wins), SIDE_NAMES[self.winner],
                            self.moves, self.distance, recent.moves / recent.count, recent.distance / recent.count,
                            self.judged, self.played, elapsed)

    def checkpoint(self) -> dict[str, Any]:
        """The whole state, JSON-ready."""
        return {
            "settings": self.settings.to_json(),
            "iteration": self.iteration,
            "wins": dict(self.wins),
            "played": self.played,
            "judged": self.judged,
            "rng": self._rng_state(),
            "cat": encode_moves(self.policies[CAT]),
            "mouse": encode_moves(self.policies[MOUSE]),
        }

    def _rng_state(self) -> dict[str, Any]:
        if self.legacy is None:
            return dict(self.rng.bit_generator.state)
        state = self.legacy.get_state(legacy=False)
        return {**state, "state": {"key": state["state"]["key"].tolist(), "pos": int(state["state"]["pos"])}}

    def policy(self, extra: dict[str, Any] | None = None) -> Policy:
        """Both trained policies, with what produced them."""
        training = {
            "method": "hill climbing, full policies (version 1)",
            "rules": self.rules.describe(),
            "settings": self.settings.to_json(),
            "iterations_done": self.iteration,
            "iteration_wins": dict(self.wins),
            "final_game": {"winner": SIDE_NAMES[self.winner], "moves": self.moves, "distance": self.distance},
            **(extra or {}),
        }
        return Policy("full", {"cat": encode_moves(self.policies[CAT]), "mouse": encode_moves(self.policies[MOUSE])},
                      board_of(self.layout), training)
