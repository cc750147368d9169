"""A learned linear evaluation for Tron, after Brown's CountBOTula: features, data set, fit, weights file.

The data set comes from stored game records: every 2-player ``tron`` game without a bot failure is
replayed, and at every position where both players are alive the features are taken from each
player's point of view and labelled with that player's eventual result (1 win, 0.5 draw, 0 loss).
Games, not positions, are split into training and held-out sets (positions of one game are strongly
correlated). The weights come from least squares, without an intercept, on the target ``result - 0.5``:
every feature is a difference "ours minus theirs", so swapping the players flips both sides.

The baseline is the hand-set evaluation of ``voronoi``: the Voronoi difference alone (its one weight
fitted the same way, which changes its mean squared error but not its sign accuracy).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from arena.core.errors import ArenaError
from arena.games.tron.search import Position, flood, parity_bound, territories

if TYPE_CHECKING:  # the bots import this module; keep their import light
    from arena.plugins.registry import Registry

WEIGHTS_FORMAT = "arena-tron-eval/1"
"""The ``format`` field of a weights file."""

FEATURES: tuple[str, ...] = ("voronoi", "parity", "area", "mobility", "voronoi_near")
"""The feature names, each "ours minus theirs":

* ``voronoi``: Voronoi territory (cells strictly closer to us minus cells strictly closer to them);
* ``parity``: the same territories, each bounded by checkerboard parity (the ``chamber`` evaluation);
* ``area``: cells each head can reach at all;
* ``mobility``: free cells next to each head;
* ``voronoi_near``: the Voronoi difference divided by 1 + the heads' Manhattan distance (territory
  matters more when the heads are close and fighting over it).
"""

SCALE = 1000
"""A learned value is ``SCALE`` times the predicted result minus 0.5 (a win is about +500)."""

LIMIT = 40_000
"""Learned values are clamped to ``[-LIMIT, LIMIT]``, inside the search's draw and win values."""


def features(free: int, me: int, op: int, stride: int, size: int) -> tuple[float, ...]:
    """The :data:`FEATURES` of a position for the head at ``me`` against the head at ``op``."""
    mine, theirs = territories(free, 1 << me, 1 << op, stride)
    mine_count, theirs_count = mine.bit_count(), theirs.bit_count()
    vor = mine_count - theirs_count
    parity = parity_bound(mine, me, stride, size) - parity_bound(theirs, op, stride, size)
    area = flood(free, 1 << me, stride).bit_count() - flood(free, 1 << op, stride).bit_count()
    s = stride
    around_me = 1 << me + 1 | 1 << me - 1 | 1 << me + s | 1 << me - s
    around_op = 1 << op + 1 | 1 << op - 1 | 1 << op + s | 1 << op - s
    mobility = (around_me & free).bit_count() - (around_op & free).bit_count()
    distance = abs(me % s - op % s) + abs(me // s - op // s)
    return (float(vor), float(parity), float(area), float(mobility), vor / (1 + distance))


@dataclass
class DataSet:
    """Feature rows ``x``, targets ``y`` (result for the player: 1, 0.5, 0) and the game of each row."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray
    games: int
    skipped: int


def build_dataset(records: Iterable[dict[str, Any]], registry: Registry) -> DataSet:
    """Replay 2-player ``tron`` records and collect features from both sides at every position.

    Records of other games, with more than two players, or with a bot failure are skipped (counted in
    ``skipped``). Powerups, where on, are ignored by the features (their cells count as free).
    """
    from arena.storage.replay import new_game

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
                rows.append(features(pos.free, a, b, pos.stride, pos.size))
                targets.append(label)
                rows.append(features(pos.free, b, a, pos.stride, pos.size))
                targets.append(1.0 - label)
                owners.extend((games, games))
            game.apply({int(seat): action for seat, action in turn.items()})
        games += 1
    x = np.array(rows, dtype=float).reshape(len(rows), len(FEATURES))
    return DataSet(x, np.array(targets, dtype=float), np.array(owners, dtype=int), games, skipped)


def split_games(games: int, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Game indices for training and held out: a seeded shuffle, ``holdout`` of them held out.

    With at least two games, each side gets at least one.
    """
    if not 0 < holdout < 1:
        raise ArenaError(f"--holdout {holdout}: give a fraction between 0 and 1")
    order = np.random.default_rng(seed).permutation(games)
    held = int(round(games * holdout))
    if games >= 2:
        held = min(max(held, 1), games - 1)
    return np.sort(order[held:]), np.sort(order[:held])


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares weights (no intercept) predicting ``y - 0.5`` from ``x``."""
    weights, *_ = np.linalg.lstsq(x, y - 0.5, rcond=None)
    return weights


def errors(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> dict[str, float]:
    """Mean squared error of ``0.5 + x @ weights`` against ``y``, and sign accuracy on decided positions.

    The accuracy counts positions of won or lost games whose prediction is on the right side of 0.5;
    a prediction of exactly 0.5 counts half.
    """
    if len(y) == 0:
        return {"mse": math.nan, "accuracy": math.nan}
    prediction = x @ weights
    target = y - 0.5
    mse = float(np.mean((prediction - target) ** 2))
    decided = target != 0
    if not decided.any():
        return {"mse": mse, "accuracy": math.nan}
    agree = np.sign(prediction[decided]) * np.sign(target[decided])
    accuracy = float(np.mean(np.where(agree > 0, 1.0, np.where(agree == 0, 0.5, 0.0))))
    return {"mse": mse, "accuracy": accuracy}


@dataclass
class TrainResult:
    """What :func:`train` learned and measured; :meth:`to_json` is the weights file."""

    weights: list[float]
    baseline_weight: float
    games: dict[str, int]
    positions: dict[str, int]
    errors: dict[str, dict[str, float]]
    seed: int
    holdout: float

    def to_json(self) -> dict[str, Any]:
        """The weights file's contents."""
        return {"format": WEIGHTS_FORMAT, "features": list(FEATURES), "weights": self.weights,
                "scale": SCALE, "seed": self.seed, "holdout": self.holdout, "games": self.games,
                "positions": self.positions, "errors": self.errors,
                "baseline": {"features": ["voronoi"], "weights": [self.baseline_weight]}}


def train(data: DataSet, seed: int = 0, holdout: float = 0.2) -> TrainResult:
    """Fit the weights on the training games; measure both sets against the Voronoi-only baseline."""
    if data.games < 2 or len(data.y) == 0:
        raise ArenaError(f"found {data.games} usable 2-player tron games; training needs at least 2")
    train_games, held_games = split_games(data.games, holdout, seed)
    in_train = np.isin(data.game, train_games)
    xt, yt, xh, yh = data.x[in_train], data.y[in_train], data.x[~in_train], data.y[~in_train]
    weights = fit(xt, yt)
    base = fit(xt[:, :1], yt)
    full = np.zeros(len(FEATURES))
    full[0] = base[0]
    result_errors = {"train": errors(xt, yt, weights), "holdout": errors(xh, yh, weights),
                     "baseline_train": errors(xt, yt, full), "baseline_holdout": errors(xh, yh, full)}
    return TrainResult([float(w) for w in weights], float(base[0]),
                       {"train": len(train_games), "holdout": len(held_games), "skipped": data.skipped},
                       {"train": int(in_train.sum()), "holdout": int((~in_train).sum())},
                       result_errors, seed, holdout)


def save_weights(result: TrainResult, path: str | Path) -> None:
    """Write the weights file (JSON)."""
    try:
        Path(path).write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"{path}: cannot write weights ({exc.strerror or exc})") from None


