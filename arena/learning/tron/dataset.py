"""The data set of a learned Tron evaluation, from stored game records.

Every 2-player ``tron`` game without a bot failure is replayed, and at every position where both
players are alive the features are taken from each player's point of view and labelled with that
player's eventual result (1 win, 0.5 draw, 0 loss). Games, not positions, are split into training and
held-out sets (positions of one game are strongly correlated).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.engines.tron.features import DEFAULT_FEATURES, FEATURES, features
from arena.engines.tron.position import Position
from arena.plugins.registry import Registry
from arena.storage.replay import new_game
from arena.storage.store import Store


@dataclass
class DataSet:
    """Feature rows ``x`` (columns ``names``), targets ``y`` (result for the player: 1, 0.5, 0), the game of
    each row, and each row's Voronoi difference ``voronoi`` (the baseline evaluation)."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray
    games: int
    skipped: int
    names: tuple[str, ...]
    voronoi: np.ndarray


def build_dataset(records: Iterable[dict[str, Any]], registry: Registry,
                  names: Sequence[str] = DEFAULT_FEATURES) -> DataSet:
    """Replay 2-player ``tron`` records and collect the features ``names`` (and the Voronoi difference) from
    both sides at every position.

    Records of other games, with more than two players, or with a bot failure are skipped (counted in
    ``skipped``). Powerups, where on, are ignored by the features (their cells count as free).
    """
    unknown = [name for name in names if name not in FEATURES]
    if unknown or not names:
        raise ArenaError(f"unknown feature {unknown[0]!r} (known: {', '.join(FEATURES)})" if unknown
                         else "no features to fit")
    columns = ("voronoi", *names)
    rows: list[tuple[float, ...]] = []
    targets: list[float] = []
    owners: list[int] = []
    games = skipped = 0
    for record in records:
        ranks = record.get("result", {}).get("ranks", [])
        if record.get("game") != "tron" or len(ranks) != 2 or record.get("failures"):
            skipped += 1
            continue
        label = 0.5 if ranks[0] == ranks[1] else (1.0 if ranks[0] < ranks[1] else 0.0)
        game = new_game(record, registry)
        for turn in record["turns"]:
            if game.result is not None:
                break
            obs = game.observe(0)
            if all(h >= 0 for h in obs.heads):
                pos = Position.from_observation(obs)
                a, b = obs.heads
                rows.append(features(pos.free, a, b, pos.stride, pos.size, columns))
                targets.append(label)
                rows.append(features(pos.free, b, a, pos.stride, pos.size, columns))
                targets.append(1.0 - label)
                owners.extend((games, games))
            game.apply({int(seat): action for seat, action in turn.items()})
        games += 1
    table = np.array(rows, dtype=float).reshape(len(rows), len(columns))
    return DataSet(table[:, 1:], np.array(targets, dtype=float), np.array(owners, dtype=int), games, skipped,
                   tuple(names), table[:, 0])


def split_games(games: int, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Game indices for training and held out: a seeded shuffle, ``holdout`` of them held out.

    With at least two games, each side gets at least one.
    """
    if not 0 < holdout < 1:
        raise ArenaError(f"--holdout {holdout}: give a fraction between 0 and 1")
    order = np.random.default_rng(seed).permutation(games)
    held = round(games * holdout)
    if games >= 2:
        held = min(max(held, 1), games - 1)
    return np.sort(order[held:]), np.sort(order[:held])


def records_from_db(path: str | Path) -> list[dict[str, Any]]:
    """The records of every stored ``tron`` game in the database ``path`` (which must exist)."""
    if not Path(path).is_file():
        raise ArenaError(f"--db {path}: no such database file")
    with Store(path, read_only=True) as store:
        return [row.record for row in store.games(game="tron")]
