"""Fitting a learned Tron evaluation: least squares, without an intercept, on the target ``result - 0.5``.

Every feature is a difference "ours minus theirs", so swapping the players flips both sides. The
baseline is the hand-set evaluation of ``voronoi``: the Voronoi difference alone (its one weight
fitted the same way, which changes its mean squared error but not its sign accuracy).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.engines.tron.features import CHAMBER_FEATURES
from arena.engines.tron.learned_eval import SCALE, WEIGHTS_FORMAT
from arena.learning.tron.dataset import DataSet, split_games


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares weights (no intercept) predicting ``y - 0.5`` from ``x``."""
    weights: np.ndarray = np.linalg.lstsq(x, y - 0.5, rcond=None)[0]
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
    names: tuple[str, ...]
    baseline_weight: float
    games: dict[str, int]
    positions: dict[str, int]
    errors: dict[str, dict[str, float]]
    seed: int
    holdout: float

    def to_json(self) -> dict[str, Any]:
        """The weights file's contents."""
        return {"format": WEIGHTS_FORMAT, "features": list(self.names), "weights": self.weights,
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
    vt, vh = data.voronoi[in_train, None], data.voronoi[~in_train, None]
    base = fit(vt, yt)
    result_errors = {"train": errors(xt, yt, weights), "holdout": errors(xh, yh, weights),
                     "baseline_train": errors(vt, yt, base), "baseline_holdout": errors(vh, yh, base)}
    return TrainResult([float(w) for w in weights], data.names, float(base[0]),
                       {"train": len(train_games), "holdout": len(held_games), "skipped": data.skipped},
                       {"train": int(in_train.sum()), "holdout": int((~in_train).sum())},
                       result_errors, seed, holdout)


def chamber_weights(result: TrainResult) -> tuple[int, int] | None:
    """Fitted weights of the ``chamber`` evaluation's own terms as its whole-number ``(cells, edges)``.

    Scaled so that the larger in size is 7, as with ``chamber`` version 2's weights 2 and 7 (which this maps
    to themselves), so the search's aspiration window keeps about its width in cells. ``None`` unless exactly
    the two :data:`~arena.engines.tron.features.CHAMBER_FEATURES` were fitted, or if both weights are 0.
    """
    if result.names != CHAMBER_FEATURES:
        return None
    largest = max(abs(weight) for weight in result.weights)
    if largest == 0:
        return None
    cells, edges = (round(7 * weight / largest) for weight in result.weights)
    return cells, edges


def save_weights(result: TrainResult, path: str | Path) -> None:
    """Write the weights file (JSON)."""
    try:
        Path(path).write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"{path}: cannot write weights ({exc.strerror or exc})") from None
