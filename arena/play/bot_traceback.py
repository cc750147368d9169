"""Where a bot crashed: the file, line and source of its own code, without the arena's frames.

A crash's reason names the exception and the deepest line of the bot's own code it passed through
(``raised KeyError: 'nope' (bots/crasher.py:12, in act)``); its traceback keeps the last few frames of
the bot's code and the exception, as pytest shows a failure.
"""

from __future__ import annotations

import sysconfig
import traceback
from dataclasses import dataclass
from pathlib import Path

ARENA_PACKAGE = Path(__file__).resolve().parent.parent
LIBRARY_DIRS = tuple({Path(sysconfig.get_path(name)).resolve()
                      for name in ("stdlib", "platstdlib", "purelib", "platlib")})
FRAMES_KEPT = 3


def bot_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The frames of ``exc``'s traceback that are not the arena's own, outermost first."""
    return [frame for frame in traceback.extract_tb(exc.__traceback__)
            if not _inside(Path(frame.filename), ARENA_PACKAGE)]


def crash_site(frames: list[traceback.FrameSummary]) -> traceback.FrameSummary | None:
    """The deepest frame in the bot's own code (not a library's), else the deepest frame outside the arena."""
    own = [frame for frame in frames if not any(_inside(Path(frame.filename), d) for d in LIBRARY_DIRS)]
    chosen = own or frames
    return chosen[-1] if chosen else None


def location(frame: traceback.FrameSummary) -> str:
    """``bots/crasher.py:12, in act``: the file (relative to the working directory when below it)."""
    return f"{_short(frame.filename)}:{frame.lineno}, in {frame.name}"


@dataclass(frozen=True)
class Crash:
    """An exception a bot raised, as text that can cross a pipe: type, message, where, and the traceback."""

    exception: str
    message: str
    site: str = ""
    traceback: str = ""

    def detail(self, where: str = "") -> str:
        """The reason's words: ``raised KeyError in start(): 'nope' (bots/crasher.py:12, in start)``."""
        at = f" ({self.site})" if self.site else ""
        return f"raised {self.exception}{where}: {self.message}{at}"


def crash_of(exc: BaseException) -> Crash:
    """The :class:`Crash` of ``exc``: the deepest line of the bot's code, and its last few frames."""
    frames = bot_frames(exc)
    site = crash_site(frames)
    shown = [traceback.FrameSummary(_short(frame.filename), frame.lineno, frame.name, line=frame.line)
             for frame in frames[-FRAMES_KEPT:]]
    lines = traceback.format_list(shown) + traceback.format_exception_only(type(exc), exc)
    return Crash(type(exc).__name__, str(exc), location(site) if site is not None else "",
                 "".join(lines).rstrip("\n") if frames else "")


def _inside(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(directory)
    except (ValueError, OSError):
        return False
    return True


def _short(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return filename
