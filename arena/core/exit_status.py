"""Describing how a child process ended, for the reasons of games whose bot or worker process died."""

from __future__ import annotations

import signal


def describe_exit(code: int | None) -> str:
    """How a process ended: its exit status or the signal that killed it."""
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"
