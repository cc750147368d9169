"""Uploaded bots checked and unpacked: a single ``.py`` file, or a folder sent as a ``.zip`` or ``.tar.gz``.

Nothing is written until the whole upload has passed its checks: its size, its number of files, every
member's name (relative, no ``..``, no drive letter or backslash), its kind (regular files and folders only:
no links, devices or pipes) and the size it unpacks to, both as the archive declares it and as it really
decompresses (a gzip stream is inflated with a cap, so a bomb stops at the limit, never in memory). A folder
whose files all sit in one top folder (as zipping a folder makes it) is unpacked to that folder.
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from arena.core.errors import ArenaError


class UploadError(ArenaError):
    """An upload refused before anything was written: the message says why."""


class UploadTooLarge(UploadError):
    """An upload over a size or count limit."""


@dataclass(frozen=True)
class UploadLimits:
    """How big an upload may be: bytes sent, files in an archive, and bytes once unpacked."""

    max_bytes: int = 5 * 1024 * 1024
    max_files: int = 200
    max_unpacked_bytes: int = 20 * 1024 * 1024


ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz")
"""The archive kinds a folder may be sent as."""
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")


@dataclass(frozen=True)
class _Member:
    path: PurePosixPath
    is_dir: bool
    size: int


_Reader = Callable[[_Member], bytes]
"""Reads one checked member's contents."""


def upload_kind(filename: str) -> str:
    """``py``, ``zip`` or ``tar.gz`` for an upload's file name; raises :class:`UploadError` for anything else."""
    lowered = filename.lower()
    if lowered.endswith(".py"):
        return "py"
    if lowered.endswith(".zip"):
        return "zip"
    if lowered.endswith((".tar.gz", ".tgz")):
        return "tar.gz"
    raise UploadError(f"{filename!r} is neither a .py file nor a folder as .zip or .tar.gz")


def unpack_upload(filename: str, data: bytes, destination: Path, limits: UploadLimits = UploadLimits()) -> Path:
    """Check the upload ``data`` named ``filename`` and write it under the (empty, existing) ``destination``.

    Returns what to submit: the ``.py`` file, or the folder the archive unpacks to. Raises
    :class:`UploadError` (with nothing written) for an upload that breaks a rule.
    """
    if not data:
        raise UploadError("the upload is empty")
    if len(data) > limits.max_bytes:
        raise UploadTooLarge(f"the upload is larger than {limits.max_bytes:,} bytes, the most accepted")
    kind = upload_kind(filename)
    if kind == "py":
        return _write_module(filename, data, destination)
    members, contents = _zip_members(data) if kind == "zip" else _tar_members(data, limits)
    _check_members(members, limits)
    files = {member.path: contents(member) for member in members if not member.is_dir}
    unpacked = sum(len(content) for content in files.values())
    if unpacked > limits.max_unpacked_bytes:
        raise UploadTooLarge(f"the archive unpacks to more than {limits.max_unpacked_bytes:,} bytes")
    if not files:
        raise UploadError("the archive holds no files")
    root = destination / _folder_name(filename)
    root.mkdir()
    for path, content in files.items():
        target = root.joinpath(*path.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    return _single_top_folder(root, files)


def _write_module(filename: str, data: bytes, destination: Path) -> Path:
    name = PurePosixPath(filename.replace("\\", "/")).name
    if not set(name) <= _NAME_CHARACTERS or name.startswith("."):
        raise UploadError(f"{filename!r} is not a module file name (letters, digits, '_', '-' and '.')")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadError(f"{name} is not UTF-8 text") from None
    target = destination / name
    target.write_bytes(data)
    return target


def _folder_name(filename: str) -> str:
    name = PurePosixPath(filename.replace("\\", "/")).name
    for suffix in ARCHIVE_SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    cleaned = "".join(char if char in _NAME_CHARACTERS else "_" for char in name).strip(".")
    return cleaned or "bot"


def _member_path(name: str) -> PurePosixPath:
    """The relative path of an archive member named ``name``, or :class:`UploadError` if it could leave the
    folder it is unpacked into."""
    if "\x00" in name or "\\" in name:
        raise UploadError(f"the archive member {name!r} has a backslash or NUL in its name")
    path = PurePosixPath(name)
    if path.is_absolute() or (path.parts and path.parts[0].endswith(":")):
        raise UploadError(f"the archive member {name!r} has an absolute path")
    if ".." in path.parts:
        raise UploadError(f"the archive member {name!r} climbs out of the folder with '..'")
    parts = [part for part in path.parts if part != "."]
    if not parts:
        raise UploadError(f"the archive member {name!r} has no name")
    return PurePosixPath(*parts)


def _check_members(members: list[_Member], limits: UploadLimits) -> None:
    files = [member for member in members if not member.is_dir]
    if len(files) > limits.max_files:
        raise UploadTooLarge(f"the archive holds {len(files)} files; at most {limits.max_files} are accepted")
    declared = sum(member.size for member in files)
    if declared > limits.max_unpacked_bytes:
        raise UploadTooLarge(f"the archive unpacks to {declared:,} bytes; at most {limits.max_unpacked_bytes:,} "
                          "are accepted")
    seen: set[PurePosixPath] = set()
    for member in files:
        if member.path in seen:
            raise UploadError(f"the archive holds {str(member.path)!r} twice")
        seen.add(member.path)
    for member in files:  # a file may not also be a folder another file sits in
        for parent in member.path.parents:
            if parent in seen:
                raise UploadError(f"the archive holds {str(parent)!r} both as a file and as a folder")


def _zip_members(data: bytes) -> tuple[list[_Member], _Reader]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise UploadError(f"the upload is not a readable zip archive ({exc})") from None
    members = []
    by_path: dict[PurePosixPath, zipfile.ZipInfo] = {}
    for info in infos:
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise UploadError(f"the archive member {info.filename!r} is a link; only files and folders are accepted")
        if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):  # 0: written without a file type
            raise UploadError(f"the archive member {info.filename!r} is not a file or a folder")
        path = _member_path(info.filename)
        members.append(_Member(path, info.is_dir(), info.file_size))
        by_path[path] = info

    def read(member: _Member) -> bytes:
        info = by_path[member.path]
        try:
            with archive.open(info) as stream:
                content = stream.read(info.file_size + 1)  # no more than it declares, whatever it inflates to
        except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError) as exc:
            raise UploadError(f"the archive member {info.filename!r} cannot be read ({exc})") from None
        if len(content) != info.file_size:
            raise UploadError(f"the archive member {info.filename!r} is not the size it declares")
        return content

    return members, read


