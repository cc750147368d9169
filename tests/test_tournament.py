import random
from collections import Counter

import pytest

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.core.maps import resolve_map
from arena.games.tron.game import TronGame
from arena.plugins.registry import PluginConfig, load_registry
from arena.stats.ratings import draw_probability, pairwise_draw_rate, rate
from arena.stats.standings import standings_from_games
from arena.tournament.definition import TournamentDefinition
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import TournamentRun
from arena.tournament.schedules import round_robin
from tests.helpers import round_robin_run

# The shipped Tron bots that don't read the clock: the same seed replays the same games, and they are quick.
# (The search bots, which also play by default, think 0.1 s a move and depend on how far they got.)
SHIPPED = ["chaser", "floodfill", "random", "wallhugger"]


def without_timing(outcome, setup):
    record = outcome.record(setup)
    record.pop("think_time")
    return outcome.index, outcome.ranks, outcome.reason, outcome.failure_kinds, outcome.actions, record


def test_round_robin_plays_every_pair_on_every_map_in_both_seats():
    maps = [resolve_map("empty_room"), resolve_map("center_block")]
    bots = [BotSpec(name) for name in SHIPPED]
    schedule = round_robin(TronGame, maps, bots, 4, seed=1, time_limit=1.0)
    assert len(schedule) == 6 * 2 * 4
    assert [s.index for s in schedule] == list(range(len(schedule)))
    seatings = Counter((s.game_map.name, s.bots[0].name, s.bots[1].name) for s in schedule)
    assert set(seatings.values()) == {2}
    assert len(seatings) == 2 * 12
    for first, second in zip(schedule[::2], schedule[1::2], strict=True):
        assert first.bots == second.bots[::-1]
        assert first.seed == second.seed
    assert len({s.seed for s in schedule}) == len(schedule) // 2


def test_games_per_pairing_rounds_up_to_whole_seatings():
    bots = [BotSpec(name) for name in SHIPPED[:2]]
    assert len(round_robin(TronGame, [resolve_map("empty_room")], bots, 3, 0, 1.0)) == 4
    four = [BotSpec(name) for name in SHIPPED]
    schedule = round_robin(TronGame, [resolve_map("four_corners")], four, 1, 0, 1.0)
    assert [tuple(b.name for b in s.bots) for s in schedule] == [
        ("chaser", "floodfill", "random", "wallhugger"),
        ("floodfill", "random", "wallhugger", "chaser"),
        ("random", "wallhugger", "chaser", "floodfill"),
        ("wallhugger", "chaser", "floodfill", "random"),
    ]


def plan(maps, bots, registry, **definition):
    return plan_tournament(TournamentDefinition(maps=tuple(maps), bots=tuple(bots), **definition), registry)


def test_schedule_rejects_bad_requests(shipped_registry):
    with pytest.raises(ArenaError, match="has 4 seats but only 2 bots"):
        plan(["four_corners"], ["random", "chaser"], shipped_registry).first_stage()
    with pytest.raises(ArenaError, match="listed twice"):
        plan(["empty_room"], ["random", "random"], shipped_registry).first_stage()
    with pytest.raises(ArenaError, match="at least 1"):
        plan(["empty_room"], [], shipped_registry, games=0)
    with pytest.raises(ArenaError, match="must be positive"):
        plan(["empty_room"], [], shipped_registry, time_limit=0)


@pytest.mark.slow
def test_two_worker_processes_give_the_same_results_as_one(shipped_registry, shipped_config):
    def tournament(workers):
        return round_robin_run(["empty_room", "diagonal_blocks"], SHIPPED, shipped_registry, shipped_config,
                               workers=workers, in_process=False, seed=11)

    (alone, alone_outcomes), (pooled, pooled_outcomes) = tournament(1), tournament(2)
    assert len(alone_outcomes) == len(pooled_outcomes) == 24
    assert [without_timing(alone_outcomes[i], alone.setups[i]) for i in range(24)] == \
        [without_timing(pooled_outcomes[i], pooled.setups[i]) for i in range(24)]
    assert [(r.label, r.rating, r.wins, r.draws, r.losses) for r in alone.standings().rows] == \
        [(r.label, r.rating, r.wins, r.draws, r.losses) for r in pooled.standings().rows]


