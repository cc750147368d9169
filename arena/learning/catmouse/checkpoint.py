"""Checkpoint files: a training run's whole state as JSON, so a stopped run resumes exactly where it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.core.json_files import write_json_atomically

CHECKPOINT_FORMAT = "arena-catmouse-training/1"


class CheckpointError(ArenaError):
    """A checkpoint that is missing, unreadable, or from another kind of run."""


def save_checkpoint(path: str | Path, kind: str, state: dict[str, Any]) -> None:
    """Write the state of a ``kind`` run (``full`` or ``window``) atomically."""
    write_json_atomically(Path(path), {"format": CHECKPOINT_FORMAT, "kind": kind, **state})


def load_checkpoint(path: str | Path, kind: str) -> dict[str, Any]:
    """Read the checkpoint of a ``kind`` run; any problem is a one-line :class:`CheckpointError`."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no checkpoint to resume from") from None
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot read checkpoint ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"{path}: not a JSON checkpoint ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(f"{path}: not a catmouse training checkpoint")
    if data.get("kind") != kind:
        raise CheckpointError(f"{path}: a checkpoint of a {data.get('kind')} run, not a {kind} run")
    return data
