"""The referee's short ways through a move stay exact: a plain move's clock, a function bot's policy, the move
guard's slot, and Tron's observations that share one snapshot of a turn."""

import numpy as np
import pytest

from arena.core.bot import Bot, bot
from arena.core.maps import resolve_map
from arena.games.tron.game import TronGame
from arena.play.limits import MoveGuard
from arena.play.referee import run_match

EMPTY_ROOM = resolve_map("empty_room")


class Keeper(Bot):
    """Takes the first safe move, keeping every observation and what its clock said during each move."""

    name = "keeper"
    games = ("tron",)

    def __init__(self) -> None:
        self.kept: list = []
        self.during: list[tuple[float | None, int]] = []

    def start(self, info) -> None:
        self.clock = info.clock

    def act(self, obs):
        self.kept.append(obs)
        self.during.append((self.clock.started, self.clock.moves))
        moves = obs.safe_moves()
        return moves[0] if moves else "N"


def _keepers():
    made: list[Keeper] = []

    def make(spec, seat):
        made.append(Keeper())
        return made[-1]

    return made, make


def test_observations_a_bot_keeps_show_the_board_of_their_own_turn():
    made, make = _keepers()
    outcome = run_match("tron", ["random", "random"], game_map="empty_room", seed=3, make_bot=make)
    assert outcome.turns > 5
    replay = TronGame(EMPTY_ROOM, {"moves": "simultaneous"}, np.random.default_rng(3))
    boards = []
    for actions in outcome.actions:
        boards.append((bytes(replay.board.cells), tuple(replay.board.heads)))
        replay.apply(actions)
    for keeper in made:
        assert len(keeper.kept) == outcome.turns
        assert [(obs.cells, obs.heads) for obs in keeper.kept] == boards  # each one as it was, never moved on
        assert all(type(obs.cells) is bytes for obs in keeper.kept)
        assert [obs.turn for obs in keeper.kept] == list(range(outcome.turns))
    # the two seats of a turn share one snapshot, and each observation is its own seat's
    assert all(first.cells is second.cells for first, second in zip(made[0].kept, made[1].kept, strict=True))
    assert {obs.seat for obs in made[0].kept} == {0} and {obs.seat for obs in made[1].kept} == {1}


def test_a_plain_move_starts_and_ends_the_bots_clock():
    made, make = _keepers()
    outcome = run_match("tron", ["random", "random"], game_map="empty_room", seed=3, make_bot=make)
    for keeper in made:
        assert all(started is not None for started, _ in keeper.during)  # time_left() counts down in a move
        assert [moves for _, moves in keeper.during] == list(range(outcome.turns))
        assert keeper.clock.started is None and keeper.clock.moves == outcome.turns
        assert keeper.clock.time_left() == keeper.clock.allowance == 1.0


@bot(name="mover", games=("tron",))
def mover(obs, rng):
    """Goes for the first safe move."""
    moves = obs.safe_moves()
    return moves[0] if moves else "N"


class Overriding(mover):  # type: ignore[misc, valid-type]
    """A function bot whose subclass plays its own act(): the referee must call that, not the policy."""

    def act(self, obs):
        return "S"


def test_a_function_bot_that_overrides_act_plays_its_own_act():
    outcome = run_match("tron", ["random", "random"], game_map="empty_room", seed=1,
                        make_bot=lambda spec, seat: Overriding() if seat == 0 else mover())
    assert all(turn[0] == "S" for turn in outcome.actions)
    assert outcome.failures == {} and outcome.ranks[0] == 2  # it ran south into the wall


def test_the_guard_writes_each_field_of_its_slot_when_it_changes():
    slots = [0.0] * 6
    guard = MoveGuard(slots, 1, grace=0.1)
    guard.begin(0, 1.0, now=5.0)
    assert slots[3:] == [5.0, 0, 1.0]
    guard.end()
    assert slots[3:] == [0.0, 0, 1.0]
    guard.begin(1, 1.0, now=6.0)  # another seat, the same limit
    assert slots[3:] == [6.0, 1, 1.0]
    guard.end()
    guard.begin(1, 0.5, now=7.0)  # the same seat, another limit
    assert slots[3:] == [7.0, 1, 0.5]
    assert guard.deadline == 7.0 + 0.5 + 0.1
    guard.end()
    assert slots[:3] == [0.0, 0.0, 0.0] and guard.deadline is None


class Forgetful(mover):  # type: ignore[misc, valid-type]
    """A function bot whose __init__ never sets the parameters FunctionBot.act reads."""

    def __init__(self) -> None:
        pass


def test_a_function_bot_without_its_parameters_crashes_in_its_own_move():
    outcome = run_match("tron", ["random", "random"], game_map="empty_room", seed=1,
                        make_bot=lambda spec, seat: Forgetful() if seat == 0 else mover())
    assert outcome.failures[0].kind == "crash" and "on move 1" in outcome.failures[0].detail
    assert "params" in outcome.failures[0].detail and outcome.ranks == (2, 1)


def test_the_guard_runs_a_move_with_its_slot_set_and_clears_it_after_even_a_crash():
    slots = [0.0] * 3
    guard = MoveGuard(slots, 0, grace=0.1)
    seen = []

    def move(obs, rng=None):
        seen.append((list(slots), guard.deadline, obs, rng))
        return "N"

    assert guard.run(1, 0.5, 9.0, move, "obs") == "N"
    assert guard.run(0, 0.5, 10.0, move, "obs", "rng") == "N"
    assert seen == [([9.0, 1, 0.5], 9.0 + 0.5 + 0.1, "obs", None), ([10.0, 0, 0.5], 10.0 + 0.5 + 0.1, "obs", "rng")]
    assert slots == [0.0, 0, 0.5] and guard.deadline is None

    def crash(obs):
        raise ValueError(obs)

    with pytest.raises(ValueError, match="boom"):
        guard.run(1, 0.5, 11.0, crash, "boom")
    assert slots == [0.0, 1, 0.5] and guard.deadline is None


def test_a_crash_is_placed_alike_whether_or_not_the_turn_was_observed():
    places = []
    for observed in (False, True):
        game = TronGame(EMPTY_ROOM, {"moves": "simultaneous"}, np.random.default_rng(0))
        start = game.board.heads[0]
        for actions in ({0: "E", 1: "W"}, {0: "W", 1: "E"}):  # seat 0 turns back into its own trail
            if observed:
                game.observe(0), game.observe(1)
            game.apply(actions)
        places.append(dict(game.crashed_at))
        assert game.crashed_at[0] == start  # the cell it left on the first turn
    assert places[0] == places[1]
