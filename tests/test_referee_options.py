"""The referee works out a game's options once per process for each set, and hands each game its own copy."""

import pytest

from arena.core.errors import ArenaError
from arena.games.tron.game import TronGame
from arena.play.referee import _resolved_options, run_match


def test_each_game_gets_its_own_copy_of_the_resolved_options():
    given = {"rules": "brown", "moves": "simultaneous"}
    first = _resolved_options(TronGame, given)
    assert first == TronGame.resolve_options(given) == {"moves": "simultaneous", "starts": "mirrored", "powerups": "on"}
    first["moves"] = "changed by a game"
    assert _resolved_options(TronGame, given) == {"moves": "simultaneous", "starts": "mirrored", "powerups": "on"}


def test_a_bad_option_is_refused_every_time():
    for _ in range(2):
        with pytest.raises(ArenaError, match="not one of"):
            _resolved_options(TronGame, {"moves": "sideways"})


def test_games_with_the_same_options_record_the_same_options():
    outcomes = [run_match("tron", ["random", "wallhugger"], game_map="empty_room", options={"rules": "brown"}, seed=s)
                for s in (1, 1)]
    brown = {"moves": "alternating", "starts": "mirrored", "powerups": "on"}
    assert outcomes[0].options == outcomes[1].options == brown
    assert outcomes[0].actions == outcomes[1].actions
