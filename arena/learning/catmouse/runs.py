"""Training runs from start to policy file: settings from a map and options, or from a checkpoint to resume;
the policy written at the end. The command line adds progress display and Ctrl-C handling around them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.engines.catmouse.policies import Policy, PolicyError, load_policy, save_policy
from arena.games.catmouse.game import load_board, move_limit
from arena.games.catmouse.layouts import layout_rows
from arena.learning.catmouse.checkpoint import load_checkpoint, save_checkpoint
from arena.learning.catmouse.full_policy_trainer import FullSettings, FullTrainer
from arena.learning.catmouse.window_policy_trainer import WindowSettings, WindowTrainer

RUNS_DIR = Path("runs")
"""Where a training run writes its policy and checkpoint when given no ``--out``: ``runs/catmouse-<kind>/``."""
DEFAULT_FULL_MAP = "catmouse_8x7"
DEFAULT_WINDOW_MAP = "catmouse_5x5"
DEFAULT_OPPONENTS_BY_LEARNER_ROLE = {"cat": ("random", "wary"), "mouse": ("random", "greedy")}
"""The scripted opponents a window policy trains against by default, in turn, keyed by the role it learns."""


@dataclass
class TrainingRun:
    """A trainer ready to run (``kind`` full or window), the policy file it will write and its checkpoint."""

    kind: str
    trainer: Any
    out: Path
    checkpoint: Path

    def save_checkpoint(self) -> None:
        """Save the trainer's state, so that ``--resume`` goes on from here."""
        save_checkpoint(self.checkpoint, self.kind, self.trainer.checkpoint())


def default_out(kind: str) -> Path:
    """The policy file of a run given no ``--out``: ``runs/catmouse-<kind>/policy.json``."""
    return RUNS_DIR / f"catmouse-{kind}" / "policy.json"


def checkpoint_path(out: Path, checkpoint: Path | None) -> Path:
    """The checkpoint file: as given, else ``checkpoint.json`` beside a run folder's ``policy.json``, else the
    policy file's name with ``.checkpoint.json``."""
    if checkpoint is not None:
        return checkpoint
    if out.name == "policy.json":
        return out.with_name("checkpoint.json")
    return out.with_name(out.stem + ".checkpoint.json")


def _prepared(run: TrainingRun) -> TrainingRun:
    for path in (run.out, run.checkpoint):
        path.parent.mkdir(parents=True, exist_ok=True)
    return run


def merge_settings(stored: Any, given: dict[str, Any], resumable: tuple[str, ...] = ("iterations",)) -> Any:
    """Settings of a resumed run: the stored ones, where every option given must agree (``iterations`` may grow)."""
    changes = {}
    for key, value in given.items():
        if value is None:
            continue
        current = getattr(stored, key)
        if key in resumable:
            changes[key] = value
        elif value != current:
            raise ArenaError(f"--{key.replace('_', '-')} {value!r} differs from the checkpoint's {current!r}; "
                             "leave it out to resume, or start afresh without --resume")
    return dataclasses.replace(stored, **changes)


def damaged_guard(path: Path, build: Callable[[], Any]) -> Any:
    """``build()``, with a damaged checkpoint (missing or malformed fields) reported in one line."""
    try:
        return build()
    except ArenaError as exc:
        raise ArenaError(f"{path}: the checkpoint is damaged ({exc})") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ArenaError(f"{path}: the checkpoint is damaged ({type(exc).__name__}: {exc})") from None


def resumed_settings(path: Path, kind: str, from_json: Any, map_spec: str | None, given: dict[str, Any]
                     ) -> tuple[dict[str, Any], Any]:
    """A checkpoint's data and its settings with the given ones applied, checked against ``--map``."""
    data = load_checkpoint(path, kind)
    settings = damaged_guard(path, lambda: from_json(data["settings"]))
    if map_spec is not None:
        _, layout, _ = load_board(map_spec)
        if tuple(layout_rows(layout)) != settings.board:
            raise ArenaError(f"--map {map_spec} is not the board of the checkpoint; leave it out to resume")
    settings = merge_settings(settings, given)
    if settings.iterations < data["iteration"]:
        raise ArenaError(f"--iterations {settings.iterations} is fewer than the {data['iteration']} "
                         "the checkpoint has done")
    return data, settings


