"""A time limit on every test, so that a hang fails instead of stalling the run.

A test still running after ``timeout`` seconds (the ini option; ``--timeout=N`` on the command line, 0 for no
limit; ``@pytest.mark.timeout(N)`` for one test) makes its process print every thread's stack and exit: a
parallel run reports the test as failed with its worker, replaces the worker and goes on.

The limit is kept by :func:`faulthandler.dump_traceback_later`, whose watchdog is a thread of the interpreter's
own that Python code never sees. A limit kept by a Python thread (pytest-timeout's thread method) would make
every tournament a test plays in its process spawn its workers, as the arena does beside any other thread
(:func:`arena.play.executors.start_method`), where a user's command forks them; a limit kept by ``SIGALRM``
(its signal method) would share the alarm the referee's move limits use.
"""

from __future__ import annotations

import faulthandler
import os

import pytest

DEFAULT_SECONDS = "300"
_stderr = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ``timeout`` ini option and the ``--timeout`` command-line option."""
    help_text = "seconds a test may run before its process prints every thread's stack and exits; 0: no limit"
    parser.addini("timeout", help_text, default=DEFAULT_SECONDS)
    parser.addoption("--timeout", type=float, default=None, help=help_text)


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker and keep a copy of stderr from before output capture takes it over."""
    config.addinivalue_line("markers", "timeout(seconds): this test's own time limit, in seconds (0: none)")
    config.stash[_stderr] = os.dup(2)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the copy of stderr."""
    if _stderr in config.stash:
        os.close(config.stash[_stderr])


def seconds_for(item: pytest.Item) -> float:
    """The time limit of ``item``: its marker's, else the command line's, else the ini option's; 0 for none, as
    under a debugger."""
    if item.config.getoption("usepdb", False):
        return 0.0
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    given = item.config.getoption("timeout")
    return float(given if given is not None else item.config.getini("timeout"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """Arm the watchdog for the test's setup, call and teardown, and disarm it after."""
    seconds = seconds_for(item)
    if seconds > 0:
        faulthandler.dump_traceback_later(seconds, exit=True, file=item.config.stash[_stderr])
    try:
        return (yield)
    finally:
        if seconds > 0:
            faulthandler.cancel_dump_traceback_later()