def test_in_process_and_worker_processes_agree(shipped_registry, shipped_config):
    inside, _ = round_robin_run(["center_block"], SHIPPED, shipped_registry, shipped_config, in_process=True, seed=4)
    outside, _ = round_robin_run(["center_block"], SHIPPED, shipped_registry, shipped_config, in_process=False, seed=4)
    assert inside.played.keys() == outside.played.keys()
    assert all(inside.played[i].ranks == outside.played[i].ranks for i in inside.played)


def test_a_different_seed_plays_different_games(shipped_registry, shipped_config):
    records = []
    for seed in (1, 2):
        run, outcomes = round_robin_run(["empty_room"], ["random", "floodfill"], shipped_registry, shipped_config,
                                        seed=seed)
        records.append([outcomes[i].record(run.setups[i])["turns"] for i in range(2)])
    assert records[0] != records[1]


def test_misbehaving_bots_lose_and_the_tournament_goes_on(bot_dir):
    config = PluginConfig(bot_dirs=(str(bot_dir),), use_cwd_bots=False, use_env_path=False)
    registry = load_registry(config)
    run, outcomes = round_robin_run(["empty_room"], ["crasher", "illegal", "sleeper", "quitter", "steady"], registry,
                                    config, time_limit=0.05)
    assert len(outcomes) == 20
    rows = {row.label: row for row in run.standings().rows}
    assert rows["steady"].wins == 8 and rows["steady"].losses == 0
    assert dict(rows["illegal"].failures) == {"illegal": 8}
    assert dict(rows["sleeper"].failures) == {"timeout": 8}
    assert dict(rows["quitter"].failures) == {"crash": 8}
    assert rows["crasher"].failures["crash"] == 2  # only steady lets it live to turn 2
    record = outcomes[0].record(run.setups[0])
    assert [run.setups[0].bots[0].name, run.setups[0].bots[1].name] == ["crasher", "illegal"]
    assert record["failures"] == [{"seat": 1, "kind": "illegal",
                                   "detail": "returned 'X' on move 1, which is not a legal action"}]
    assert record["result"] == {"ranks": [1, 2],
                                "reason": "player 2 (illegal) returned 'X' on move 1, which is not a legal action"}


def test_standings_do_not_depend_on_the_order_games_finish(shipped_registry, shipped_config):
    run, _ = round_robin_run(["center_block"], SHIPPED, shipped_registry, shipped_config, seed=5)
    ordered = [run.played[i] for i in sorted(run.played)]
    shuffled = dict(run.played)
    items = list(shuffled.items())
    random.Random(0).shuffle(items)
    again = TournamentRun(run.plan, played=dict(items))
    assert again.standings() == run.standings() == standings_from_games("tron", ordered, 12)


def test_interrupted_tournament_keeps_finished_games(shipped_registry, shipped_config):
    seen = []

    def stop_after_three(outcome):
        seen.append(outcome.index)
        if len(seen) == 3:
            raise KeyboardInterrupt

    run, _ = round_robin_run(["empty_room"], SHIPPED, shipped_registry, shipped_config, on_outcome=stop_after_three)
    assert run.interrupted and sorted(run.played) == [0, 1, 2]
    standings = run.standings()
    assert standings.played == 3 and standings.scheduled == 12 and not standings.complete


def test_draw_probability_is_smoothed_observed_rate():
    assert pairwise_draw_rate([(1, 1), (1, 2), (2, 1), (1, 1, 3)]) == (2, 6)
    assert draw_probability([]) == 0.5
    assert draw_probability([(1, 2)] * 8) == pytest.approx(1 / 10)
    assert draw_probability([(1, 1)] * 8) == pytest.approx(9 / 10)


def test_trueskill_ranks_the_stronger_player_higher_and_counts_draws():
    games = [(("a", "b"), (1, 2))] * 6 + [(("a", "b"), (1, 1))] * 2
    ratings, probability = rate(games)
    assert probability == pytest.approx(3 / 10)
    assert ratings["a"].mu > 25 > ratings["b"].mu
    assert ratings["a"].conservative == pytest.approx(ratings["a"].mu - 3 * ratings["a"].sigma)
    even, _ = rate([(("a", "b"), (1, 1))] * 4)
    assert even["a"].mu == pytest.approx(25) and even["b"].mu == pytest.approx(25)
