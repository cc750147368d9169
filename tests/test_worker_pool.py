"""Worker pools keep their workers busy, and a stored tournament commits every game before it counts it."""

import json
import sqlite3
import subprocess
import sys

import pytest

from arena.core.bot import BotSpec
from arena.core.maps import resolve_map
from arena.play.executors import BATCHES_AHEAD, QUEUED_BYTES, WorkerPool, _Worker
from arena.play.referee import MatchSetup
from arena.storage.store import Store
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import open_run, play_stored_run


def short_games(count):
    game_map = resolve_map("empty_room")
    bots = (BotSpec("random"), BotSpec("wallhugger"))
    return [MatchSetup("tron", bots, game_map, dict(game_map.header), seed, 1.0, seed) for seed in range(count)]


def test_a_worker_holds_its_next_batch_only_while_it_is_small():
    worker = _Worker(0, None, None)
    assert worker.can_take(10 * QUEUED_BYTES)  # an idle worker takes any batch
    worker.batches.append(5)
    assert worker.can_take(QUEUED_BYTES) and not worker.can_take(QUEUED_BYTES + 1)
    worker.batches.extend([5] * (BATCHES_AHEAD - 1))
    assert not worker.can_take(1)


def test_a_worker_accounts_for_each_game_of_each_batch_in_order():
    worker = _Worker(0, None, None)
    setups = short_games(5)
    for batch in (setups[:2], setups[2:]):
        worker.in_flight.extend(batch)
        worker.batches.append(len(batch))
    assert [worker.returned().index for _ in range(3)] == [0, 1, 2]
    assert list(worker.batches) == [2]
    assert [worker.returned().index for _ in range(2)] == [3, 4]
    assert not worker.batches and not worker.in_flight


@pytest.mark.slow
def test_outcomes_that_arrive_together_come_as_one_list(shipped_config, shipped_registry):
    setups = short_games(300)
    with WorkerPool(2, shipped_config, registry=shipped_registry) as pool:
        arrivals = list(pool.run_batches(setups))
    indices = sorted(outcome.index for arrived in arrivals for outcome in arrived)
    assert indices == list(range(300))  # each game exactly once
    assert max(len(arrived) for arrived in arrivals) > 1
    assert len(arrivals) < 300


@pytest.mark.slow
def test_every_game_is_committed_before_it_is_counted(tmp_path, shipped_config, shipped_registry):
    plan = plan_tournament(TournamentDefinition(maps=("empty_room",), bots=("random", "wallhugger", "chaser"),
                                                games=20, seed=3), shipped_registry)
    path = tmp_path / "arena.db"
    seen_stored = []
    with Store(path) as store:
        opened = open_run(store, plan)
        reader = sqlite3.connect(path)  # another connection sees only what is committed

        def check(outcome):
            row = reader.execute("SELECT count(*) FROM games WHERE run_id = ? AND idx = ?",
                                 (opened.run.run_id, outcome.index)).fetchone()
            seen_stored.append(row[0])

        play_stored_run(store, opened.run, shipped_registry, shipped_config, workers=2, on_game=check)
        reader.close()
    assert len(seen_stored) == plan.total_games() == 60
    assert seen_stored == [1] * 60


@pytest.mark.slow
def test_a_busy_worker_is_sent_its_next_batch_before_it_finishes(shipped_config, shipped_registry, monkeypatch):
    held = []
    send = _Worker.send

    def recording_send(worker, batch, message):
        send(worker, batch, message)
        held.append(len(worker.batches))

    monkeypatch.setattr(_Worker, "send", recording_send)
    with WorkerPool(1, shipped_config, registry=shipped_registry) as pool:
        outcomes = list(pool.run(short_games(400)))
    assert sorted(outcome.index for outcome in outcomes) == list(range(400))
    assert max(held) == BATCHES_AHEAD  # a second batch went out while the first was still being played



@pytest.mark.slow
def test_a_worker_holds_its_next_batch_while_the_caller_stores_what_arrived(shipped_config, shipped_registry):
    games = 300
    received, held_while_storing = 0, []
    with WorkerPool(1, shipped_config, registry=shipped_registry) as pool:
        worker = pool._pool[0]
        for arrived in pool.run_batches(short_games(games)):
            received += len(arrived)
            if games - received - len(worker.in_flight) > 0:  # games are left to send
                held_while_storing.append(len(worker.batches))
    assert received == games
    assert held_while_storing and set(held_while_storing) == {BATCHES_AHEAD}

FORK_OR_SPAWN = """
import json, sys, threading
from arena.core.bot import BotSpec
from arena.core.maps import resolve_map
from arena.play.executors import WorkerPool
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig, load_registry

def played(config, registry):
    game_map = resolve_map("empty_room")
    setups = [MatchSetup("tron", (BotSpec("random"), BotSpec("wallhugger")), game_map, dict(game_map.header), seed,
                         1.0, seed) for seed in range(40)]
    with WorkerPool(2, config, registry=registry) as pool:
        kinds = sorted({type(worker.process).__name__ for worker in pool._pool})
        outcomes = sorted(pool.run(setups), key=lambda outcome: outcome.index)
    return kinds, [[outcome.ranks, outcome.reason, outcome.actions, outcome.versions] for outcome in outcomes]

if __name__ == "__main__":
    config = PluginConfig(use_cwd_bots=False, use_env_path=False)
    registry = load_registry(config)
    alone = played(config, registry)
    stop = threading.Event()
    beside = threading.Thread(target=stop.wait)  # a live display or a web server would be such a thread
    beside.start()
    try:
        with_thread = played(config, registry)
    finally:
        stop.set()
        beside.join()
    print(json.dumps([alone, with_thread]))
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked only on Linux")
def test_workers_are_forked_unless_another_thread_runs_and_play_the_same_games(tmp_path):
    program = tmp_path / "fork_or_spawn.py"  # a fresh process: a test before may have left threads running
    program.write_text(FORK_OR_SPAWN)
    finished = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, timeout=300,
                              cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    (forked, forked_games), (spawned, spawned_games) = json.loads(finished.stdout)
    assert (forked, spawned) == (["ForkProcess"], ["SpawnProcess"])
    assert forked_games == spawned_games
    assert len({tuple(ranks) for ranks, *_ in forked_games}) > 1  # games that differ, not one game forty times


def test_a_worker_writes_to_its_own_streams_not_to_what_it_was_forked_with(tmp_path):
    # A forked worker starts with its parent's streams (a live display's proxies) and fault handler.
    script = f"""
import faulthandler, io, sys
from arena.play.executors import _silence_output
faulthandler.enable()
sys.stdout = sys.stderr = io.StringIO()
_silence_output()
print("lost")
with open({str(tmp_path / "seen.txt")!r}, "w") as seen:
    seen.write(repr((sys.stdout is sys.__stdout__, sys.stderr is sys.__stderr__, faulthandler.is_enabled())))
"""
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (finished.returncode, finished.stdout, finished.stderr) == (0, "", "")
    assert (tmp_path / "seen.txt").read_text() == "(True, True, False)"
