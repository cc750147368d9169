from pathlib import Path
from textwrap import dedent

import pytest

from arena.plugins.registry import PluginConfig, load_registry

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def _session_cache(tmp_path_factory):
    """Caches (bot module checks, solutions) go to the session's temporary directory, never ~/.cache: set
    before any fixture, module-scoped ones and the processes they start included."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_CACHE", str(tmp_path_factory.getbasetemp() / "arena-cache"))
        yield


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
