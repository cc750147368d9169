"""Ctrl-C as a request: long work (training) stops after its current step and saves, instead of dying."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def stop_requests() -> Iterator[Callable[[], bool]]:
    """While active, Ctrl-C asks the run to stop after the current iteration instead of killing it."""
    requested = [False]

    def handler(signum: int, frame: Any) -> None:
        requested[0] = True

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: Ctrl-C cannot reach us anyway
        yield lambda: requested[0]
        return
    try:
        yield lambda: requested[0]
    finally:
        signal.signal(signal.SIGINT, previous)
