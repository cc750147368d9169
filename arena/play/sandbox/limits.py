"""The hard limits of a sandboxed bot: part of a run's definition, so a resumed run keeps them."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from typing import Any

from arena.core.errors import ArenaError

DEFAULT_MEMORY = 1 << 30
DEFAULT_PROCESSES = 64
DEFAULT_OPEN_FILES = 256
DEFAULT_FILE_SIZE = 64 << 20
DEFAULT_CPU_SECONDS = 600
DEFAULT_SCRATCH = 64 << 20
DEFAULT_BUILD_BYTES = 256 << 20


@dataclass(frozen=True)
class SandboxLimits:
    """What a sandboxed bot may use; each a hard limit (soft = hard) it cannot raise.

    ``memory``: bytes of address space per process; ``processes``: processes and threads at once;
    ``open_files``: file descriptors per process; ``file_size``: bytes of the largest file it may write;
    ``cpu_seconds``: CPU time per process in a game; ``scratch``: bytes of its private scratch folder;
    ``build_bytes``: bytes its folder may hold during its build, sources and products together (the build
    works in a folder of that size in memory, and only what it holds comes back).
    """

    memory: int = DEFAULT_MEMORY
    processes: int = DEFAULT_PROCESSES
    open_files: int = DEFAULT_OPEN_FILES
    file_size: int = DEFAULT_FILE_SIZE
    cpu_seconds: int = DEFAULT_CPU_SECONDS
    scratch: int = DEFAULT_SCRATCH
    build_bytes: int = DEFAULT_BUILD_BYTES

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ArenaError(f"sandbox {field.name} must be a positive whole number, not {value!r}")
        if self.processes < 4:
            raise ArenaError("sandbox processes must be at least 4: the sandbox itself needs some")

    def as_json(self) -> dict[str, int]:
        """The limits as a JSON object (stored with a run's definition); ``build_bytes`` only when it is not
        the default, so runs planned before it existed keep their fingerprints."""
        data = asdict(self)
        if self.build_bytes == DEFAULT_BUILD_BYTES:
            del data["build_bytes"]
        return data

    @classmethod
    def from_json(cls, data: Any, where: str = "sandbox") -> SandboxLimits:
        """The limits a JSON object or TOML table gives (missing keys keep their defaults); a one-line
        :class:`ArenaError` for anything else."""
        if not isinstance(data, dict):
            raise ArenaError(f"{where} must be true, false or a table of limits")
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ArenaError(f"{where}: unknown limit {unknown[0]!r} (limits: {', '.join(sorted(known))})")
        return cls(**data)


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """A size such as ``512M`` or ``1G`` in bytes; a one-line :class:`ArenaError` for anything else."""
    match = _SIZE.match(text)
    if not match:
        raise ArenaError(f"{text!r} is not a size like 512M or 1G")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])
