"""Every registered game, on every shipped map for it, must honour the Game contract."""

import pickle
import random

import numpy as np
import pytest

from arena.core.game import Result
from arena.core.maps import known_map_names, resolve_map
from arena.plugins.registry import PluginConfig, load_registry
from arena.tournament.selection import map_game

REGISTRY = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
CASES = [
    (name, map_name)
    for map_name in known_map_names()
    for name in [map_game(resolve_map(map_name), REGISTRY)]
    if name in REGISTRY.games
]
GAME_NAMES = {name for name, _ in CASES}


def test_every_registered_game_has_a_shipped_map():
    assert GAME_NAMES == set(REGISTRY.games)


def play_randomly(game_cls, game_map, options, seed):
    game = game_cls(game_map, options, np.random.default_rng(seed))
    chooser = random.Random(seed)
    history = []
    for _ in range(100_000):
        if game.result is not None:
            return game, history
        seats = list(game.to_act())
        assert seats and all(0 <= seat < game.num_seats for seat in seats)
        actions = {}
        for seat in seats:
            legal = list(game.legal_actions(seat))
            assert legal and all(game.is_legal(seat, action) for action in legal)
            observation = game.observe(seat)
            copy = pickle.loads(pickle.dumps(observation))  # observations must cross process boundaries
            assert type(copy) is type(observation)
            actions[seat] = chooser.choice(legal)
        game.apply(actions)
        history.append(actions)
    raise AssertionError("game did not end")


@pytest.mark.parametrize(("game_name", "map_name"), CASES)
def test_game_contract(game_name, map_name):
    game_cls = REGISTRY.game(game_name)
    game_map = resolve_map(map_name)
    game_cls.check_map(game_map)
    for values in [dict(zip(game_cls.options, combo, strict=True))
                   for combo in zip(*(option.choices for option in game_cls.options.values()), strict=True)]:
        options = game_cls.resolve_options({**game_map.header, **values})
        seats = game_cls.num_players(game_map)
        assert game_cls.min_players <= seats <= game_cls.max_players
        for seed in range(5):
            game, history = play_randomly(game_cls, game_map, options, seed)
            result = game.result
            assert isinstance(result, Result) and result.reason
            assert len(result.ranks) == game.num_seats == seats
            assert min(result.ranks) == 1 and max(result.ranks) <= seats
            assert isinstance(game.render(), str) and isinstance(game.render(color=True), str)
            again, history_again = play_randomly(game_cls, game_map, options, seed)
            assert history_again == history and again.result == result
            assert game.is_legal(0, object()) is False
            if game_cls.roles:
                assert len(game_cls.roles) == seats
