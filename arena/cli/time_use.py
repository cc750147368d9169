"""The time-use section a run's output shows when its games were played under a time control or the CPU clock."""

from __future__ import annotations

import json

from arena.cli.common import err, out
from arena.report.tables import rich_table
from arena.report.time_use import time_use_by_bot, time_use_table, timed_run
from arena.storage.store import Store


def print_time_use(store: Store, run_id: int, fmt: str = "table") -> None:
    """Print each bot's time use in run ``run_id`` (mean and longest move, clock left at the end), if it was timed."""
    if not timed_run(store.run(run_id).definition):
        return
    uses = time_use_by_bot(row.record for row in store.games(run_id))
    if not uses:
        return
    if fmt == "table":
        headers, rows = time_use_table(uses, "-")
        out.print(rich_table("Time use", headers, [[str(cell) for cell in row] for row in rows], names=[0],
                             right=[1, 2, 3, 4]))
        return
    headers, rows = time_use_table(uses)
    if fmt == "json":
        err.print(json.dumps({"time_use": [dict(zip(headers, row, strict=True)) for row in rows]}), highlight=False,
                  soft_wrap=True)
    else:
        from tabulate import tabulate  # only these formats need it: a command that prints none never loads it

        err.print(tabulate(rows, headers, tablefmt="github" if fmt == "md" else "plain"), highlight=False,
                  markup=False, soft_wrap=True)
