"""The garbage collector held off while a bulk job builds many objects that hold no cycles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block, then restore it as it was.

    Building tens of thousands of tuples (a run's rating snapshots, its results) triggers full
    collections, each of which walks every object the program holds; the objects built here hold no
    cycles, so those collections find nothing. Reference counting still frees everything as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
