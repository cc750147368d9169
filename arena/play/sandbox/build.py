"""A bot's build in the sandbox: no network, the hard limits, off the clock, its log kept.

The build runs in a folder of its own at the bot folder's path: a tmpfs of ``build_bytes`` (a
:class:`SandboxLimits` field) inside the sandbox, so nothing it writes reaches the host's disk while it runs.
The folder's files are streamed in (a tar archive on the build's stdin, unpacked by the wrapper below); once the
build succeeds, the wrapper stops everything it started and streams every regular file back, their
``SIZE MODE PATH`` headers first, then their bytes. The arena reads that stream within bounds (:data:`BUILD_FILES`
files, ``build_bytes`` bytes, whatever the stream says) and writes the files the build made or changed into
the bot's folder (never through a link, never outside the folder), so a build can change nothing but its own
folder, by no more than its cap. Its output is read as it comes and capped (:class:`CappedOutput`).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tarfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from arena.core.errors import ArenaError
from arena.play.sandbox.confine import Confinement, kill_sandbox, require_sandbox
from arena.play.sandbox.limits import SandboxLimits
from arena.plugins.programs.build import ensure_built, failure_line
from arena.plugins.programs.manifest import BUILD_TIMEOUT, LOCK, MANIFEST, STAMP, Program, read_manifest
from arena.plugins.programs.output import CHUNK, CappedOutput, drain

BUILD_FILES = 20_000
"""The most files a bot's folder may hold when its build ends."""
NO_ROOM = b"No space left on device"
HEADER_BYTES = 4 << 20
"""The most bytes the headers of a build's files may take together (their names, mostly)."""
WRAPPER = r"""
tar -x -p -f - || { echo "arena: the bot's folder could not be copied into its build" >&2; exit 125; }
exec 0</dev/null
"$@" >&2
status=$?
kill -s KILL -1 2>/dev/null
[ "$status" -eq 0 ] || exit "$status"
list=$(mktemp) && find . -type f -print0 > "$list" || exit 125
xargs -0 -r stat --printf "%s %a %n\0" -- < "$list" && printf "\0" && xargs -0 -r cat -- < "$list"
"""
"""Run inside the sandbox, in the build's folder: unpack the folder from stdin, run the build (its output on
stderr), stop whatever it left running (so nothing writes beside what follows), and send every regular file
back on stdout: a ``SIZE MODE PATH`` header ending in NUL for each, an empty one, then their bytes in order."""


class ProductError(Exception):
    """The stream of a build's files breaks a bound or its format."""


@dataclass(frozen=True)
class BuildLog:
    """How a sandboxed build went: whether it succeeded, why not (one line), its output, how long it took."""

    ok: bool
    error: str
    output: str
    seconds: float
    timed_out: bool = False


def build_in_sandbox(bot_dir: str | Path, command: tuple[str, ...] | None = None, *,
                     timeout: float | None = None, limits: SandboxLimits | None = None) -> BuildLog:
    """Run a bot folder's build confined (its manifest's ``build`` unless ``command`` is given) within
    ``timeout`` seconds (the manifest's ``build_timeout`` by default), and return its :class:`BuildLog`.

    Raises :class:`ArenaError` when the sandbox cannot run here or the folder has no readable manifest.
    """
    require_sandbox()
    directory = Path(bot_dir).resolve()
    if command is None or timeout is None:
        program = read_manifest(directory / MANIFEST).program
        command = program.build if command is None else command
        timeout = program.build_timeout if timeout is None else timeout
    if not command:
        return BuildLog(True, "", "", 0.0)
    return _run_build(tuple(command), directory, timeout, limits or SandboxLimits())