def open_full_run(map_spec: str | None, given: dict[str, Any], out: Path | None = None,
                  checkpoint: Path | None = None, resume: bool = False) -> TrainingRun:
    """A version-1 training (both full policies): new from ``map_spec`` and ``given``, or resumed."""
    out = out or default_out("full")
    path = checkpoint_path(out, checkpoint)
    if resume:
        data, settings = resumed_settings(path, "full", FullSettings.from_json, map_spec, given)
        return _prepared(TrainingRun("full", damaged_guard(path, lambda: FullTrainer(settings, data)), out, path))
    _, layout, options = load_board(map_spec or DEFAULT_FULL_MAP)
    values = {key: value for key, value in given.items() if value is not None}
    values.setdefault("first", options["first"])
    return _prepared(TrainingRun("full", FullTrainer(FullSettings(tuple(layout_rows(layout)), **values)), out, path))


def open_window_run(map_spec: str | None, given: dict[str, Any], out: Path | None = None,
                    checkpoint: Path | None = None, resume: bool = False) -> TrainingRun:
    """A version-2 training (one role's window policy): new from ``map_spec`` and ``given``, or resumed.

    A new run takes what is not given from the map: the first mover, the repetition rule and the
    mouse's move limit (a map without one needs ``max_moves``).
    """
    out = out or default_out("window")
    path = checkpoint_path(out, checkpoint)
    if resume:
        data, settings = resumed_settings(path, "window", WindowSettings.from_json, map_spec, given)
        return _prepared(TrainingRun("window", damaged_guard(path, lambda: WindowTrainer(settings, data)), out,
                                     path))
    _, layout, options = load_board(map_spec or DEFAULT_WINDOW_MAP)
    values = {key: value for key, value in given.items() if value is not None}
    role = values.setdefault("role", "cat")
    values.setdefault("opponents", DEFAULT_OPPONENTS_BY_LEARNER_ROLE.get(role, ()))
    values.setdefault("first", options["first"])
    values.setdefault("repeat", options["repeat"] == "on")
    if "max_moves" not in values:
        limit = move_limit(options, layout)
        if limit is None:
            raise ArenaError("window training needs a move limit: give --max-moves")
        values["max_moves"] = limit
    return _prepared(TrainingRun("window", WindowTrainer(WindowSettings(tuple(layout_rows(layout)), **values)),
                                 out, path))


def write_full_policies(run: TrainingRun, finished: bool) -> None:
    """Save the checkpoint and write both roles' policies to the run's policy file."""
    run.save_checkpoint()
    save_policy(run.trainer.policy({"complete": finished}), run.out)


def write_window_policy(run: TrainingRun, finished: bool) -> list[str]:
    """Save the checkpoint and write the role's window policy, keeping a window policy of the other role
    already in the file; return the roles kept."""
    run.save_checkpoint()
    role = run.trainer.settings.role
    existing = _existing_window_policy(run.out)
    policy = run.trainer.policy({"complete": finished})
    kept: list[str] = []
    if existing is not None:
        kept = sorted(set(existing.moves) - {role})
        policy.moves = {**existing.moves, **policy.moves}
        policy.training = {**existing.training, **policy.training}
    save_policy(policy, run.out)
    return kept


def _existing_window_policy(out: Path) -> Policy | None:
    if not out.exists():
        return None
    try:
        policy = load_policy(out)
    except PolicyError:
        return None
    return policy if policy.kind == "window" else None


def milestone_lines(milestones: list[dict[str, Any]], games: int, noun: str) -> list[str]:
    """The milestones of a window run in words."""
    lines = []
    for milestone in milestones:
        if milestone["event"] == "start":
            lines.append(f"iteration {milestone['iteration']}: starts against {milestone['opponent']} with "
                         f"{noun} {milestone['wins']}/{games}")
        else:
            lines.append(f"iteration {milestone['iteration']}: {noun} {games}/{games} against "
                         f"{milestone['opponent']}, {milestone['phase_iteration']} iterations after starting on it")
    return lines
