"""The on-disk cache of bot module checks: what each module defines, keyed by its content.

A module is checked again when its content, the arena's version or the Python that runs it changes. The
cache is a convenience: an entry that cannot be read or written is simply checked again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from arena.core.paths import CACHE_VARIABLE, arena_cache_dir
from arena.core.version import VERSION

__all__ = ["CACHE_VARIABLE", "arena_cache_dir"]

FORMAT = "bot-modules-2"
"""Changes when the cached records change shape, so that old records are never misread."""


def module_key(content: bytes) -> str:
    """The cache key of a module with this content, under this arena and this Python installation."""
    digest = hashlib.sha256(f"{FORMAT}\0{VERSION}\0{sys.version}\0{sys.prefix}\0".encode())
    digest.update(content)
    return digest.hexdigest()


class ModuleCache:
    """Records of checked modules, one small JSON file each, under ``directory/bot-modules``."""

    def __init__(self, directory: Path | None = None):
        self.directory = (directory or arena_cache_dir()) / "bot-modules"

    def get(self, key: str) -> dict[str, Any] | None:
        """The record stored under ``key``, or ``None`` when there is none or it cannot be read."""
        try:
            record = json.loads((self.directory / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        """Store ``record`` under ``key``; a cache that cannot be written is left as it is."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    json.dump(record, file)
                os.replace(temporary, self.directory / f"{key}.json")
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:
            pass
