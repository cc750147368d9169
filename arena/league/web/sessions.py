"""Browser sign-in: a session cookie after one sign-in with a token, and tokens that protect every form.

Sessions live in the server's memory (a restart signs everyone out): the cookie holds only a random id, and
the session keeps the token it was opened with, which is checked again on every request, so a token the
organiser rotates or revokes ends its sessions at once. Each session has its own random form token
(the classic synchronizer token); a browser not signed in gets one in a cookie of its own for the sign-in
form (a double-submitted cookie). Cookies are ``HttpOnly`` and ``SameSite=Lax``, and ``Secure`` when the
request came over HTTPS.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

SESSION_COOKIE = "arena_session"
FORM_COOKIE = "arena_form"
SESSION_SECONDS = 7 * 24 * 3600
MAX_SESSIONS = 10_000
"""The oldest sessions are dropped beyond this many, so sign-ins cannot fill the server's memory."""


@dataclass
class Session:
    """A signed-in browser: the token it signed in with and its form token."""

    token: str
    form_token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    expires: float = field(default_factory=lambda: time.monotonic() + SESSION_SECONDS)


class Sessions:
    """The open sessions, by the random id their cookie holds (thread-safe)."""

    def __init__(self) -> None:
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, token: str) -> str:
        """A new session for ``token``; returns its id (the cookie's value)."""
        key = secrets.token_urlsafe(32)
        with self._lock:
            self._sessions[key] = Session(token)
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)
        return key

    def get(self, key: str | None) -> Session | None:
        """The live session with id ``key``, or None."""
        if not key:
            return None
        with self._lock:
            session = self._sessions.get(key)
            if session is not None and session.expires < time.monotonic():
                del self._sessions[key]
                return None
            return session

    def close(self, key: str | None) -> None:
        """End the session with id ``key`` (if there is one)."""
        with self._lock:
            self._sessions.pop(key or "", None)


def same_token(given: str | None, expected: str | None) -> bool:
    """Whether a form token sent with a form is the one expected (in constant time)."""
    return bool(given) and bool(expected) and hmac.compare_digest(str(given), str(expected))


def new_form_token() -> str:
    """A random token for the sign-in form's cookie."""
    return secrets.token_urlsafe(32)
