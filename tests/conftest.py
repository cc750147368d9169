import compileall
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from arena.plugins.registry import PluginConfig, load_registry
from tests import warm_kernels
from tests.helpers import USER_DIRECTORIES, write_module
from tests.needs import (
    SAVED_DIRECTORIES,
    need_chromium,
    pytest_runtest_setup,  # noqa: F401  (the hooks of both plugins)
)
from tests.strict_skips import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401

pytest_plugins = ["tests.time_limit"]

_home = pytest.StashKey[tuple[pytest.MonkeyPatch, Path]]()
_warm_up = pytest.StashKey[subprocess.Popen[bytes]]()


def pytest_configure(config):
    """Point the home directory's caches and settings at a temporary directory for the whole session, and let the
    arena commands the tests start hear Ctrl-C."""
    # pytest-xdist gives its workers the terminal's COLUMNS and LINES; a rich console made while they are set
    # keeps that width for good, and a test that asks for a width of its own (env={"COLUMNS": ...}) misses it.
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN and threading.current_thread() is threading.main_thread():
        # A shell without job control (`pytest &` in a script, nohup) starts its background commands ignoring
        # Ctrl-C, and a child inherits that: the tests that press Ctrl-C on a command would wait for it in vain.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    scratch = Path(tempfile.mkdtemp(prefix="arena-tests-home-"))
    environment = pytest.MonkeyPatch()
    if SAVED_DIRECTORIES not in os.environ:  # a parallel worker inherits the session's, which holds the user's
        environment.setenv(SAVED_DIRECTORIES, json.dumps({name: os.environ.get(name) for name in USER_DIRECTORIES}))
    for name in USER_DIRECTORIES:
        environment.setenv(name, str(scratch / name.lower()))
    config.stash[_home] = environment, scratch
    if not hasattr(config, "workerinput"):
        # Hundreds of Python processes start during a run (commands, worker pools, sandboxed bots); where
        # PYTHONDONTWRITEBYTECODE is set, each would compile the package from source again.
        compileall.compile_dir(Path(__file__).resolve().parents[1] / "arena", quiet=1)
        if config.getoption("numprocesses", None):  # a whole run on workers, not one file in this process
            config.stash[_warm_up] = warm_kernels.start()


def pytest_unconfigure(config):
    """Give the user's environment back and remove the temporary directory."""
    if _warm_up in config.stash:
        warm_kernels.stop(config.stash[_warm_up])
    environment, scratch = config.stash[_home]
    environment.undo()
    shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch, tmp_path_factory):
    """Every test starts outside the repository, with no ARENA_BOTS_PATH, so only what it sets up is found."""
    monkeypatch.delenv("ARENA_BOTS_PATH", raising=False)
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


@pytest.fixture
def shipped_config():
    return PluginConfig(use_cwd_bots=False, use_env_path=False)


@pytest.fixture
def shipped_registry(shipped_config):
    return load_registry(shipped_config)


@pytest.fixture
def bot_dir(tmp_path):
    """A bots directory holding a few well-behaved and misbehaving test bots."""
    directory = tmp_path / "testbots"
    write_module(directory, "misbehaving.py", """
        import sys
        import time

        from arena import bot

        @bot(name="crasher", game="tron")
        def crasher(obs, rng):
            if obs.turn >= 2:
                raise ValueError("boom")
            return obs.safe_moves()[0] if obs.safe_moves() else "N"

        @bot(name="illegal", game="tron")
        def illegal(obs, rng):
            return "X"

        @bot(name="sleeper", game="tron")
        def sleeper(obs, rng):
            time.sleep(0.2)
            return "N"

        @bot(name="quitter", game="tron")
        def quitter(obs, rng):
            sys.exit(3)
        """)
    write_module(directory, "steady.py", """
        from arena import Bot

        class Steady(Bot):
            \"\"\"Goes straight until blocked, then takes the first safe move.\"\"\"

            name = "steady"
            games = ("tron",)

            def __init__(self, first: str = "N", patience: int = 0):
                self.first = first
                self.patience = patience

            def start(self, info):
                self.heading = self.first

            def act(self, obs):
                safe = obs.safe_moves()
                if self.heading not in safe and safe:
                    self.heading = safe[0]
                return self.heading
        """)
    return directory


def _launch_browser(playwright):
    """A Chromium found on this machine (:func:`tests.needs.need_chromium`), headless."""
    return playwright.chromium.launch(
        executable_path=need_chromium(), headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync"])


@pytest.fixture(scope="module")
def _browser():
    """One headless Chromium (Debian's, through Playwright) per test module, started when a test first needs it:
    starting it costs a second or two, a fresh context per test milliseconds. Not one per test process: while
    Playwright runs, its driver's threads would make every tournament the process's later tests play spawn its
    workers rather than fork them (:func:`arena.play.executors.start_method`)."""
    need_chromium()  # skips, saying how to install it, when there is none
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = _launch_browser(playwright)
        yield browser
        browser.close()


@pytest.fixture
def browser_page(_browser):
    """A page of its own (a new browser context: no cookies, storage or cache from another test); skips, saying how
    to install Chromium, without one."""
    context = _browser.new_context(viewport={"width": 1200, "height": 900})
    yield context.new_page()
    context.close()
