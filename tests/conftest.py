import shutil
import tempfile
from pathlib import Path
from textwrap import dedent

import pytest

from arena.plugins.registry import PluginConfig, load_registry
from tests.needs import pytest_runtest_setup  # noqa: F401  (the hooks of both plugins)
from tests.strict_skips import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401

REPO = Path(__file__).resolve().parent.parent

# Where programs keep caches and settings in the user's home directory (matplotlib's font cache, Chromium's
# crash reports, numba's cache when the source is read-only, arena's own solution cache). Set while pytest
# starts, before the test modules import anything, so the tests and every process they start use a
# temporary directory instead.
USER_DIRECTORIES = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "MPLCONFIGDIR",
                    "ARENA_CACHE")
_home = pytest.StashKey[tuple[pytest.MonkeyPatch, Path]]()


def pytest_configure(config):
    """Point the home directory's caches and settings at a temporary directory for the whole session."""
    scratch = Path(tempfile.mkdtemp(prefix="arena-tests-home-"))
    environment = pytest.MonkeyPatch()
    for name in USER_DIRECTORIES:
        environment.setenv(name, str(scratch / name.lower()))
    config.stash[_home] = environment, scratch


def pytest_unconfigure(config):
    """Give the user's environment back and remove the temporary directory."""
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


def write_module(directory: Path, name: str, source: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(dedent(source))
    return path


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


def round_robin_run(maps, bots, registry, config, *, workers=1, games=2, seed=0, time_limit=1.0, in_process=None,
                    on_outcome=None, **definition):
    """Plan and play a tournament; returns the run and its outcomes by schedule index."""
    from arena.tournament.definition import TournamentDefinition
    from arena.tournament.plan import plan_tournament
    from arena.tournament.runner import TournamentRun, play_tournament

    tournament = plan_tournament(TournamentDefinition(maps=tuple(maps), bots=tuple(bots), games=games, seed=seed,
                                              time_limit=time_limit, **definition), registry)
    run = TournamentRun(tournament)
    outcomes = {}

    def collect(outcome):
        outcomes[outcome.index] = outcome
        if on_outcome is not None:
            on_outcome(outcome)

    play_tournament(run, registry, config, workers=workers, on_outcome=collect,
                    in_process=workers == 1 if in_process is None else in_process)
    return run, outcomes


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the first line of ``path`` that contains ``text``."""
    return next(number for number, line in enumerate(path.read_text().splitlines(), start=1) if text in line)
