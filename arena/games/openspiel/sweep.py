"""Every OpenSpiel game arena registers, set up from its defaults and played with uniformly random legal moves
through the arena :class:`~arena.games.openspiel.game.OpenSpielGame` (observations taken as a bot's are)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from arena.games.openspiel.catalog import playable_games
from arena.games.openspiel.game import OpenSpielGame, class_named


@dataclass(frozen=True)
class SweepLine:
    """One game of the sweep: how many turns it was played, and how it ended or failed."""

    game: str
    turns: int
    outcome: str
    ok: bool

    def __str__(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.game}: {self.turns} turns, {self.outcome}"


def play_random(game_class: type[OpenSpielGame], seed: int, max_moves: int | None) -> SweepLine:
    """One game of ``game_class`` with random legal moves, every seat observed each turn, up to ``max_moves``."""
    chooser = random.Random(seed)
    turns = 0
    try:
        game = game_class(None, game_class.resolve_options({}), np.random.default_rng(seed))
        while game.result is None and (max_moves is None or turns < max_moves):
            actions = {}
            for seat in game.to_act():
                obs = game.observe(seat)
                actions[seat] = obs.legal[chooser.randrange(len(obs.legal))]
            game.apply(actions)
            turns += 1
        game.render()
        result = game.result
    except Exception as exc:  # a sweep reports every game's failure and goes on
        return SweepLine(game_class.name, turns, f"{type(exc).__name__}: {exc}", False)
    outcome = f"ranks {list(result.ranks)}" if result is not None else "stopped"
    return SweepLine(game_class.name, turns, outcome, True)


def sweep(max_moves: int | None = None, seed: int = 0, every: int = 1) -> Iterator[SweepLine]:
    """A :class:`SweepLine` for every ``every``-th registered OpenSpiel game, in name order."""
    names = sorted(playable_games())
    for short_name in names[::every]:
        yield play_random(class_named(short_name), seed, max_moves)
