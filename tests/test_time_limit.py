"""The suite's time limit (tests/time_limit.py): a test over it fails with every thread's stack instead of
stalling the run, and no Python thread keeps it, so a test's tournaments fork their workers as a user's do."""

import pytest

from arena.play.executors import start_method
from tests.helpers import REPO

pytest_plugins = ["pytester"]

HANGING = """
import time

import pytest


def test_quick():
    pass


@pytest.mark.timeout(1)
def test_hangs_past_its_limit():
    time.sleep(120)
"""


def test_a_test_over_its_limit_ends_its_process_with_every_threads_stack(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    pytester.makepyfile(test_hanging=HANGING)
    result = pytester.runpytest_subprocess("-p", "tests.time_limit", "-p", "no:cacheprovider", "-v")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*test_quick PASSED*"])
    result.stderr.fnmatch_lines(["Timeout (0:00:01)!", "*most recent call first*",
                                 "*test_hanging.py*in test_hangs_past_its_limit"])


@pytest.mark.timeout(0)
def test_no_python_thread_keeps_the_limit_so_a_tournament_here_forks_its_workers():
    assert start_method() == "fork"
