"""The PettingZoo and Gymnasium environments pass the libraries' own checks and play arena's games exactly."""

import os
import subprocess
import sys

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from arena.core.errors import ArenaError, BotSpecError
from arena.core.maps import resolve_map
from arena.games.tron.game import TronGame
from arena.play.referee import run_match
from arena.rl import MLPPolicy, gym_env, parallel_env, pettingzoo_env
from arena.rl.session import rank_reward
from tests.helpers import REPO

TRON_RULE_SETS = {
    "aichallenge": ("center_block", {"rules": "aichallenge"}),
    "brown": ("powerup_room", {"rules": "brown"}),
    "alternating": ("center_block", {"moves": "alternating"}),
    "simultaneous-powerups": ("powerup_room", {"moves": "simultaneous", "powerups": "on"}),
    "mirrored-starts": ("empty_room", {"starts": "mirrored"}),
    "four-players": ("four_corners", {}),
    "four-players-alternating": ("four_corners", {"moves": "alternating"}),
}
AEC_CASES = {
    **{f"tron-{name}": ("tron", game_map, options, {}) for name, (game_map, options) in TRON_RULE_SETS.items()},
    "tron-centered": ("tron", "powerup_room", {"rules": "brown"}, {"centered": True}),
    "snafu": ("snafu", None, {}, {}),
    "snafu-centered": ("snafu", "snafu_15x15", {}, {"centered": True}),
    "catmouse": ("catmouse", "catmouse_8x7", {}, {}),
    "catmouse-mouse-first": ("catmouse", "catmouse_5x5", {"repeat": "on"}, {}),
    "pawnrace": ("pawnrace", "pawnrace_5x5", {}, {}),
    "pawnrace-3-pawns": ("pawnrace", "pawnrace_6x6", {"pawns": "3"}, {}),
}
PARALLEL_CASES = {
    "tron-aichallenge": ("tron", "center_block", {}, {}),
    "tron-simultaneous-powerups": ("tron", "powerup_room", {"moves": "simultaneous", "powerups": "on"}, {}),
    "tron-four-players": ("tron", "four_corners", {}, {"centered": True}),
    "snafu": ("snafu", "snafu_15x15", {}, {}),
}


@pytest.mark.parametrize("case", AEC_CASES.values(), ids=AEC_CASES.keys())
def test_aec_environments_pass_the_pettingzoo_api_and_seed_tests(case):
    game, game_map, options, form = case
    api_test(pettingzoo_env(game, map=game_map, options=options, **form), num_cycles=300)
    seed_test(lambda: pettingzoo_env(game, map=game_map, options=options, **form), num_cycles=300)


@pytest.mark.parametrize("case", PARALLEL_CASES.values(), ids=PARALLEL_CASES.keys())
def test_parallel_environments_pass_the_pettingzoo_api_and_seed_tests(case):
    game, game_map, options, form = case
    parallel_api_test(parallel_env(game, map=game_map, options=options, **form), num_cycles=300)
    parallel_seed_test(lambda: parallel_env(game, map=game_map, options=options, **form), num_cycles=300)


def test_environments_with_opponents_pass_the_api_tests():
    opponents = {"player_1": "floodfill"}
    api_test(pettingzoo_env("tron", map="center_block", opponents=opponents), num_cycles=300)
    seed_test(lambda: pettingzoo_env("tron", map="center_block", opponents=opponents), num_cycles=300)
    parallel_api_test(parallel_env("tron", map="four_corners", opponents={"player_3": "wallhugger"}), num_cycles=300)
    check_env(gym_env("catmouse", opponents={"player_1": "cm_random"}), skip_render_check=True)
    check_env(gym_env("tron", map="center_block", opponents={"player_1": "random"}, centered=True),
              skip_render_check=True)


def test_a_seeded_reset_sets_up_the_game_arena_plays_with_that_seed():
    env = pettingzoo_env("tron", map="powerup_room", options={"rules": "brown"})
    game_map = resolve_map("powerup_room")
    for seed in (3, 11):
        env.reset(seed=seed)
        options = TronGame.resolve_options({**game_map.header, "rules": "brown"})
        expected = TronGame(game_map, options, np.random.default_rng(seed))
        assert env.unwrapped.session.game.render() == expected.render()
    env.reset(seed=3)
    first = env.unwrapped.session.game.render()
    env.reset(seed=11)
    assert env.unwrapped.session.game.render() != first  # mirrored starts differ by seed


