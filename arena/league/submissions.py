"""A submission read and built: a Python module (one ``.py`` file) or a program folder (``arena-bot.toml``).

:func:`prepare_submission` reads the files (refusing one too large or with too many files), finds the bot
they define for the league's game, builds it (a module is imported in a child process within the build
time limit; a program runs its build step), both in the sandbox, and returns what the league stores: the bot's name, its
version (the hash the arena gives its source), its files, and whether it built, with the log.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from arena.core.bot import source_version
from arena.core.errors import ArenaError
from arena.league import sandboxing
from arena.league.names import check_name
from arena.play.sandbox.limits import DEFAULT_BUILD_BYTES
from arena.plugins.programs.manifest import MANIFEST, directory_version, read_manifest, source_files
from arena.plugins.stored import PROGRAM, PYTHON

Files = tuple[tuple[str, int, bytes], ...]


@dataclass(frozen=True)
class Submission:
    """A submitted bot, read and built."""

    bot: str
    """The bot's name within its team (what its module or manifest calls it)."""
    version: str
    kind: str
    """``python`` or ``program``."""
    files: Files
    built: bool
    log: str


def prepare_submission(path: Path, game: str, roles: tuple[str, ...], build_timeout: float, max_bytes: int,
                       max_files: int, build_bytes: int = DEFAULT_BUILD_BYTES) -> Submission:
    """Read and build the submission at ``path``; an :class:`ArenaError` if it is not a bot that plays
    ``game`` in each of its ``roles`` (a league rotates every bot through every seat). A build that fails is
    no error: it comes back with ``built`` false and its log. Its folder may hold ``build_bytes`` bytes."""
    if path.is_file() and path.suffix == ".py":
        return _python(path, game, roles, build_timeout, max_bytes)
    if path.is_dir() and (path / MANIFEST).is_file():
        return _program(path, game, roles, build_timeout, max_bytes, max_files, build_bytes)
    raise ArenaError(f"{path}: submit a Python module (a .py file) or a folder with {MANIFEST}")


def _python(path: Path, game: str, roles: tuple[str, ...], build_timeout: float, max_bytes: int) -> Submission:
    size = path.stat().st_size
    if size > max_bytes:
        raise ArenaError(f"{path}: {size} bytes, more than the league takes ({max_bytes})")
    data = path.read_bytes()
    with tempfile.TemporaryDirectory(prefix="arena-submission-") as folder:
        copy = Path(folder) / path.name
        copy.write_bytes(data)
        report = sandboxing.check_module(copy, build_timeout)
        version = source_version(copy)
    files: Files = ((path.name, 0o644, data),)
    if report.problem is not None:
        return Submission(path.stem, version, PYTHON, files, False, report.problem.report(path))
    playing = [facts for facts in report.bots if facts.plays(game) and all(facts.plays(game, r) for r in roles)]
    if len(playing) != 1:
        found = ", ".join(facts.name for facts in report.bots) or "none"
        every_role = f" in every role ({', '.join(roles)})" if roles else ""
        raise ArenaError(f"{path}: a submission defines exactly one bot that plays {game}{every_role}; it "
                         f"defines {len(playing)} (bots found: {found})")
    name = check_name(playing[0].name, "bot")
    return Submission(name, version, PYTHON, files, True, f"imported; defines bot {name} ({playing[0].description})")


def _program(folder: Path, game: str, roles: tuple[str, ...], build_timeout: float, max_bytes: int,
             max_files: int, build_bytes: int) -> Submission:
    manifest = read_manifest(folder / MANIFEST)
    if game not in manifest.games:
        raise ArenaError(f"{folder / MANIFEST}: bot {manifest.name} plays {', '.join(manifest.games)}, not {game}")
    missing = [role for role in roles if manifest.roles and role not in manifest.roles]
    if missing:
        raise ArenaError(f"{folder / MANIFEST}: bot {manifest.name} does not play {', '.join(missing)}; a league "
                         "rotates every bot through every role")
    paths = source_files(folder)
    if len(paths) > max_files:
        raise ArenaError(f"{folder}: {len(paths)} files, more than the league takes ({max_files})")
    total = sum(p.stat().st_size for p in paths)
    if total > max_bytes:
        raise ArenaError(f"{folder}: {total} bytes in all, more than the league takes ({max_bytes})")
    files: Files = tuple((p.relative_to(folder).as_posix(), p.stat().st_mode & 0o777, p.read_bytes()) for p in paths)
    name = check_name(manifest.name, "bot")
    with tempfile.TemporaryDirectory(prefix="arena-submission-") as staging:
        copy = Path(staging)
        for relative, mode, data in files:
            target = copy / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            target.chmod(mode | 0o600)
        version = directory_version(copy)
        built, log = sandboxing.build(manifest.program, copy, build_timeout, build_bytes)
    return Submission(name, version, PROGRAM, files, built, log)
