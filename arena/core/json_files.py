"""JSON documents on disk (models, tables, checkpoints, policies): written atomically, read with one-line errors."""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError


def finite_json(value: Any) -> Any:
    """``value`` with every float that is not finite (a standard deviation of one value, say) as ``None``: JSON
    has no NaN or infinity, and a reader's parser may refuse them."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(item) for item in value]
    return value


def json_text(value: Any, indent: int | None = 2) -> str:
    """``value`` as standard JSON text: non-finite floats written as ``null`` (see :func:`finite_json`)."""
    return json.dumps(finite_json(value), indent=indent, allow_nan=False)


def write_json_atomically(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` through a temporary file, so a reader never sees half a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w") as file:
                json.dump(data, file, separators=(",", ":"))
                file.write("\n")
            os.chmod(temporary, 0o666 & ~_umask())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ArenaError(f"{path}: cannot write ({exc.strerror or exc})") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_json_file(path: str | Path, missing: str, unreadable: str) -> Any:
    """The JSON document in ``path``; an :class:`ArenaError` ``"PATH: <missing>"`` if there is no such file, or
    ``"PATH: <unreadable> (why)"`` if it cannot be read or parsed."""
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ArenaError(f"{path}: {missing}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ArenaError(f"{path}: {unreadable} ({exc})") from None
