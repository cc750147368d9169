"""A log kept to a cap as it is written: its first quarter from its start, the newest rest from its end (where a
crash's message is), with a note of how much was dropped between them. A bot's log of a game is one (see
:mod:`arena.play.bot_logs`), as is a program's stderr (:mod:`arena.plugins.programs.process`)."""

from __future__ import annotations

LOG_CAP = 64 << 10
"""How many bytes of a bot's log a game keeps."""


class CappedLog:
    """A log kept to ``cap`` bytes as it is written: its first quarter, then the newest rest."""

    def __init__(self, cap: int = LOG_CAP, name: str = "output"):
        self.cap = cap
        self.name = name
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        """Keep ``chunk``, dropping what the cap leaves no room for (never holding more than the cap)."""
        view = memoryview(chunk)
        room = max(self.cap // 4 - len(self.head), 0)
        self.head += view[:room]
        rest = view[room:]
        keep = self.cap - self.cap // 4
        if len(rest) > keep:
            self.dropped += len(rest) - keep
            rest = rest[len(rest) - keep:]
        self.tail += rest
        excess = len(self.tail) - keep
        if excess > 0:
            del self.tail[:excess]
            self.dropped += excess

    def write(self, text: str) -> int:
        """Keep ``text`` (as UTF-8); return its length, as a stream's ``write()`` does."""
        self.add(text.encode("utf-8", "replace"))
        return len(text)

    def text(self) -> str:
        """The log kept: its start and its end, with a note of how much was dropped between them."""
        if not self.dropped:
            return (self.head + self.tail).decode("utf-8", "replace")
        head, tail = (part.decode("utf-8", "replace") for part in (self.head, self.tail))
        return f"{head}\n[{self.dropped} bytes of {self.name} dropped here]\n{tail}"
