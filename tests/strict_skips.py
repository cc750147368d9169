"""A pytest plugin: with ``ARENA_TESTS_STRICT=1`` every skip is a failure, so CI never passes by skipping.

tests/conftest.py loads it; ``pytest -p tests.strict_skips`` loads it anywhere else.
"""

import os

import pytest

STRICT = "ARENA_TESTS_STRICT"


def strict() -> bool:
    """Whether this run turns skips into failures: ``ARENA_TESTS_STRICT`` set to anything but empty or 0."""
    return os.environ.get(STRICT, "") not in ("", "0")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A test's skip (in its setup, call or teardown) fails it under strict mode; an expected failure stays one."""
    report = yield
    if strict() and report.skipped and not hasattr(report, "wasxfail"):
        _fail(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """A module that skips as a whole fails its collection under strict mode."""
    report = yield
    if strict() and report.skipped:
        _fail(report)
    return report


def _fail(report) -> None:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped, which {STRICT}=1 makes a failure: {reason.removeprefix('Skipped: ')}"
