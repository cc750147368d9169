"""``arena-bot.toml``: the manifest of a bot directory holding a program in any language.

Keys: ``name``, ``games`` (a list), ``command`` (argv list or a string split like a shell would, run in
the bot's directory), optional ``build`` (the same, run once before the first game), ``protocol``
(``arena-json`` by default, or ``aic2010``), ``roles``, ``description``, ``build_timeout`` and
``startup_timeout`` (seconds).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.plugins.programs.protocols import protocol_named
from arena.plugins.programs.uci import check_option

MANIFEST = "arena-bot.toml"
BUILD_TIMEOUT = 120.0
STARTUP_TIMEOUT = 10.0
KNOWN_KEYS = {"options", "name", "games", "command", "build", "protocol", "roles", "description", "build_timeout",
              "startup_timeout"}
STAMP = ".arena-build.json"
LOCK = ".arena-build.lock"


@dataclass(frozen=True)
class Program:
    """How to run a bot program: its command, where, which protocol, its build and its budgets."""

    command: tuple[str, ...]
    directory: str
    protocol: str = "arena-json"
    build: tuple[str, ...] = ()
    build_timeout: float = BUILD_TIMEOUT
    startup_timeout: float = STARTUP_TIMEOUT
    options: tuple[tuple[str, str], ...] = ()
    """Options the protocol gives the program at the start (UCI's ``setoption``), in order."""


@dataclass(frozen=True)
class Manifest:
    """A parsed ``arena-bot.toml``."""

    name: str
    games: tuple[str, ...]
    program: Program
    roles: tuple[str, ...] = ()
    description: str = ""


def argv_of(value: Any, key: str, where: Path) -> tuple[str, ...]:
    """A command given as a list of strings or as one string (split like a shell would)."""
    if isinstance(value, str):
        argv = tuple(shlex.split(value))
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        argv = tuple(value)
    else:
        raise ArenaError(f"{where}: {key} must be a list of strings or a string")
    if not argv:
        raise ArenaError(f"{where}: {key} is empty")
    return argv


def read_manifest(path: Path) -> Manifest:
    """Read and check a manifest; any problem is one :class:`ArenaError` line naming the file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ArenaError(f"{path}: {exc}") from None
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise ArenaError(f"{path}: unknown key {unknown[0]!r} (keys: {', '.join(sorted(KNOWN_KEYS))})")
    for key in ("name", "games", "command"):
        if key not in data:
            raise ArenaError(f"{path}: {key} is missing")
    name, games, roles = data["name"], data["games"], data.get("roles", [])
    if not isinstance(name, str) or not name.strip() or ":" in name or "," in name:
        raise ArenaError(f"{path}: name must be a non-empty string without ':' or ','")
    for key, value in (("games", games), ("roles", roles)):
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ArenaError(f"{path}: {key} must be a list of strings")
    if not games:
        raise ArenaError(f"{path}: games is empty")
    protocol = data.get("protocol", "arena-json")
    try:
        protocol_named(protocol)
    except ArenaError as exc:
        raise ArenaError(f"{path}: {exc}") from None
    budgets = {}
    for key, default in (("build_timeout", BUILD_TIMEOUT), ("startup_timeout", STARTUP_TIMEOUT)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0 or math.isinf(value):
            raise ArenaError(f"{path}: {key} must be a positive, finite number of seconds, not {value}")
        budgets[key] = float(value)
    build = argv_of(data["build"], "build", path) if "build" in data else ()
    for key, argv in (("command", argv_of(data["command"], "command", path)), ("build", build)):
        if argv and not inside_folder(argv[0], path.parent):
            raise ArenaError(f"{path}: {key} runs {argv[0]!r}, outside the bot's folder: name a program in the "
                             "folder (./bot) or one on PATH (python3, node, java)")
    program = Program(argv_of(data["command"], "command", path), str(path.parent.resolve()), protocol, build,
                      budgets["build_timeout"], budgets["startup_timeout"], _options(data, protocol, path))
    return Manifest(name.strip(), tuple(games), program, tuple(roles), str(data.get("description", "")))


def _options(data: dict[str, Any], protocol: str, path: Path) -> tuple[tuple[str, str], ...]:
    """The ``[options]`` table: the program's options (UCI's ``setoption``), for a protocol that takes them."""
    table = data.get("options", {})
    if not isinstance(table, dict) or any(isinstance(v, dict | list) for v in table.values()):
        raise ArenaError(f"{path}: options must be a table of NAME = VALUE, e.g. options = {{Hash = 16}}")
    if table and not protocol_named(protocol).takes_options:
        raise ArenaError(f"{path}: the {protocol} protocol takes no options")
    options = tuple((str(name), str(value).lower() if isinstance(value, bool) else str(value))
                    for name, value in table.items())
    for name, value in options:
        try:
            check_option(name, value)
        except ValueError as exc:
            raise ArenaError(f"{path}: {exc}") from None
    return options


def inside_folder(program: str, folder: Path) -> bool:
    """Whether a command's program is in the bot's folder (``./bot``, ``bin/run``) or a bare name found there
    or on PATH (``python3``): not a path that leads out of the folder (``../../bin/sh``, ``/bin/sh``)."""
    if "/" not in program:
        return True
    return (folder / program).resolve().is_relative_to(folder.resolve()) and not program.startswith("/")


def _hashed_files(directory: Path, skip: set[str]) -> list[Path]:
    files = []
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory)
        if any(part.startswith(".") or part in ("__pycache__", "node_modules") for part in relative.parts):
            continue
        if path.is_file() and str(relative) not in skip:
            files.append(path)
    return files


def read_stamp(directory: Path) -> dict[str, Any]:
    """The last build's stamp (:data:`STAMP`): the hash of the sources it built, the files it made, whether
    it succeeded; empty if there is none or it cannot be read."""
    try:
        stamp = json.loads((directory / STAMP).read_text())
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def build_products(directory: Path) -> set[str]:
    """The files the last build made or changed (relative paths), as its stamp lists them."""
    products = read_stamp(directory).get("products", [])
    return {str(name) for name in products} if isinstance(products, list) else set()


def directory_hash(directory: Path, skip: set[str] | None = None) -> str:
    """A hash of every file of a bot directory (names and contents), leaving out ``skip`` and dot files."""
    digest = hashlib.sha256()
    for path in _hashed_files(directory, skip or set()):
        digest.update(str(path.relative_to(directory)).encode() + b"\0")
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def source_files(directory: Path) -> list[Path]:
    """The files a bot directory's version covers: all but dot files, ``__pycache__``, ``node_modules`` and
    what its last build made or changed (as its stamp lists them)."""
    return _hashed_files(directory, build_products(directory))


def directory_version(directory: Path) -> str:
    """A bot directory's version: the hash of its source files, leaving out what its build made or changed.

    The same before and after the build (a build's products are not sources), so ``arena check bot`` and
    a tournament see one version per source; a changed source file is a new version.
    """
    return directory_hash(directory, build_products(directory))[:8]


def file_snapshot(directory: Path) -> dict[str, tuple[int, int]]:
    """Size and modification time of every hashed file, to tell what a build made."""
    snapshot = {}
    for path in _hashed_files(directory, set()):
        stat = path.stat()
        snapshot[str(path.relative_to(directory))] = (stat.st_size, stat.st_mtime_ns)
    return snapshot
