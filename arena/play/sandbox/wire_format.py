"""The runner's lines: what both sides of :mod:`arena.play.sandbox.wire` write and read.

The runner imports this module, not the referee's side, for every game of a sandboxed bot: it needs only the
standard library's codecs, not the arena's limits and protocols.
"""

from __future__ import annotations

import base64
import json
import pickle
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.play.bot_traceback import Crash


def pack(value: Any) -> str:
    """An object of the arena's, as text for one of the referee's lines."""
    return base64.b64encode(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)).decode("ascii")


def unpack(text: str) -> Any:
    """The object :func:`pack` wrote (only ever called by the runner, on the referee's lines)."""
    return pickle.loads(base64.b64decode(text))


def line(message: dict[str, Any]) -> bytes:
    """One JSON line."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def crash_message(crash: Crash, where: str | None) -> dict[str, Any]:
    """The runner's report of a bot's exception."""
    return {"type": "crash", "crash": {"exception": crash.exception, "message": crash.message, "site": crash.site,
                                       "traceback": crash.traceback}, "where": where}
