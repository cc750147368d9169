"""Huge tournaments: a schedule costs no memory for its games, a billion-game run starts at once, plays in
bounded memory, stops on Ctrl-C and resumes exactly where it stopped."""

import itertools
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc

import pytest

from arena.cli.main import app
from arena.core.maps import resolve_map
from arena.play.referee import MatchSetup
from arena.play.setup_queue import SetupQueue
from arena.storage.store import Store
from arena.tournament import played as played_module
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.played import StoredGames, missing_ranges
from arena.tournament.runner import open_run, play_stored_run, resume_run
from arena.tournament.schedules import game_seed, seat_assignments, swiss_round
from tests.cli_runner import CliRunner
from tests.helpers import games_stored

BILLION = 10**9


def listed_round_robin(game, maps, bots, games_per_pairing, seed, time_limit, can_play=None, gauntlet=None):
    """The round robin as it was listed in full before schedules were worked out from the index: the reference."""
    blocks = []
    for map_index, game_map in enumerate(maps):
        for group_index, group in enumerate(itertools.combinations(bots, game.num_players(game_map))):
            if gauntlet is not None and gauntlet not in group:
                continue
            seatings = seat_assignments(game, group, can_play)
            if seatings:
                blocks.append((map_index, group_index, game_map, seatings))
    repetitions = max(-(-games_per_pairing // len(seatings)) for *_, seatings in blocks)
    schedule = []
    for repetition in range(repetitions):
        for map_index, group_index, game_map, seatings in blocks:
            seed_here = game_seed(seed, map_index, group_index, repetition)
            for seating in seatings:
                schedule.append(MatchSetup(game.name, seating, game_map, dict(game_map.header), seed_here, time_limit,
                                           len(schedule)))
    return schedule


def test_a_schedule_gives_the_games_it_listed_before_in_any_access_order(shipped_registry):
    cases = [
        (["empty_room", "center_block"], ["random", "chaser", "wallhugger"], 5, None),
        (["four_corners"], ["random", "chaser", "wallhugger", "floodfill", "voronoi"], 3, "chaser"),
        (["catmouse_5x5"], ["cm_random", "greedy", "wary"], 3, None),
    ]
    for maps, bots, games, gauntlet in cases:
        plan = plan_tournament(TournamentDefinition(maps=tuple(maps), bots=tuple(bots), games=games, seed=7,
                                                    format="gauntlet" if gauntlet else "round-robin",
                                                    gauntlet=gauntlet), shipped_registry)
        listed = listed_round_robin(plan.game, plan.maps, plan.bots, games, 7, 1.0, plan.can_play, plan.gauntlet)
        schedule = plan.first_stage()
        assert len(schedule) == len(listed) > 4
        assert list(schedule) == listed
        assert [schedule[i] for i in reversed(range(len(listed)))] == listed[::-1]
        for start in range(len(listed) + 1):
            assert list(schedule.from_position(start)) == listed[start:]


def test_a_swiss_round_gives_every_pair_on_every_map_in_both_seats(shipped_registry):
    bots = [shipped_registry.spec(name) for name in ("random", "chaser", "wallhugger", "floodfill")]
    maps = [resolve_map("empty_room"), resolve_map("center_block")]
    game = shipped_registry.game("tron")
    pairs = [(bots[0], bots[2]), (bots[1], bots[3])]
    stage = swiss_round(game, maps, pairs, 2, 3, 11, 1.0, 40)
    expected = [MatchSetup("tron", seating, game_map, dict(game_map.header), game_seed(11, 2, m, p, repetition), 1.0,
                           40 + position)
                for position, (repetition, (m, game_map), (p, (a, b)), seating) in enumerate(
                    (r, mp, pp, s) for r in range(2) for mp in enumerate(maps) for pp in enumerate(pairs)
                    for s in (pp[1], pp[1][::-1]))]
    assert list(stage) == expected and [stage[i] for i in range(len(stage))] == expected
    assert list(stage.index_range()) == list(range(40, 56))


def test_a_billion_game_schedule_costs_no_memory_and_starts_with_the_small_ones_games(shipped_registry):
    small = plan_tournament(TournamentDefinition(maps=("empty_room", "center_block"), bots=("random", "chaser",
                                                 "wallhugger"), games=4, seed=3), shipped_registry)
    tracemalloc.start()
    try:
        huge = plan_tournament(TournamentDefinition(maps=("empty_room", "center_block"),
                                                    bots=("random", "chaser", "wallhugger"), games=BILLION, seed=3),
                               shipped_registry)
        schedule = huge.first_stage()
        first = list(itertools.islice(schedule, 24))
        last = schedule[len(schedule) - 1]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert huge.total_games() == len(schedule) == 2 * 3 * BILLION
    assert peak < 256 * 1024
    assert first == list(small.first_stage())
    assert last.index == 6 * BILLION - 1 and last.seed == game_seed(3, 1, 2, BILLION // 2 - 1)
    assert [spec.name for spec in last.bots] == ["wallhugger", "chaser"]


def test_executors_take_games_from_a_queue_that_reads_the_schedule_as_it_goes():
    pulled = []

    def setups():
        for index in range(10):
            pulled.append(index)
            yield MatchSetup("tron", (), index=index)

    queue = SetupQueue(setups())
    assert [s.index for s in queue.peek(3)] == [0, 1, 2] and pulled == [0, 1, 2]
    taken = queue.take(2)
    queue.put_back(taken)
    assert [s.index for s in queue.take(4)] == [0, 1, 2, 3] and pulled == [0, 1, 2, 3]
    assert len(SetupQueue(range(5))) == 5 and not SetupQueue([])


def store_games_at(store, run_id, indices, plan):
    """Store finished games of ``plan`` at ``indices`` (played in this process)."""
    from arena.play.executors import run_in_process
    from arena.plugins.registry import load_registry
    from arena.tournament.runner import store_game

    registry = load_registry()
    schedule = plan.first_stage()
    bot_ids = {}
    for outcome in run_in_process([schedule[i] for i in indices], registry):
        store_game(store, run_id, plan.game, schedule[outcome.index], outcome, registry, bot_ids)


def test_the_missing_games_are_found_a_page_at_a_time(shipped_registry, monkeypatch, tmp_path):
    monkeypatch.setattr(played_module, "PAGE", 3)  # several pages
    plan = plan_tournament(TournamentDefinition(maps=("empty_room",), bots=("random", "wallhugger"), games=BILLION),
                           shipped_registry)
    with Store(tmp_path / "arena.db") as store:
        run_id = open_run(store, plan).run.run_id
        stored = [0, 1, 2, 3, 7, 8, 10, 11, 12, 20]
        store_games_at(store, run_id, stored, plan)
        games = StoredGames(store, run_id)
        assert len(games) == 10 and list(games) == stored and 8 in games and 9 not in games
        assert list(missing_ranges(games, 0, 25)) == [range(4, 7), range(9, 10), range(13, 20), range(21, 25)]
        assert list(missing_ranges(games, 8, 13)) == [range(9, 10)]
        walk = missing_ranges(games, 2, BILLION)
        assert [next(walk) for _ in range(4)] == [range(4, 7), range(9, 10), range(13, 20), range(21, BILLION)]
        assert list(missing_ranges(dict.fromkeys(stored), 0, 25)) == list(missing_ranges(games, 0, 25))


def comparable(store, run_id):
    """Each stored game by index: players, ranks, reason, seed and moves (not its timings)."""
    return {row.idx: (row.labels, row.ranks, row.reason, row.record["seed"], row.record["turns"])
            for row in store.games(run_id=run_id)}


@pytest.mark.slow
def test_a_billion_game_run_plays_in_bounded_memory_stops_and_resumes_where_it_stopped(shipped_registry,
                                                                                          shipped_config, tmp_path):
    definition = TournamentDefinition(maps=("empty_room",), bots=("random", "wallhugger"), games=BILLION, seed=4)
    memory = {}

    def stop_after(count):
        seen = []

        def on_game(outcome):
            seen.append(outcome.index)
            if len(seen) in (300, 1500):
                memory[len(seen)] = tracemalloc.get_traced_memory()[0]
            if len(seen) == count:
                raise KeyboardInterrupt
        return on_game

    with Store(tmp_path / "arena.db") as store:
        opened = open_run(store, plan_tournament(definition, shipped_registry))
        tracemalloc.start()
        try:
            run = play_stored_run(store, opened.run, shipped_registry, shipped_config, workers=1,
                                  on_game=stop_after(1500))
        finally:
            tracemalloc.stop()
        stored = len(run.played)  # the games that arrived with the 1500th are stored too
        assert run.interrupted and 1500 <= stored < 1600 and store.run(1).status == "interrupted"
        assert sorted(StoredGames(store, 1)) == list(range(stored))
        # the 1,200 games between the two measures left nothing behind (they once kept ~1 KB each: 1.2 MB; now
        # ~170 KB); what differs is the games in flight, a few batches
        assert memory[1500] - memory[300] < 512 * 1024

        # a stop with games in flight on several workers leaves holes: resuming fills them first
        store.conn.execute("DELETE FROM games WHERE run_id = 1 AND idx IN (5, 6, 250, 1499)")
        store.conn.execute("UPDATE runs SET played = played - 4 WHERE id = 1")
        resumed = resume_run(store, 1, shipped_registry)
        assert resumed.played_before == stored - 4
        again = []
        play_stored_run(store, resumed.run, shipped_registry, shipped_config, workers=1,
                        on_game=lambda outcome: (again.append(outcome.index), len(again) == 20 and _interrupt()))
        assert again == [5, 6, 250, 1499, *range(stored, stored + 16)]
        huge = comparable(store, 1)

    with Store(tmp_path / "reference.db") as store:
        small = TournamentDefinition(maps=("empty_room",), bots=("random", "wallhugger"), games=max(huge) + 1, seed=4)
        run = open_run(store, plan_tournament(small, shipped_registry)).run
        play_stored_run(store, run, shipped_registry, shipped_config, workers=1)
        reference = comparable(store, 1)
    assert set(range(stored + 16)) <= set(huge) and huge == {idx: reference[idx] for idx in huge}


def _interrupt():
    raise KeyboardInterrupt



def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def interrupt_after(command, db, games, cwd, first=0):
    """Run ``command`` until ``db`` holds ``games`` games, and every game placed before ``first``, then press
    Ctrl-C; its stderr and resident memory."""
    env = {k: v for k, v in os.environ.items() if k not in ("ARENA_BOTS_PATH", "ARENA_DB")}
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while games_stored(db) < games or games_stored(db, below=first) < first:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no games stored"
            time.sleep(0.05)
        resident = resident_kib(process.pid)
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, errors
    return errors, resident


@pytest.mark.slow
def test_the_command_plays_a_billion_games_stops_on_ctrl_c_and_resumes(tmp_path):
    command = [sys.executable, "-m", "arena", "tournament", "empty_room", "-b", "random,wallhugger", "-n",
               str(BILLION), "-w", "2", "--seed", "9", "--db", str(tmp_path / "arena.db")]
    errors, resident = interrupt_after(command, tmp_path / "arena.db", 100, tmp_path)
    assert "run 1: 0/1,000,000,000 games (0%)" in errors.splitlines()
    assert resident < 200 * 1024
    first = games_stored(tmp_path / "arena.db")
    assert f"interrupted: {first} of {BILLION} games played; continue with: arena tournament --resume 1" in \
        " ".join(errors.split())

    # the games left in flight by the Ctrl-C (placed among those stored, two workers finishing out of order) are
    # the first the resumed run hands out; a game in flight at the next Ctrl-C would wait for the next resume
    errors, resident = interrupt_after(command, tmp_path / "arena.db", first + 100, tmp_path, first=first)
    assert f"resuming run 1: {first} of {BILLION} games already played" in errors
    assert resident < 200 * 1024
    with Store(tmp_path / "arena.db") as store:
        huge = comparable(store, 1)
    assert set(range(first)) <= set(huge)

    # the reference's own process is not what is tested: it runs here
    reference = CliRunner().invoke(app, [*command[3:8], str(max(huge) + 1), *command[9:-1],
                                         str(tmp_path / "reference.db"), "-f", "json"])
    assert reference.exit_code == 0, reference.output
    assert json.loads(reference.stdout)["games_played"] >= max(huge) + 1
    with Store(tmp_path / "reference.db") as store:
        expected = comparable(store, 1)
    assert huge == {idx: expected[idx] for idx in huge}
