"""Any table of rows as a file to download or to grade from: CSV safe to open in a spreadsheet, JSON, Markdown.

Generic over its columns: a row is a sequence of values (text, numbers, ``None``) in the order of the headers.
Text that a spreadsheet would run as a formula (a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return, OWASP's "CSV injection" list) is written with a leading ``'``, which every spreadsheet
shows as text; numbers stay numbers. Markdown escapes pipes and backslashes and puts a cell on one line.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from typing import Any

from arena.core.json_files import finite_json

EXPORT_FORMATS = ("csv", "json", "md")
MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json",
               "md": "text/markdown; charset=utf-8"}
"""The content type of each export format, for a web answer."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet never runs as a formula: text starting with one of OWASP's formula
    characters gets a leading ``'`` (a number written as text, such as ``-1.5``, is left alone, and so is the
    character alone, such as the ``-`` of a table's empty cell: a formula needs more than its first character)."""
    if (isinstance(value, str) and len(value) > 1 and value.startswith(_FORMULA_START)
            and not _NUMBER.fullmatch(value)):
        return "'" + value
    return value


def csv_text(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The rows under their headers as CSV (RFC 4180 quoting, one line end a row), every cell spreadsheet-safe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in [headers, *rows]:
        writer.writerow(["" if cell is None else spreadsheet_safe(cell) for cell in row])
    return buffer.getvalue()


def json_text(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The rows as a JSON list of objects keyed by the headers (numbers stay numbers; one that is not a number is
    ``null``, as :func:`arena.core.json_files.finite_json` writes it)."""
    found = finite_json([dict(zip(headers, row, strict=True)) for row in rows])
    return json.dumps(found, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def md_cell(value: Any) -> str:
    """``value`` as one cell of a Markdown table: on one line, its pipes and backslashes escaped."""
    text = "" if value is None else str(value)
    return " ".join(text.replace("\\", "\\\\").replace("|", "\\|").splitlines())


def md_text(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The rows as a GitHub-flavoured Markdown table; columns holding only numbers are aligned right."""
    numeric = [bool(rows) and all(isinstance(row[i], int | float) and not isinstance(row[i], bool) for row in rows)
               for i in range(len(headers))]
    lines = ["| " + " | ".join(md_cell(h) for h in headers) + " |",
             "|" + "|".join("---:" if right else "---" for right in numeric) + "|"]
    lines += ["| " + " | ".join(md_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def export_rows(headers: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str) -> str:
    """The rows under their headers in export format ``fmt`` (``csv``, ``json`` or ``md``)."""
    writers = {"csv": csv_text, "json": json_text, "md": md_text}
    if fmt not in writers:
        raise ValueError(f"unknown export format {fmt!r}")
    return writers[fmt](headers, rows)