def test_the_gym_environment_with_an_opponent_plays_the_same_game_as_a_match(tmp_path):
    network = MLPPolicy.initial("tron", [5 * 13 * 13, 16, 4], np.random.default_rng(5))
    path = tmp_path / "agent.npz"
    network.save(path)
    outcome = run_match("tron", [f"npz:file={path}", "floodfill"], game_map="center_block", seed=9)

    env = gym_env("tron", map="center_block", opponents={"player_1": "floodfill"})
    planes, info = env.reset(seed=9)
    moves, done, reward = [], False, 0.0
    while not done:
        index = network(planes, info["action_mask"])
        moves.append("NESW"[index])
        planes, reward, done, _truncated, info = env.step(index)
    assert moves == [turn[0] for turn in outcome.actions]
    assert info["rank"] == outcome.ranks[0]
    assert reward == {1: 1.0, 2: -1.0}[outcome.ranks[0]] if outcome.ranks[0] != outcome.ranks[1] else reward == 0.0


def test_rank_rewards():
    assert rank_reward((1, 2), 0) == 1.0 and rank_reward((1, 2), 1) == -1.0
    assert rank_reward((1, 1), 0) == 0.0
    assert [rank_reward((1, 2, 3, 3), seat) for seat in range(4)] == [1.0, 1 / 3, -2 / 3, -2 / 3]
    assert rank_reward((None, 4, None, None), 1) == -1.0  # out first while the others play on


def test_a_seat_out_of_a_four_player_tron_game_is_done_at_once_with_its_rank_reward():
    env = pettingzoo_env("tron", map="four_corners", options={"moves": "alternating"})
    env.reset(seed=0)
    game = env.unwrapped.session.game
    west = 3
    env.step(west)  # player_0 from (2, 2) to (1, 2), beside the wall
    for seat in (1, 2, 3):
        assert env.agent_selection == f"player_{seat}"
        env.step("NESW".index(game.observe(seat).safe_moves()[0]))
    env.step(west)  # player_0 into the wall
    assert [agent for agent in env.agents if env.terminations[agent]] == ["player_0"]
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0, "player_3": 0.0}
    assert env.infos["player_0"] == {"rank": 4}
    assert env.agent_selection == "player_0"  # a done agent steps out first
    env.step(None)
    assert env.agents == ["player_1", "player_2", "player_3"] and env.agent_selection == "player_1"


def test_a_masked_out_action_loses_the_game():
    env = pettingzoo_env("catmouse", map="catmouse_8x7")
    env.reset(seed=0)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert "not legal" in env.infos["player_0"]["reason"]


def test_shaping_adds_the_change_of_the_game_potential():
    env = pettingzoo_env("catmouse", map="catmouse_8x7", shaping=1.0)
    env.reset(seed=0)
    session = env.unwrapped.session
    before = session.game.shaping(0)
    mask = env.observe("player_0")["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.rewards["player_0"] == pytest.approx(session.game.shaping(0) - before)
    assert env.rewards["player_0"] != 0.0


def test_bad_setups_are_refused_in_one_line():
    with pytest.raises(ArenaError, match="players take turns"):
        parallel_env("catmouse")
    with pytest.raises(ArenaError, match="one learning seat"):
        gym_env("tron", map="four_corners", opponents={"player_1": "random"})
    with pytest.raises(ArenaError, match="no agent 'player_5'"):
        pettingzoo_env("tron", map="center_block", opponents={"player_5": "random"})
    with pytest.raises(BotSpecError, match="unknown bot"):
        pettingzoo_env("tron", map="center_block", opponents={"player_1": "nosuchbot"})
    with pytest.raises(ArenaError, match="bad array option"):
        pettingzoo_env("catmouse", centered=True)
    with pytest.raises(ArenaError, match="leave at least one seat"):
        pettingzoo_env("tron", map="center_block", opponents={"player_0": "random", "player_1": "random"})


def test_importing_arena_imports_neither_pettingzoo_nor_gymnasium():
    code = ("import sys, arena, arena.rl, arena.rl.policy\n"
            "arena.load_registry()\n"
            "print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "[]"
