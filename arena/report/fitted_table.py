"""Console tables that fit the console's width without ever splitting a name across lines.

rich narrows a table that is too wide by shrinking its widest wrapping columns and then every column alike,
folding words anywhere, so at 80 columns (rich's width when output is piped) a bot name comes out as
``floodfi`` over ``ll``. A :class:`FittedTable` chooses the column widths itself, in three steps, each taken
only if the table is still too wide:

1. columns of wrapping text narrow, widest first, down to their longest word (nothing is broken yet);
2. columns of numbers and paths narrow further, their long words broken across lines;
3. every column narrows alike: a name or a word of text is cut with an ellipsis, never split.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.table import Table
from rich.text import Text

NAME, PROSE, FOLD = "name", "prose", "fold"
"""Column kinds: a name (one line, cut with an ellipsis at worst); text that may hold names (wrapped at
spaces, a word too long cut with an ellipsis); anything else (wrapped at spaces, a word too long broken)."""

NARROWEST_FOLD = 4
"""How narrow step 2 makes a column of numbers or paths (wider if its header is a name)."""


def _words(text: str) -> list[str]:
    return [word for line in text.splitlines() for word in line.split(" ")] or [""]


def _widest(texts: Sequence[str]) -> int:
    return max((cell_len(line) for text in texts for line in text.splitlines() or [""]), default=0)


def narrow(widths: Sequence[int], floors: Sequence[int], budget: int) -> list[int]:
    """``widths`` narrowed, widest first, toward ``floors`` until their sum is at most ``budget`` (or every
    width is at its floor): each width becomes ``max(floor, min(width, cap))`` for the largest cap that fits."""
    def capped(cap: int) -> list[int]:
        return [max(floor, min(width, cap)) for width, floor in zip(widths, floors, strict=True)]

    if sum(widths) <= budget:
        return list(widths)
    low, high = 0, max(widths)  # the largest cap whose total fits: capped(low) fits or is all floors
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if sum(capped(middle)) <= budget else (low, middle - 1)
    result = capped(low)
    spare = budget - sum(result)
    for index, width in enumerate(widths):  # the cap is a whole number: hand out what is left over
        if spare <= 0:
            break
        if result[index] == low and width > low:
            result[index] += 1
            spare -= 1
    return result


class FittedTable:
    """A table of plain-text cells whose column widths fit the console it is printed on (see the module).

    ``kinds`` gives each column's kind (:data:`NAME`, :data:`PROSE` or :data:`FOLD`); ``named_columns``
    says every header is a name (a matrix's), kept on one line like the names in the cells. Other
    keyword arguments go to :class:`rich.table.Table` (title, box, ...); ``right`` lists the columns
    aligned right.
    """

    def __init__(self, headers: Sequence[str], rows: Sequence[Sequence[str]], kinds: Sequence[str], *,
                 named_columns: bool = False, right: Collection[int] = (), **options: Any):
        self.headers = list(headers)
        self.rows = [[str(cell) for cell in row] for row in rows]
        self.kinds = list(kinds)
        self.named_columns = named_columns
        self.right = set(right)
        self.options = options

    def _one_line_header(self, index: int) -> bool:
        return self.named_columns or self.kinds[index] == NAME

    def widths(self, available: int) -> list[int] | None:
        """The width of each column's text so the table fits ``available`` cells, or ``None`` if it fits as is."""
        columns = [[header, *(row[index] for row in self.rows)] for index, header in enumerate(self.headers)]
        natural = [_widest(column) for column in columns]
        budget = available - self._frame_width()
        if sum(natural) <= budget:
            return None
        header_floor = [cell_len(h) if self._one_line_header(i) else 0 for i, h in enumerate(self.headers)]
        words = [max(header_floor[i], max(cell_len(w) for cell in column for w in _words(cell)))
                 for i, column in enumerate(columns)]
        unbroken = [n if kind == NAME else min(n, w) for n, w, kind in zip(natural, words, self.kinds, strict=True)]
        widths = narrow(natural, unbroken, budget)
        broken = [min(w, max(header_floor[i], NARROWEST_FOLD)) if self.kinds[i] == FOLD else w
                  for i, w in enumerate(widths)]
        widths = narrow(widths, broken, budget)
        return narrow(widths, [1] * len(widths), budget)

    def _frame_width(self) -> int:
        """The cells a table of these columns spends on borders and padding."""
        table = Table(**self.options)
        box, columns = table.box, len(self.headers)
        padding = table.padding[1] + table.padding[3]
        return (2 if box and table.show_edge else 0) + (columns - 1 if box else 0) + padding * columns

    def table(self, available: int) -> Table:
        """The rich table, its columns sized for ``available`` cells."""
        widths = self.widths(available)
        table = Table(**self.options)
        for index, header in enumerate(self.headers):
            kind = self.kinds[index]
            table.add_column(Text(header, no_wrap=self._one_line_header(index), overflow="ellipsis"),
                             no_wrap=kind == NAME, overflow="fold" if kind == FOLD else "ellipsis",
                             justify="right" if index in self.right else "left",
                             width=None if widths is None else widths[index])
        for row in self.rows:
            table.add_row(*(Text(cell) for cell in row))
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        yield self.table(options.max_width)
