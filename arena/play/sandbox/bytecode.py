"""A sandboxed Python bot's bytecode, kept in its compile cache so its games need not compile it.

The bot's ``prepare`` run (the one run that may write the cache) compiles the bot's module and writes its
bytecode there, checked against the hash of its source (a version unpacked again, with new times, keeps it);
each game of the bot reads it back instead of compiling the module again, which for a module of a few hundred
lines is most of what importing it costs. The file is the bot's own (its cache is no other bot's), read only
in its own games' processes, never in the arena's: what a bot writes there can change only its own play.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
from pathlib import Path
from types import CodeType

FOLDER = "bytecode"
"""The folder of the compile cache that holds the bytecode."""
CHECKED_HASH = (3).to_bytes(4, "little")
"""The flags of a bytecode file checked against its source's hash (PEP 552)."""


def bytecode_file(cache: str | Path, text: bytes) -> Path:
    """Where the bytecode of a module whose source is ``text`` is kept in the compile cache ``cache`` (by its
    source alone: a version unpacked into another folder finds it)."""
    return Path(cache, FOLDER, f"{hashlib.sha256(text).hexdigest()[:32]}.pyc")


def _with_filename(code: CodeType, filename: str) -> CodeType:
    """``code`` and every code object inside it, saying they come from ``filename`` (as tracebacks show)."""
    consts = tuple(_with_filename(const, filename) if isinstance(const, CodeType) else const
                   for const in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def cached_code(source: Path, text: bytes, cache: str | Path, write: bool) -> CodeType:
    """The code of the module at ``source`` (its bytes ``text``): read from the cache when it was compiled from
    this very source, else compiled (and, with ``write``, kept there). A syntax error raises as compiling does."""
    kept = bytecode_file(cache, text)
    expected = importlib.util.MAGIC_NUMBER + CHECKED_HASH + importlib.util.source_hash(text)
    try:
        data = kept.read_bytes()
    except OSError:
        data = b""
    if data[:16] == expected:
        try:
            code = marshal.loads(memoryview(data)[16:])
        except (EOFError, ValueError, TypeError):
            code = None
        if isinstance(code, CodeType):
            return code if code.co_filename == str(source) else _with_filename(code, str(source))
    code = compile(text, str(source), "exec", dont_inherit=True)
    if write:
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial = kept.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(expected + marshal.dumps(code))
        os.replace(partial, kept)
    return code
