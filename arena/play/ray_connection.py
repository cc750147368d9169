"""Joining a Ray cluster, including one that asks for an auth token, with a one-line error when that fails.

The token is Ray's own business, given the way Ray documents: ``RAY_AUTH_MODE=token`` turns token auth on
for this process, and Ray then takes the token from ``$RAY_AUTH_TOKEN``, else the file ``$RAY_AUTH_TOKEN_PATH``
names, else ``~/.ray/auth_token``. Ray turns it on by itself only for a cluster it finds on its own (no
address, or ``auto``): the token never goes to a named address unless the user says so. The arena keeps that
rule and adds none of its own; it only makes the failures short: Ray retries a refused connection twenty
times and logs every attempt from native code, so connecting makes one attempt, its native log is held
back, and a refusal becomes one sentence that says how to give the token.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from arena.core.errors import ArenaError

TOKEN_SOURCES = "$RAY_AUTH_TOKEN, the file $RAY_AUTH_TOKEN_PATH names, or ~/.ray/auth_token"
"""Where Ray looks for the token, in its order."""
GET_TOKEN = "`ray get-auth-token` on the head node prints the cluster's token"
CONNECT_ATTEMPTS_VARIABLE = "RAY_gcs_server_port_wait_time_s"
"""How many times (a second apart) Ray tries to reach a cluster's GCS; each try itself waits for an unreachable
one, so one try is enough, and a refusal is not worth nineteen more."""


def connect(ray: Any, address: str | None, workers: int | None = None) -> bool:
    """Join the cluster at ``address`` (or ``$RAY_ADDRESS``; with neither, start a local Ray, with a CPU for each
    of ``workers`` if there are more of them than cores) unless this process already has; return whether it
    joined here (and so should shut Ray down when done)."""
    if ray.is_initialized():
        return False
    target = address or os.environ.get("RAY_ADDRESS") or None
    joining = target not in (None, "local")  # else Ray starts a cluster of its own here
    try:
        with one_connect_attempt(joining), native_stderr_held_back(joining):
            cpus = {} if joining or workers is None else {"num_cpus": max(workers, os.cpu_count() or 1)}
            ray.init(address=target, include_dashboard=False, log_to_driver=False, configure_logging=False, **cpus)
    except getattr(ray.exceptions, "AuthenticationError", ()) as exc:
        # RAY_AUTH_MODE=token, but no token where Ray looks (checked before any connection is made)
        found = str(getattr(exc, "message", exc)).split(". ")[0].rstrip(".")
        raise ArenaError(f"cannot join the Ray cluster at {target}: {found} (Ray reads it from {TOKEN_SOURCES}; "
                         f"{GET_TOKEN})") from None
    except (ConnectionError, RuntimeError, ValueError) as exc:
        if refused_for_token(exc):
            raise ArenaError(token_refused(target)) from None
        raise ArenaError(f"cannot reach the Ray cluster at {target}: {exc}".splitlines()[0]) from None
    return True


def refused_for_token(exc: BaseException) -> bool:
    """Whether a failed connection was the cluster refusing this process's token (or its lack of one): Ray
    reports it as the cause's text, an ``InvalidAuthToken`` RPC status inside a formatted traceback."""
    seen: BaseException | None = exc
    while seen is not None:
        if "InvalidAuthToken" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def token_refused(target: str | None) -> str:
    """The one-line error for a cluster that refused this process: how to give it the token."""
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        return (f"the Ray cluster at {target} refused this machine's auth token (Ray reads it from {TOKEN_SOURCES}, "
                f"the first that is set): give it the cluster's token; {GET_TOKEN}")
    return (f"the Ray cluster at {target} requires an auth token: set RAY_AUTH_MODE=token and put the cluster's "
            f"token in {TOKEN_SOURCES}; {GET_TOKEN}")


@contextmanager
def one_connect_attempt(active: bool = True) -> Iterator[None]:
    """Ray tries to reach the cluster once rather than twenty times (unless the user chose how many)."""
    if not active or CONNECT_ATTEMPTS_VARIABLE in os.environ:
        yield
        return
    os.environ[CONNECT_ATTEMPTS_VARIABLE] = "1"
    try:
        yield
    finally:
        os.environ.pop(CONNECT_ATTEMPTS_VARIABLE, None)


@contextmanager
def native_stderr_held_back(active: bool = True) -> Iterator[None]:
    """While Ray connects, what its native code writes to stderr (a warning for each failed attempt) goes
    nowhere: a failure is reported in one line of its own. Only for joining a running cluster, which starts
    no process that would keep the redirected stderr."""
    if not active:
        yield
        return
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to hold back
        yield
        return
    quiet = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(quiet, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)
