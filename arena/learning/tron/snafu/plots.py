"""Success curves of the scaling experiment as an image (matplotlib, from the optional ``plots`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from arena.core.errors import ArenaError
from arena.learning.tron.snafu.summary import Curve, StrategySummary

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MISSING = "plots need matplotlib: pip install -e '.[plots]'"


def check_plot_path(path: Path) -> None:
    """Refuse, before any work, a plot file that is not .png or .svg, or plots without matplotlib."""
    if path.suffix.lower() not in (".png", ".svg"):
        raise ArenaError(f"{path}: plots are .png or .svg files")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ArenaError(MISSING) from None


def plot_curves(summaries: list[StrategySummary], path: Path) -> None:
    """One panel per strategy: the 15x15 training curve, and trained against untrained on 30x30 (mean ± sd
    against games); PNG or SVG by ``path``'s suffix."""
    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(len(summaries), 2, figsize=(10, 3 * len(summaries)), squeeze=False)
    for row, summary in zip(axes, summaries, strict=True):
        _band(row[0], summary.train, "15x15, learning", "tab:gray")
        row[0].set_title(f"{summary.strategy}: training on 15x15")
        _band(row[1], summary.trained, "trained", "tab:blue")
        _band(row[1], summary.untrained, "untrained", "tab:orange")
        row[1].set_title(f"{summary.strategy}: 30x30, z = {summary.z_test.z:+.2f}")
        for axis in row:
            axis.set_xlabel("games")
            axis.set_ylabel("success")
            axis.axhline(0, color="black", linewidth=0.5)
            axis.legend(loc="lower right")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)


def _band(axis: Axes, found: Curve, label: str, color: str) -> None:
    games = np.arange(1, len(found.mean) + 1)
    axis.plot(games, found.mean, color=color, label=label)
    axis.fill_between(games, found.mean - found.sd, found.mean + found.sd, color=color, alpha=0.2)
