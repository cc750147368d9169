"""Progress of long work: a live bar on a terminal, and plain lines on stderr otherwise (logs of CI runs).

The bar appears as soon as the work starts, before the first game ends (while search bots load their
compiled code, say). Its rate and time remaining come from the average since the start, so they settle
instead of jumping with each batch of games that finishes together. Without a terminal, a line is
printed at the start, at every tenth of the work, at least every 30 seconds, and at the end.

The bar is redrawn as work is counted (at most ``REDRAW_SECONDS`` apart), not by a thread of its own: with no
other thread running, worker processes can be forked, which starts them far sooner (see
:func:`arena.play.executors.start_method`).
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TaskID, TextColumn
from rich.text import Text

LOG_EVERY_SECONDS = 30.0
LOG_EVERY_FRACTION = 0.1
REDRAW_SECONDS = 0.1


def average_rate(task: Task) -> float | None:
    """Items per second since the task started (``None`` before the first item); items already done when it
    started (a resumed run's) do not count."""
    done = task.completed - task.fields.get("done_before", 0)
    elapsed = task.elapsed
    return done / elapsed if done > 0 and elapsed else None


def remaining_seconds(task: Task) -> float | None:
    """Seconds left at the average rate so far (``None`` while unknown)."""
    rate = average_rate(task)
    if rate is None or task.total is None:
        return None
    return max(task.total - task.completed, 0) / rate


def clock(seconds: float | None) -> str:
    """``0:02:05``, or ``-:--:--`` when unknown."""
    if seconds is None:
        return "-:--:--"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


class _RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        rate, unit = average_rate(task), task.fields.get("unit", "games")
        return Text(f"{rate:,.1f} {unit}/s" if rate else f"- {unit}/s", style="progress.data.speed")


class _EtaColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(f"ETA {clock(remaining_seconds(task))}", style="progress.remaining")


class GamesProgress(Progress):
    """A progress bar for games on a terminal; plain progress lines on a console that is not one."""

    def __init__(self, console: Console):
        super().__init__(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), _RateColumn(),
                         _EtaColumn(), console=console, disable=not console.is_terminal, transient=True,
                         auto_refresh=False)
        self._logged: dict[TaskID, tuple[float, int]] = {}  # when, and at how many items, the last line was
        self._drawn = 0.0  # when the bar was last redrawn

    def add_task(self, description: str, start: bool = True, total: float | None = 100.0, completed: int = 0,
                 visible: bool = True, unit: str = "games", **fields: Any) -> TaskID:
        """Add a task of ``total`` items called ``unit``, ``completed`` of them done before (they do not count
        in the rate); without a terminal, say at once that it started."""
        task_id = super().add_task(description, start, total, completed, visible, done_before=completed, unit=unit,
                                   **fields)
        if self.disable:
            self._log(task_id)
        else:
            self._redraw()
        return task_id

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        """Count ``advance`` more items done; without a terminal, print a line when one is due."""
        if not self.disable:
            super().advance(task_id, advance)
            if time.monotonic() - self._drawn >= REDRAW_SECONDS:
                self._redraw()
            return
        # No live display reads the task: count without rich's lock and speed samples (this runs once a game).
        task = self._tasks[task_id]
        task.completed += advance
        if task.total is not None and task.completed >= task.total and task.finished_time is None:
            task.finished_time = task.elapsed
        when, count = self._logged[task_id]
        step = max(1, round(task.total * LOG_EVERY_FRACTION)) if task.total else None
        finished = task.total is not None and task.completed >= task.total
        if finished or (step and task.completed >= count + step) or time.monotonic() - when >= LOG_EVERY_SECONDS:
            self._log(task_id)

    def _redraw(self) -> None:
        self._drawn = time.monotonic()
        self.refresh()

    def _log(self, task_id: TaskID) -> None:
        task = self._tasks[task_id]
        self._logged[task_id] = (time.monotonic(), int(task.completed))
        total = f"/{_count(task.total)}" if task.total is not None else ""
        share = f" ({task.completed / task.total:.0%})" if task.total else ""
        rate, unit = average_rate(task), task.fields.get("unit", "games")
        speed = f", {rate:,.1f} {unit}/s, ETA {clock(remaining_seconds(task))}" if rate else ""
        self.console.print(f"{task.description}: {_count(task.completed)}{total} {unit}{share}{speed}", markup=False,
                           highlight=False)


def _count(value: float) -> str:
    """A count as a user reads it: ``1,000,000,000``, not ``1e+09``."""
    return f"{value:,.0f}" if value == int(value) else f"{value:,g}"
