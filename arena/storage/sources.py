"""Bot sources kept in the database, and ``name@version`` specs resolved to them.

The first time a version of a bot plays, the database keeps what its version hashes: a Python bot's module
file (at most :data:`PYTHON_CAP` bytes), or a program bot's files as its version covers them (the files
before its build, at most :data:`PROGRAM_CAP` bytes in all). ``exec:`` specs, whose program lies
anywhere, are not kept. A spec naming ``name@VERSION`` (any unique prefix of a stored version) is then
resolved to that version's :class:`~arena.plugins.stored.StoredBot`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from arena.core.bot import parse_bot_spec
from arena.core.errors import BotSpecError
from arena.plugins.programs.bot import ExecBot, ProgramBot
from arena.plugins.programs.manifest import directory_version, source_files
from arena.plugins.registry import BotEntry, PluginConfig, Registry, add_stored_bots
from arena.plugins.stored import PROGRAM, PYTHON, VERSION_MARK, StoredBot
from arena.plugins.stored_roots import process_root
from arena.storage.store import Store, default_db_path

PYTHON_CAP = 2**20
"""The largest Python module kept (1 MB)."""
PROGRAM_CAP = 16 * 2**20
"""The most a program bot's files may hold in all to be kept (16 MB)."""

Files = list[tuple[str, int, bytes]]


def current_source(entry: BotEntry, version: str) -> tuple[str, Files] | None:
    """The kind and files of a registered bot's ``version`` as the database keeps them, or ``None`` when
    they are not kept (an ``exec:`` spec, a stored version, files past the cap, or files that no longer
    make ``version``)."""
    cls = entry.cls
    if entry.plugin == "stored" or issubclass(cls, ExecBot):
        return None
    if issubclass(cls, ProgramBot):
        if cls.program is None:
            return None
        directory = Path(cls.program.directory)
        paths = source_files(directory)
        if sum(path.stat().st_size for path in paths) > PROGRAM_CAP or directory_version(directory) != version:
            return None
        return PROGRAM, [(path.relative_to(directory).as_posix(), path.stat().st_mode & 0o777, path.read_bytes())
                         for path in paths]
    path = Path(entry.source)
    try:
        if not path.is_file() or path.stat().st_size > PYTHON_CAP:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest()[:8] != version:
        return None
    return PYTHON, [(path.name, 0o644, data)]


def keep_source(store: Store, entry: BotEntry, version: str) -> None:
    """Keep the source of ``version`` of a registered bot, the first time it plays (see :func:`current_source`)."""
    if entry.plugin == "stored" or store.has_source(entry.name, version):
        return
    found = current_source(entry, version)
    if found is not None:
        store.keep_source(entry.name, version, *found)


def names_stored_version(text: str) -> bool:
    """Whether a bot spec names a stored version (``name@version``)."""
    return VERSION_MARK in text.partition(":")[0]


def resolve_stored(store: Store, texts: Sequence[str]) -> tuple[list[str], tuple[StoredBot, ...]]:
    """``texts`` with each ``name@prefix`` spelled out as ``name@version``, and the stored versions they name.

    An unknown or ambiguous prefix is a one-line :class:`BotSpecError`.
    """
    resolved, bots = [], {}
    for text in texts:
        name, _ = parse_bot_spec(text)
        if VERSION_MARK not in name:
            resolved.append(text)
            continue
        base, _, prefix = name.partition(VERSION_MARK)
        stored = store.source_versions(base)
        matching = [(version, kind) for version, kind in stored if version.startswith(prefix.lower())]
        if not matching:
            listing = (f"stored: {', '.join(sorted(version for version, _ in stored))}" if stored else
                       f"{store.path} keeps no version of it; a version is kept the first time it plays")
            raise BotSpecError(f"bot spec {text!r}: no stored version of {base!r} starts with {prefix!r} ({listing})")
        if len(matching) > 1:
            raise BotSpecError(f"bot spec {text!r}: {prefix!r} is ambiguous, it starts versions "
                               f"{', '.join(sorted(version for version, _ in matching))} of {base!r}; give more of it")
        version, kind = matching[0]
        bot = StoredBot(base, version, kind, tuple(store.source_files(base, version)))
        bots[bot.label] = bot
        resolved.append(text.replace(name, bot.label, 1))
    return resolved, tuple(bots.values())


def stored_bots_of(store: Store, labels: Iterable[str]) -> tuple[StoredBot, ...]:
    """The stored versions that already spelled-out specs (a stored run's) name."""
    return resolve_stored(store, [label for label in labels if names_stored_version(label)])[1]


def use_stored_versions(texts: Sequence[str], db: str | Path | None, registry: Registry,
                        config: PluginConfig) -> tuple[list[str], PluginConfig]:
    """Bot specs with their stored versions (``name@prefix``) spelled out and registered in ``registry``, and
    the configuration that registers them in worker processes too; the database ``db`` (the default one if
    ``None``) is only opened when a spec names a stored version."""
    if not any(names_stored_version(text) for text in texts):
        return list(texts), config
    path = Path(db) if db is not None else default_db_path()
    if not path.is_file():
        raise BotSpecError(f"{', '.join(t for t in texts if names_stored_version(t))}: names a stored version, but "
                           f"there is no database {path} (--db) to keep it")
    with Store(path) as store:
        resolved, bots = resolve_stored(store, texts)
    config = replace(config, stored_bots=(*config.stored_bots, *bots),
                     stored_dir=config.stored_dir or str(process_root()))  # the workers unpack where this process does
    add_stored_bots(registry, bots, config)
    return resolved, config