class LearnedEval:
    """A linear evaluation loaded from a weights file: ``SCALE * sum(weight * feature)``, clamped."""

    def __init__(self, names: Sequence[str], weights: Sequence[float], source: str = ""):
        self.names = tuple(names)
        self.weights = tuple(float(w) for w in weights)
        self.source = source
        self._scaled = [SCALE * w for w in self.weights]
        self._index = [FEATURES.index(name) for name in self.names]

    def value(self, free: int, me: int, op: int, stride: int, size: int) -> int:
        """The learned value of a position for ``me`` (positive is good), an integer for the search."""
        row = features(free, me, op, stride, size)
        total = sum(w * row[i] for w, i in zip(self._scaled, self._index, strict=True))
        return max(-LIMIT, min(LIMIT, round(total)))


def load_weights(path: str | Path) -> LearnedEval:
    """Read a weights file; any problem is an :class:`ArenaError` of one line naming the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ArenaError(f"weights file {path}: cannot read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ArenaError(f"weights file {path}: not JSON ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
        raise ArenaError(f"weights file {path}: field 'format' should be {WEIGHTS_FORMAT!r}")
    names, weights = data.get("features"), data.get("weights")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ArenaError(f"weights file {path}: field 'features' should be a non-empty list of names")
    unknown = [n for n in names if n not in FEATURES]
    if unknown:
        raise ArenaError(f"weights file {path}: unknown feature {unknown[0]!r} (known: {', '.join(FEATURES)})")
    if (not isinstance(weights, list) or len(weights) != len(names)
            or not all(isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
                       for w in weights)):
        raise ArenaError(f"weights file {path}: field 'weights' should be {len(names)} finite numbers")
    return LearnedEval(names, weights, str(path))


def records_from_db(path: str | Path) -> list[dict[str, Any]]:
    """The records of every stored ``tron`` game in the database ``path`` (which must exist)."""
    from arena.storage.store import Store

    if not Path(path).is_file():
        raise ArenaError(f"--db {path}: no such database file")
    with Store(path) as store:
        return [row.record for row in store.games(game="tron")]
