"""Tokens: random secrets a team or the organiser signs in with, stored only as their hash.

A token is shown once, when it is made; the league keeps its SHA-256 hash, which is enough to check one
(a token has 256 random bits, so no salt or slow hash is needed to keep it from being guessed). A lost
token cannot be shown again: it is rotated (a new one replaces it).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def new_token(prefix: str) -> str:
    """A new random token; ``prefix`` (``org`` or ``team``) says whose it is when it is read."""
    return f"{prefix}_{secrets.token_urlsafe(TOKEN_BYTES)}"


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one ``stored_hash`` was made from (in constant time)."""
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)
