"""The article's parity claim against the solver: perfect-play results on every open board in a range."""

from __future__ import annotations

from dataclasses import dataclass

from arena.engines.catmouse.solver import start_result
from arena.games.catmouse.rules import CAT, MOUSE, open_layout


@dataclass
class ParityTable:
    """Perfect-play results on open boards from ``min`` to ``max`` rows and columns, for both first movers."""

    sizes: list[int]
    results: dict[str, list[list[tuple[str, int | None, bool]]]]

    @staticmethod
    def article_claim(rows: int, cols: int, first: str) -> str:
        """The article's claim: with the cat first on an even x even board the mouse escapes, else the cat wins."""
        return "mouse" if first == "cat" and rows % 2 == 0 and cols % 2 == 0 else "cat"

    @staticmethod
    def colour_rule(rows: int, cols: int, first: str) -> str:
        """The rule the solver finds: the cat wins exactly when it is to move with the players on squares of
        different colours, i.e. when ``rows + cols`` is odd and the cat moves first, or even and the mouse does."""
        return "cat" if ((rows + cols) % 2 == 1) == (first == "cat") else "mouse"

    @property
    def cells(self) -> dict[str, list[list[str]]]:
        """Table cells: ``cat 11`` (the cat wins, catching on move 11) or ``mouse``; ``*`` marks where the
        article's claim is wrong, ``!`` a catch that comes too late for the default move limit."""
        tables = {}
        for first, rows in self.results.items():
            tables[first] = [
                [f"{winner}{'' if plies is None else f' {plies}'}"
                 f"{'' if winner == self.article_claim(r, c, first) else '*'}{'' if in_time else '!'}"
                 for c, (winner, plies, in_time) in zip(self.sizes, row, strict=True)]
                for r, row in zip(self.sizes, rows, strict=True)
            ]
        return tables

    def summary(self) -> str:
        """How the article's claim and the colour rule fare."""
        total = agree = colour = late = 0
        for first, rows in self.results.items():
            for r, row in zip(self.sizes, rows, strict=True):
                for c, (winner, _, in_time) in zip(self.sizes, row, strict=True):
                    total += 1
                    agree += winner == self.article_claim(r, c, first)
                    colour += winner == self.colour_rule(r, c, first)
                    late += not in_time
        return (f"The article's claim holds on {agree} of {total} boards (* marks the others); the colour rule "
                f"(the cat wins exactly when rows + columns is odd and the cat moves first, or even and the mouse "
                f"does) holds on {colour} of {total}. Catches that come after the default move limit "
                f"(2 x (rows + columns) mouse moves): {late}.")

    def markdown(self) -> str:
        """Both tables and the summary as markdown."""
        parts = []
        for first, rows in self.cells.items():
            header = "| rows \\ columns | " + " | ".join(str(s) for s in self.sizes) + " |"
            rule = "|---|" + "---|" * len(self.sizes)
            lines = [f"**{first.capitalize()} moves first**", "", header, rule]
            lines += [f"| {size} | " + " | ".join(row) + " |" for size, row in zip(self.sizes, rows, strict=True)]
            parts.append("\n".join(lines))
        return "\n\n".join(parts) + "\n\n" + self.summary() + "\n"


def parity_table(smallest: int = 2, largest: int = 8) -> ParityTable:
    """Solve every open board from ``smallest`` to ``largest`` rows and columns, with each first mover."""
    sizes = list(range(smallest, largest + 1))
    results: dict[str, list[list[tuple[str, int | None, bool]]]] = {}
    for first, side in (("cat", CAT), ("mouse", MOUSE)):
        rows = []
        for r in sizes:
            row = []
            for c in sizes:
                layout = open_layout(r, c)
                winner, plies = start_result(layout, side, None)
                in_time = winner == start_result(layout, side, layout.default_move_limit())[0]
                row.append((winner, plies, in_time))
            rows.append(row)
        results[first] = rows
    return ParityTable(sizes, results)
