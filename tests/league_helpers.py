"""What the league's tests share: bots to submit, and the ladder's turn played in the test's own process."""

from pathlib import Path

from arena.league import sandboxing
from arena.league.facade import PLAN_AHEAD, RANKED, League
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
    """Play the league's next ``games`` games as the ladder's turns would (queue ranked matches once none
    waits, play the waiting games in queue order), from this process, every bot in its sandbox as the ladder
    plays it; returns the ids stored."""
    stored: list[int] = []
    while len(stored) < games:
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
