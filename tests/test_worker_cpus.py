"""Workers kept to one CPU each when there is one worker a CPU, and everything they start with them: a bot in the
worker's process, and a sandboxed bot's zygote and its games. With fewer workers, or ``ARENA_WORKER_AFFINITY=0``,
the workers keep every CPU the command may use."""

import os
import re

import pytest

from arena.cli.main import app
from arena.play.worker_cpus import SWITCH, worker_cpus
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

REPORTER = '''
import os
from arena import Bot

class Reporter(Bot):
    name = "reporter"
    games = ("tron",)

    def act(self, obs):
        raise RuntimeError("CPUS " + ",".join(str(cpu) for cpu in sorted(os.sched_getaffinity(0))))
'''


@pytest.fixture
def two_cpus():
    """This process kept to two of its CPUs for the test (its workers inherit them), then given them all back."""
    before = os.sched_getaffinity(0)
    if len(before) < 2:
        pytest.skip("needs a machine with two CPUs or more")
    two = set(sorted(before)[:2])
    os.sched_setaffinity(0, two)
    yield sorted(two)
    os.sched_setaffinity(0, before)


def cpus_seen(tmp_path, workers, *flags):
    """The CPU sets the reporter saw in each game of a tournament on ``workers`` workers."""
    bots = tmp_path / "bots"
    write_module(bots, "reporter.py", REPORTER)
    db = tmp_path / f"cpus-{workers}-{len(flags)}.db"
    result = CliRunner().invoke(app, ["tournament", str(REPO / "maps" / "empty_room.txt"), "--bots",
                                      "reporter,wallhugger", "--games", "4", "--workers", str(workers), "--db",
                                      str(db), "--bots-dir", str(bots), "--time-limit", "5", *flags])
    assert result.exit_code == 0, result.output
    with Store(db) as store:
        reasons = [game.reason for game in store.games()]
    seen = [re.search(r"CPUS ([\d,]+)", reason) for reason in reasons]
    assert len(seen) == 4 and all(seen), reasons
    return [[int(cpu) for cpu in found.group(1).split(",")] for found in seen if found]


def test_one_worker_a_cpu_keeps_each_to_its_own(tmp_path, two_cpus, monkeypatch):
    monkeypatch.delenv(SWITCH, raising=False)
    assert worker_cpus(2) == two_cpus and worker_cpus(1) is None and worker_cpus(3) is None
    assert all(len(cpus) == 1 and cpus[0] in two_cpus for cpus in cpus_seen(tmp_path, 2))


def test_fewer_workers_than_cpus_or_the_switch_off_keep_every_cpu(tmp_path, two_cpus, monkeypatch):
    monkeypatch.delenv(SWITCH, raising=False)
    assert cpus_seen(tmp_path, 1) == [two_cpus] * 4
    monkeypatch.setenv(SWITCH, "0")
    assert worker_cpus(2) is None
    assert cpus_seen(tmp_path, 2) == [two_cpus] * 4


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_a_sandboxed_bots_games_keep_to_their_workers_cpu(tmp_path, two_cpus, monkeypatch):
    monkeypatch.delenv(SWITCH, raising=False)
    assert all(len(cpus) == 1 and cpus[0] in two_cpus for cpus in cpus_seen(tmp_path, 2, "--sandbox"))
