"""A process's output read as it comes and capped: its first and last bytes kept, what lies between counted.

A build may print gigabytes; its log keeps :data:`HEAD` bytes from the start and :data:`TAIL` from the end,
and says how many it dropped between them, so no process ever holds more than that of it.
"""

from __future__ import annotations

import os
import selectors
import time
from collections.abc import Sequence
from typing import IO

HEAD = 32 << 10
TAIL = 32 << 10
CHUNK = 64 << 10


class CappedOutput:
    """Output fed as it comes, keeping its first ``head`` and last ``tail`` bytes and counting the rest."""

    def __init__(self, head: int = HEAD, tail: int = TAIL) -> None:
        self.head_size, self.tail_size = head, tail
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0
        """How many bytes were dropped between the head and the tail."""

    def feed(self, data: bytes) -> None:
        """Take the next bytes of the output."""
        room = self.head_size - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if len(data) >= self.tail_size:
            self.dropped += len(self.tail) + len(data) - self.tail_size
            self.tail[:] = data[len(data) - self.tail_size:]
            return
        self.tail += data
        excess = len(self.tail) - self.tail_size
        if excess > 0:
            del self.tail[:excess]
            self.dropped += excess

    def value(self) -> bytes:
        """What was kept: the head, a line saying how many bytes were dropped (if any), and the tail."""
        if not self.dropped:
            return bytes(self.head + self.tail)
        return bytes(self.head) + f"\n... {self.dropped:,} bytes dropped ...\n".encode() + bytes(self.tail)


def drain(streams: Sequence[tuple[IO[bytes], CappedOutput]], deadline: float | None = None) -> bool:
    """Read each stream to its end into its :class:`CappedOutput`; False if ``deadline`` (a
    :func:`time.monotonic` time) came first. The streams are left open."""
    with selectors.DefaultSelector() as selector:
        for stream, capped in streams:
            selector.register(stream, selectors.EVENT_READ, capped)
        while selector.get_map():
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return False
            for key, _ in selector.select(wait):
                chunk = os.read(key.fd, CHUNK)
                if chunk:
                    key.data.feed(chunk)
                else:
                    selector.unregister(key.fileobj)
    return True