def _run_build(command: tuple[str, ...], directory: Path, timeout: float, limits: SandboxLimits) -> BuildLog:
    started = time.monotonic()
    confinement = Confinement(limits, cwd=str(directory), workspace=str(directory))
    try:
        process, inner = confinement.start(["/bin/sh", "-c", WRAPPER, "sh", *command], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        raise ArenaError(f"--sandbox: bubblewrap could not start ({exc})") from None
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    log = CappedOutput()
    expired = threading.Event()

    def stop() -> None:
        expired.set()
        kill_sandbox(process, inner)

    helpers = [threading.Thread(target=_send_folder, args=(directory, process.stdin), daemon=True),
               threading.Thread(target=drain, args=([(process.stderr, log)],), daemon=True)]
    watchdog = threading.Timer(timeout, stop)
    for helper in (*helpers, watchdog):
        helper.start()
    problem = ""
    try:
        _receive_products(process.stdout, directory, limits.build_bytes)
    except ProductError as exc:
        problem = str(exc)
        kill_sandbox(process, inner)
    finally:
        for helper in helpers:
            helper.join()
        process.wait()
        watchdog.cancel()
        for stream in (process.stdout, process.stderr):
            stream.close()
    seconds = time.monotonic() - started
    if expired.is_set():
        return BuildLog(False, f"{' '.join(command)} took more than its {timeout:g} s budget", "", seconds,
                        timed_out=True)
    output = log.value()
    if problem:
        return BuildLog(False, f"{' '.join(command)}: {problem}", output.decode("utf-8", "replace"), seconds)
    error = "" if process.returncode == 0 else failure_line(command, process.returncode, output)
    if error and NO_ROOM in output:
        error += f" (a build's folder holds at most {limits.build_bytes:,} bytes: build_bytes)"
    return BuildLog(not error, error, output.decode("utf-8", "replace"), seconds)


def _send_folder(directory: Path, stdin: IO[bytes]) -> None:
    """Stream the bot's folder to the build as a tar archive (links as links), each entry its owner's to change."""

    def writable(entry: tarfile.TarInfo) -> tarfile.TarInfo:
        entry.mode |= 0o700 if entry.isdir() else 0o600
        return entry

    # the build may be gone already: its log says why
    with contextlib.suppress(OSError), stdin, tarfile.open(fileobj=stdin, mode="w|", format=tarfile.PAX_FORMAT) as tar:
        for entry in sorted(directory.iterdir()):  # the folder itself is the build's, made for it
            tar.add(str(entry), arcname=entry.name, filter=writable)


class _Stream:
    """The build's file stream, read in chunks, never more than a chunk and a header kept."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.fd = raw.fileno()
        self.buffer = bytearray()
        self.start = 0

    def _fill(self) -> bool:
        chunk = os.read(self.fd, CHUNK)
        if not chunk:
            return False
        del self.buffer[:self.start]
        self.start = 0
        self.buffer += chunk
        return True

    def read(self, most: int) -> bytes:
        """Up to ``most`` bytes; empty at the end of the stream."""
        if self.start >= len(self.buffer) and not self._fill():
            return b""
        taken = bytes(self.buffer[self.start:self.start + most])
        self.start += len(taken)
        return taken

    def header(self) -> bytes | None:
        """The next header, up to its NUL; None at the end of the stream."""
        while (end := self.buffer.find(b"\0", self.start)) < 0:
            if len(self.buffer) - self.start > 8192:
                raise ProductError("its files came back garbled")
            if not self._fill():
                if self.start < len(self.buffer):
                    raise ProductError("its files came back cut short")
                return None
        head = bytes(self.buffer[self.start:end])
        self.start = end + 1
        return head


def _receive_products(raw: IO[bytes], directory: Path, cap: int) -> None:
    """Write each file the stream holds that the folder does not already hold as it is, once every header is
    read and within the bounds (so a build past them brings nothing back)."""
    stream = _Stream(raw)
    files: list[tuple[int, int, bytes]] = []
    total = named = 0
    while header := stream.header():
        try:
            size_text, mode_text, name = header.split(b" ", 2)
            size, mode = int(size_text), int(mode_text, 8)
        except ValueError:
            raise ProductError("its files came back garbled") from None
        files.append((size, mode, name))
        total += size
        named += len(header)
        if len(files) > BUILD_FILES:
            raise ProductError(f"its folder holds more than {BUILD_FILES:,} files")
        if size < 0 or total > cap:
            raise ProductError(f"its folder holds more than {cap:,} bytes (build_bytes)")
        if named > HEADER_BYTES:
            raise ProductError(f"its files' names take more than {HEADER_BYTES:,} bytes")
    if header is None and files:
        raise ProductError("its files came back cut short")
    for size, mode, name in files:
        target = _target(directory, name)
        if target is None:
            _skip(stream, size)
        else:
            _take(stream, size, target, mode)
    if stream.read(1):
        raise ProductError("its files came back garbled")


def _target(directory: Path, name: bytes) -> Path | None:
    """Where a file of the build goes in the bot's folder: None for one the arena keeps itself, or one that
    would be written through a link or outside the folder."""
    relative = PurePosixPath(os.fsdecode(name))
    parts = [part for part in relative.parts if part != "."]
    if not parts or relative.is_absolute() or ".." in parts or "/".join(parts) in (LOCK, STAMP):
        return None
    target = directory.joinpath(*parts)
    if not target.parent.resolve().is_relative_to(directory) or target.is_symlink() or \
            (target.exists() and not target.is_file()):
        return None
    return target


def _skip(stream: _Stream, size: int) -> None:
    while size > 0:
        chunk = stream.read(min(size, CHUNK))
        if not chunk:
            raise ProductError("its files came back cut short")
        size -= len(chunk)


def _take(stream: _Stream, size: int, target: Path, mode: int) -> None:
    """Write the next ``size`` bytes of the stream at ``target``, unless it already holds just them."""
    same = 0
    pending = b""
    if target.is_file() and target.stat().st_size == size:
        with open(target, "rb") as existing:
            while same < size:
                pending = stream.read(min(size - same, CHUNK))
                if not pending:
                    raise ProductError("its files came back cut short")
                if existing.read(len(pending)) != pending:
                    break
                same += len(pending)
                pending = b""
        if same == size:
            return
    missing = [folder for folder in (target.parent, *target.parent.parents) if not folder.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    for folder in missing:
        folder.chmod(0o755)  # the bot's user walks it, whatever the umask
    staging = target.with_name(f".{target.name}.arena-build")
    try:
        with open(staging, "wb") as out:
            if same:
                with open(target, "rb") as existing:
                    _copy_exactly(existing, out, same)
            out.write(pending)
            left = size - same - len(pending)
            while left > 0:
                chunk = stream.read(min(left, CHUNK))
                if not chunk:
                    raise ProductError("its files came back cut short")
                out.write(chunk)
                left -= len(chunk)
        staging.chmod(0o755 if mode & 0o111 else 0o644)  # the bot's user reads it, whatever the umask
        staging.replace(target)
    finally:
        staging.unlink(missing_ok=True)


def _copy_exactly(source: IO[bytes], out: IO[bytes], size: int) -> None:
    while size > 0:
        chunk = source.read(min(size, CHUNK))
        if not chunk:
            raise ProductError("a file of the folder changed while its build came back")
        out.write(chunk)
        size -= len(chunk)


def ensure_built_in_sandbox(program: Program, limits: SandboxLimits) -> None:
    """:func:`arena.plugins.programs.build.ensure_built`, the build run in the sandbox."""

    def execute(built: Program, directory: Path) -> tuple[str, bool]:
        log = _run_build(built.build, directory, built.build_timeout or BUILD_TIMEOUT, limits)
        return log.error, log.timed_out

    require_sandbox()
    ensure_built(program, execute)
