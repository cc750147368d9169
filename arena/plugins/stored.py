"""Stored bot versions: an older version of a bot, kept in the database, played again as ``name@version``.

The database keeps the source a bot's version covers the first time the version plays (a Python bot's
module file, a program bot's files). A :class:`StoredBot` carries those files; :func:`stored_bot_class`
unpacks them into a folder of their own (one per version and contents, in a private root of
:mod:`arena.plugins.stored_roots` that the process, or the ladder whose worker it is, removes when done) and
imports the module, or reads the manifest, there.
The class it gives is named ``name@version``, so the old version plays, and is rated, beside the current one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from arena.core.bot import Bot, source_version
from arena.core.errors import ArenaError
from arena.plugins.bot_modules import BotModuleError, bots_defined_in, confined_class, import_bot_module
from arena.plugins.module_check import check_modules, import_time_limit
from arena.plugins.module_probe import ProbeStarter
from arena.plugins.programs.bot import manifest_bot
from arena.plugins.programs.manifest import MANIFEST, read_manifest
from arena.plugins.stored_roots import process_root

PYTHON = "python"
PROGRAM = "program"
VERSION_MARK = "@"


@dataclass(frozen=True)
class StoredBot:
    """One stored version of a bot: its name, version, kind (``python`` or ``program``) and files
    ``(path inside its folder, mode, contents)``."""

    name: str
    version: str
    kind: str
    files: tuple[tuple[str, int, bytes], ...]
    defines: str | None = None
    """The name a Python version's module gives its bot, when the version plays under another ``name``
    (a league plays ``alice/hugger``, whose module defines ``hugger``); ``None``: ``name``."""

    @property
    def label(self) -> str:
        """The name the stored version plays under: ``name@version``."""
        return f"{self.name}{VERSION_MARK}{self.version}"


def folder_name(bot: StoredBot) -> str:
    """The name of ``bot``'s folder in a root: its name, version and a hash of its files."""
    digest = hashlib.sha256()
    for name, mode, data in bot.files:
        digest.update(name.encode() + b"\0" + str(mode).encode() + b"\0" + data + b"\0")
    safe_name = re.sub(r"[^\w.-]", "_", bot.name)
    return f"{safe_name}-{bot.version}-{digest.hexdigest()[:16]}"


def unpacked(bot: StoredBot, root: Path | None = None) -> Path:
    """The folder holding ``bot``'s files in ``root`` (this process's own root by default), written once
    (atomically) and reused while its contents are the same.

    The folder is ``0755`` and its files ``0644`` (``0755`` if any execute bit was set): the sandbox binds the
    folder alone, and its unprivileged user must read it; the root around it (``0700``) keeps other users out.
    """
    root = process_root() if root is None else root
    target = root / folder_name(bot)
    if target.is_dir():
        return target
    staging = Path(tempfile.mkdtemp(dir=root, prefix=".unpacking-"))
    try:
        for name, mode, data in bot.files:
            relative = PurePosixPath(name)
            if relative.is_absolute() or ".." in relative.parts:
                raise ArenaError(f"stored bot {bot.label}: file {name!r} lies outside its folder")
            path = staging.joinpath(*relative.parts)
            for parent in reversed(path.relative_to(staging).parents[:-1]):
                (staging / parent).mkdir(mode=0o755, exist_ok=True)
                (staging / parent).chmod(0o755)  # whatever the umask
            path.write_bytes(data)
            path.chmod(0o755 if mode & 0o111 else 0o644)
        staging.chmod(0o755)
        staging.rename(target)
    except OSError:
        if not target.is_dir():  # not another process's copy, which got there first
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def prune_unpacked(root: Path, keep: Iterable[StoredBot]) -> list[str]:
    """Remove from ``root`` the folders of every version but ``keep`` (no longer played); the names removed."""
    kept = {folder_name(bot) for bot in keep}
    removed = []
    for entry in root.iterdir():
        if entry.name.startswith(".") or entry.name in kept:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry.name)
    return sorted(removed)


def stored_bot_class(bot: StoredBot, build_timeout: float | None = None,
                     startup_timeout: float | None = None, confined: ProbeStarter | None = None,
                     root: Path | None = None) -> type[Bot]:
    """The bot class of a stored version, named ``name@version`` and left out of default fields; an
    :class:`ArenaError` if its files no longer make that version. Its files are unpacked in ``root`` (this
    process's own root by default). With ``confined`` (under the sandbox) a Python version's module is not
    imported here: a confined probe reports its bots, and the class is a stand-in made from that report,
    played only through the sandbox's runner."""
    try:
        directory = unpacked(bot, root)
    except OSError as exc:
        raise ArenaError(f"stored bot {bot.label}: cannot unpack its files ({exc})") from None
    if bot.kind == PYTHON:
        cls = _python_class(bot, directory) if confined is None else _confined_python_class(bot, directory, confined)
    elif bot.kind == PROGRAM:
        manifest = read_manifest(directory / MANIFEST)
        cls = manifest_bot(dataclasses.replace(manifest, name=bot.label), build_timeout, startup_timeout)
        if cls.version != bot.version:
            raise ArenaError(f"stored bot {bot.label}: its files hash to version {cls.version}")
    else:
        raise ArenaError(f"stored bot {bot.label}: unknown kind {bot.kind!r}")
    cls.in_default_field = False
    return cls


def _module_of(bot: StoredBot, directory: Path) -> Path:
    """The module file of a stored Python version, checked to hash to its version."""
    if len(bot.files) != 1:
        raise ArenaError(f"stored bot {bot.label}: a Python bot is kept as one module, not {len(bot.files)} files")
    path = directory / bot.files[0][0]
    if source_version(path) != bot.version:
        raise ArenaError(f"stored bot {bot.label}: its module hashes to version {source_version(path)}")
    return path


def _confined_python_class(bot: StoredBot, directory: Path, confined: ProbeStarter) -> type[Bot]:
    path = _module_of(bot, directory)
    report = check_modules([path], import_time_limit(), starter=confined)[path]
    if report.problem is not None:
        raise ArenaError(f"stored bot {bot.label}: {report.problem.describe(path)}")
    defined = bot.defines or bot.name
    found = [facts for facts in report.bots if facts.name == defined]
    if not found:
        raise ArenaError(f"stored bot {bot.label}: its module defines no bot named {defined!r}")
    return confined_class(dataclasses.replace(found[0], name=bot.label), path, defined_as=defined)


def _python_class(bot: StoredBot, directory: Path) -> type[Bot]:
    path = _module_of(bot, directory)
    try:
        module = import_bot_module(path)
    except BotModuleError as exc:
        raise ArenaError(f"stored bot {bot.label}: {path}: {exc}") from None
    defined = bot.defines or bot.name
    found = [cls for cls in bots_defined_in(module) if cls.name == defined]
    if not found:
        raise ArenaError(f"stored bot {bot.label}: its module defines no bot named {defined!r}")
    original = found[0]
    attrs = {"name": bot.label, "__doc__": original.__doc__, "__module__": original.__module__,
             "__qualname__": original.__qualname__, "defined_as": defined}
    return type(original.__name__, (original,), attrs)

