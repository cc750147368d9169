"""What the league's tests share: bots to submit, the ladder's turn played in the test's own process, and two
leagues built once per test process (every submission is checked in the sandbox and every game played there, which
is what the league's tests spend their time on), copied for each test that needs them."""

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.league import sandboxing
from arena.league.facade import FINAL, PLAN_AHEAD, RANKED, League
from arena.play.limits import MoveGuard, alarm_tick
from arena.play.referee import play
from arena.play.sandbox import SandboxedBots
from arena.plugins.registry import load_registry
from tests.helpers import REPO, write_module

SHIPPED = REPO / "bots"


def shipped_bot(folder: Path, name: str) -> Path:
    """A copy of shipped bot module ``name`` (``wallhugger.py``) in ``folder``, as a team would submit it."""
    return write_module(folder, name, (SHIPPED / name).read_text())


def play_in_process(league: League, games: int) -> list[int]:
    """Play the league's next ``games`` games as the ladder's turns would (queue a bracket final's next wave
    once its games are played, queue ranked matches once none waits, play the waiting games in queue order),
    from this process, every bot in its sandbox as the ladder plays it; returns the ids stored."""
    stored: list[int] = []
    while len(stored) < games:
        league.advance_final()
        if not league.waiting((RANKED,)):
            league.schedule_ranked(PLAN_AHEAD)
        batch = league.waiting()[:games - len(stored)]
        if not batch:
            break
        config = sandboxing.play_config(league.play_bots(batch), league.settings.build_timeout)
        registry = load_registry(config)
        confined = SandboxedBots(config, sandboxing.LIMITS, registry)  # every league bot plays in the sandbox
        for setup in league.setups(batch):
            guard = MoveGuard()
            with guard.installed(alarm_tick(setup.move_seconds())):
                outcome = play(setup, registry, guard=guard, make_bot=confined)
            if league.record_outcome(setup, outcome):
                stored.append(outcome.index)
    return stored


def results(league: League) -> list[tuple[int, str, tuple[str, ...], tuple[int, ...]]]:
    """Every finished game: (id, kind, players by seat, ranks), by id."""
    games = league.games(limit=100_000)
    return sorted((g.id, g.kind, tuple(f"{s.label}#{s.number}" for s in g.seats), tuple(s.rank for s in g.seats))
                  for g in games)


def ratings(league: League) -> list[tuple[str, float, float, int, int, int, int]]:
    """The leaderboard: (label, mu, sigma, games, wins, draws, losses), best first."""
    return [(r.label, r.mu, r.sigma, r.games, r.wins, r.draws, r.losses) for r in league.leaderboard()]


SEED = 11
MAPS = ("center_block", "empty_room")
QUARTER = 4
HALFWAY = 8
PLAYED = 16
"""The games the played league has played: every ranked match of its first plan (``PLAN_AHEAD`` matches)."""
BEYOND = PLAYED + 2
"""The games the league beyond its first plan has played: the first match of its second plan too, scheduled from
the ratings of the first plan's games."""


def two_teams(league: League, bots_folder: Path) -> None:
    """Teams alice (the wallhugger) and bob (random and floodfill) with their bots submitted."""
    alice = league.authenticate(league.add_team("alice"))
    bob = league.authenticate(league.add_team("bob"))
    league.submit(alice, shipped_bot(bots_folder / "a", "wallhugger.py"))
    league.submit(bob, shipped_bot(bots_folder / "b", "random_bot.py"))
    league.submit(bob, shipped_bot(bots_folder / "b", "floodfill.py"))


_submitted: list[Path] = []


def submitted_league(factory: pytest.TempPathFactory) -> Path:
    """A tron league of seed 11 on center_block and empty_room, alice's and bob's bots submitted, no game: made
    on the first call in this test process, never opened again, only copied."""
    if not _submitted:
        folder = factory.mktemp("submitted-league") / "league"
        league, _ = League.create(folder, "tron", list(MAPS), seed=SEED)
        with league:
            two_teams(league, folder.parent / "bots")
        _submitted.append(folder)
    return _submitted[0]


@dataclass(frozen=True)
class Built:
    """The leagues built once in this test process: never opened again, only copied."""

    submitted: Path
    """The :func:`submitted_league`."""
    halfway_league: Path
    """The same league after its first 8 ranked games, played in this process."""
    played: Path
    """The same league after its first 16 ranked games."""
    beyond: Path
    """The same league after its first 18 ranked games (into its second plan)."""
    stored: list[int]
    """The game ids :func:`play_in_process` returned for the 18."""
    quarter: tuple[list, list]
    """Its results and ratings after the first 4 games."""
    halfway: tuple[list, list]
    """Its results and ratings after the first 8 games."""
    at_the_end: tuple[list, list]
    """Its results and ratings after the 16."""
    beyond_results: tuple[list, list]
    """Its results and ratings after the 18."""


_built: list[Built] = []


def built_leagues(factory: pytest.TempPathFactory) -> Built:
    """The :class:`Built` leagues, made on the first call in this test process: one league played 18 games in
    steps, a copy of it kept (closed) after 8, 16 and 18."""
    if not _built:
        submitted = submitted_league(factory)
        playing = copy_of(submitted, factory.mktemp("playing-league") / "league")
        stored: list[int] = []
        snapshots: list[tuple[list, list]] = []
        copies: list[Path] = []
        for upto, kept in ((QUARTER, None), (HALFWAY, "halfway-league"), (PLAYED, "played-league"),
                           (BEYOND, "beyond-league")):
            with League.open(playing) as league:
                stored += play_in_process(league, upto - len(stored))
                snapshots.append((results(league), ratings(league)))
            if kept is not None:  # closed by everyone: a copy is a league of its own
                copies.append(copy_of(playing, factory.mktemp(kept) / "league"))
        _built.append(Built(submitted, *copies, stored, *snapshots))
    return _built[0]


def copy_of(source: Path, destination: Path) -> Path:
    """A copy of the league folder ``source`` (closed by everyone) at ``destination``, a league of its own."""
    return Path(shutil.copytree(source, destination))


def play_final(league: League) -> None:
    """Play the league's final to its end, wave by wave, in this process, as the ladder would (with ranked play
    paused)."""
    while True:
        league.advance_final()
        left = league.waiting((FINAL,))
        if not left:
            return
        play_in_process(league, len(left))


def kill_when(process: subprocess.Popen, reached: Callable[[], bool], seconds: float = 300) -> None:
    """``kill -9`` the process group of ``process`` (started in a session of its own) once ``reached()`` holds,
    failing if it exits or ``seconds`` pass first."""
    try:
        deadline = time.monotonic() + seconds
        while not reached():
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
