"""Map files: parsing, validation helpers, and errors that name ``file:line:col``.

Two formats are read:

* the arena text grid: optional leading header lines ``; key = value``, then rows of cells;
* the Google AI Challenge 2010 format: a first line ``W H``, then ``H`` rows of ``W`` cells.

CRLF line endings and trailing whitespace are tolerated. What each cell character means is the game's
business (see ``Game.check_map``); this module only guarantees a rectangular grid.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from arena.core.errors import MapError
from arena.core.paths import shipped_maps_dir

_HEADER = re.compile(r"^;\s*([A-Za-z_][\w-]*)\s*=\s*(.*?)\s*$")
_AIC_SIZE = re.compile(r"^\s*(\d+)\s+(\d+)\s*$")


@dataclass(frozen=True)
class GameMap:
    """A parsed, rectangular map. ``rows[y][x]`` is the cell character at column x, row y."""

    name: str
    text: str
    rows: tuple[str, ...]
    header: dict[str, str] = field(default_factory=dict)
    path: str | None = None
    first_row_line: int = 1
    header_lines: dict[str, int] = field(default_factory=dict)
    format: str = "text"

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.rows[0])

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def label(self) -> str:
        """The file path if the map came from a file, else its name."""
        return self.path or self.name

    def cells(self) -> Iterator[tuple[int, int, str]]:
        """Every cell as ``(x, y, char)``, row by row."""
        for y, row in enumerate(self.rows):
            for x, char in enumerate(row):
                yield x, y, char

    def error(self, message: str, x: int | None = None, y: int | None = None) -> MapError:
        """A :class:`MapError` located at grid cell ``(x, y)`` (or at the first row if not given)."""
        line = self.first_row_line + (y or 0)
        column = (x or 0) + 1
        return MapError(f"{self.label}:{line}:{column}: {message}")

    def header_error(self, key: str, message: str) -> MapError:
        """A :class:`MapError` located at the header line that set ``key``."""
        line = self.header_lines.get(key, 1)
        return MapError(f"{self.label}:{line}:1: {message}")


def parse_map(text: str, name: str = "map", path: str | None = None) -> GameMap:
    """Parse map text (either format) into a rectangular :class:`GameMap`."""
    label = path or name
    if "\x00" in text:
        line, column = _locate(text, text.index("\x00"))
        raise MapError(f"{label}:{line}:{column}: binary data (NUL byte), not a text map")
    lines = [line.rstrip("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if not any(line.strip() for line in lines):
        raise MapError(f"{label}:1:1: the map is empty")

    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    index = 0
    while index < len(lines) and lines[index].startswith(";"):
        match = _HEADER.match(lines[index])
        if not match:
            raise MapError(f"{label}:{index + 1}:1: header line doesn't parse; expected '; key = value'")
        key, value = match.group(1).lower(), match.group(2)
        if key in header:
            raise MapError(f"{label}:{index + 1}:1: header key {key!r} is set twice")
        header[key], header_lines[key] = value, index + 1
        index += 1

    body = lines[index:]
    size = _AIC_SIZE.match(body[0]) if body else None
    if size:
        # Rows of spaces are real rows here (open edges), so trailing blank lines are only cut
        # beyond the declared height.
        height = int(size.group(2))
        while len(body) > height + 1 and not body[-1].strip():
            body.pop()
    else:
        while body and not body[-1].strip():
            body.pop()
    if not body:
        raise MapError(f"{label}:{index + 1}:1: the map has a header but no rows")

    if size:
        rows, first = _aic_rows(body, index, label, int(size.group(1)), int(size.group(2)))
        fmt = "aichallenge"
    else:
        rows, first = _text_rows(body, index, label), index + 1
        fmt = "text"
    return GameMap(name, text, rows, header, path, first, header_lines, fmt)


def _text_rows(body: list[str], offset: int, label: str) -> tuple[str, ...]:
    width = max(len(line.rstrip()) for line in body)
    rows = []
    for i, line in enumerate(body):
        if len(line) < width:
            raise MapError(
                f"{label}:{offset + i + 1}:{len(line) + 1}: ragged row: {len(line)} cells where the "
                f"widest row has {width}"
            )
        rows.append(line[:width])
    return tuple(rows)


def _aic_rows(body: list[str], offset: int, label: str, width: int, height: int) -> tuple[tuple[str, ...], int]:
    size_line = offset + 1
    if width < 1 or height < 1:
        raise MapError(f"{label}:{size_line}:1: declared size {width} x {height} is empty")
    grid = body[1:]
    if len(grid) != height:
        raise MapError(
            f"{label}:{size_line}:1: declared size {width} x {height} doesn't match: the map has "
            f"{len(grid)} rows"
        )
    rows = []
    for i, line in enumerate(grid):
        if len(line) < width or line[width:].strip():
            actual = len(line.rstrip()) if len(line) >= width else len(line)
            raise MapError(
                f"{label}:{size_line + 1 + i}:{min(len(line), width) + 1}: declared width {width} doesn't "
                f"match: this row has {actual} cells"
            )
        rows.append(line[:width])
    return tuple(rows), size_line + 1


def _locate(text: str, position: int) -> tuple[int, int]:
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return line, column


def load_map(path: str | Path) -> GameMap:
    """Read and parse a map file; unreadable, binary or malformed files raise :class:`MapError`."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise MapError(f"{path}: is a directory, not a map file") from None
    except OSError as exc:
        raise MapError(f"{path}: cannot read map ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise MapError(f"{path}:{line}:{column}: binary data (byte 0x{data[exc.start]:02x}), not a text map") from None
    return parse_map(text, name=path.stem, path=str(path))


def map_search_dirs() -> list[Path]:
    """Where map names (without a path) are looked up: ``./maps``, then the shipped maps."""
    dirs = [Path.cwd() / "maps", shipped_maps_dir()]
    unique: list[Path] = []
    for directory in dirs:
        if directory.is_dir() and directory.resolve() not in [d.resolve() for d in unique]:
            unique.append(directory)
    return unique


def known_map_names() -> list[str]:
    """The names of every map found in :func:`map_search_dirs`."""
    return sorted({p.stem for d in map_search_dirs() for p in d.glob("*.txt")})


def resolve_map(spec: str) -> GameMap:
    """Load a map given as a path or as the name of a map in ``./maps`` or the shipped maps."""
    candidate = Path(spec)
    if candidate.exists():
        return load_map(candidate)
    for directory in map_search_dirs():
        for path in (directory / spec, directory / f"{spec}.txt"):
            if path.is_file():
                return load_map(path)
    close = difflib.get_close_matches(candidate.stem, known_map_names(), n=3, cutoff=0.5)
    hint = f"; did you mean: {', '.join(close)}?" if close else f"; known maps: {', '.join(known_map_names())}"
    raise MapError(f"{spec}: no such map file{hint}")