def _inflate(data: bytes, limit: int) -> bytes:
    """The gzip stream ``data`` decompressed, refusing one that inflates past ``limit`` bytes."""
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise UploadError(f"the upload is not a readable .tar.gz archive ({exc})") from None
    if len(out) > limit or inflater.unconsumed_tail:
        raise UploadTooLarge(f"the archive unpacks to more than {limit:,} bytes")
    if not inflater.eof:
        raise UploadError("the upload is not a complete .tar.gz archive")
    return out


def _tar_members(data: bytes, limits: UploadLimits) -> tuple[list[_Member], _Reader]:
    # a tar's headers take room too: allow one block of headers per file on top of the contents
    tar_bytes = _inflate(data, limits.max_unpacked_bytes + 1024 * (limits.max_files + 2))
    try:
        archive = tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:")  # noqa: SIM115 (read by the reader)
        infos = archive.getmembers()
    except (tarfile.TarError, EOFError) as exc:
        raise UploadError(f"the upload is not a readable .tar.gz archive ({exc})") from None
    members = []
    by_path: dict[PurePosixPath, tarfile.TarInfo] = {}
    for info in infos:
        if not (info.isfile() or info.isdir()):
            kind = "a link" if info.issym() or info.islnk() else "not a file or a folder"
            raise UploadError(f"the archive member {info.name!r} is {kind}; only files and folders are accepted")
        path = _member_path(info.name)
        members.append(_Member(path, info.isdir(), info.size))
        by_path[path] = info

    def read(member: _Member) -> bytes:
        stream = archive.extractfile(by_path[member.path])
        assert stream is not None  # a regular file always has contents
        return stream.read()

    return members, read


def _single_top_folder(root: Path, files: dict[PurePosixPath, bytes]) -> Path:
    tops = {path.parts[0] for path in files}
    if len(tops) == 1 and all(len(path.parts) > 1 for path in files):
        return root / tops.pop()
    return root

