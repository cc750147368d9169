"""The array form of each game's observations, action numbering and masks, and policies as bots."""

import numpy as np
import pytest

from arena.core.errors import ArenaError, BotSpecError
from arena.core.game import Game
from arena.core.maps import parse_map, resolve_map
from arena.games.catmouse.game import CatMouseGame
from arena.games.pawnrace.game import PawnRaceGame
from arena.games.tron.game import TronGame
from arena.games.tron.snafu import SnafuGame
from arena.play.referee import run_match
from arena.plugins.registry import BotEntry, load_registry
from arena.rl import MLPPolicy, load_policy, policy_bot
from arena.rl.array_form import array_form, observe_array, shaping_potential

SMALL = parse_map("#...\n.1.2\n....\n", name="small")


def test_tron_planes_of_a_small_board():
    game = TronGame(SMALL, TronGame.resolve_options({}), np.random.default_rng(0))
    game.apply({0: "S", 1: "N"})
    planes = TronGame.array_observation(game.observe(0))
    assert planes.shape == (5, 3, 4) and planes.dtype == np.float32
    walls, own, theirs, head, heads = planes
    assert walls.tolist() == [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert own.tolist() == [[0, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]]
    assert theirs.tolist() == [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]]
    assert head.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0]]
    assert heads.tolist() == [[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert TronGame.array_mask(game.observe(0)).tolist() == [1, 1, 1, 1]
    assert list(TronGame.array_actions(game.observe(0))) == ["N", "E", "S", "W"]


def test_centered_tron_planes_put_the_head_in_the_middle_and_walls_off_the_board():
    game = TronGame(SMALL, TronGame.resolve_options({}), np.random.default_rng(0))
    window = TronGame.array_observation(game.observe(1), centered=True)
    assert window.shape == (5, 5, 7)
    assert window[3, 2, 3] == 1 and window[3].sum() == 1  # own head (3, 1) in the middle
    assert window[0, :, 4:].min() == 1  # east of the board's last column: off the board
    assert window[0, [0, 4]].min() == 1  # above and below the board
    assert window[0, 1, 0] == 1 and window[0, 1:4, 1:4].sum() == 0  # the '#' at (0, 0); the rest is open
    assert window[4, 2, 1] == 1  # the other head, two cells west


def test_powerup_planes_mark_each_kind_and_what_the_seat_holds():
    game_map = resolve_map("powerup_room")
    game = TronGame(game_map, TronGame.resolve_options({**game_map.header, "rules": "brown"}),
                    np.random.default_rng(1))
    obs = game.observe(0)
    planes = TronGame.array_observation(obs)
    assert planes.shape[0] == 13
    for plane, kind in enumerate(("trap", "bomb", "armor", "speed"), start=6):
        cells = {(x, y) for (x, y), name in obs.powerups().items() if name == kind}
        assert {(int(x), int(y)) for y, x in zip(*np.nonzero(planes[plane]), strict=True)} == cells
    assert planes[10:].sum() == 0  # holds nothing, not on a speed run


def test_centered_snafu_planes_turn_the_heading_up():
    for heading in "NESW":
        game = SnafuGame.from_position(["....."] * 5, [(2, 2), (0, 0)], [heading, "S"])
        window = SnafuGame.array_observation(game.observe(0), centered=True)
        assert window.shape == (7, 9, 9)
        assert window[3, 4, 4] == 1  # own head in the middle
        assert window[5, 3, 4] == 1 and window[5].sum() == 1  # straight ahead is up, whatever the heading


def test_catmouse_planes_and_mask():
    game_map = resolve_map("catmouse_5x5")
    game = CatMouseGame(game_map, CatMouseGame.resolve_options(game_map.header), np.random.default_rng(0))
    mouse = game.observe(1)
    planes = CatMouseGame.array_observation(mouse)
    assert planes.shape == (5, 5, 5)
    assert planes[1, 0, 4] == 1 and planes[2, 4, 0] == 1  # the mouse top-right, the cat bottom-left
    assert planes[3].max() == 0 and planes[4].max() == 0  # the mouse, no moves used yet
    assert CatMouseGame.array_mask(mouse).tolist() == [0, 1, 1, 0]  # U D L R: down and left only
    assert CatMouseGame.array_mask(game.observe(0)).tolist() == [0, 0, 0, 0]  # not the cat's turn


@pytest.mark.parametrize("pawns", ["1", "3"])
def test_pawnrace_masks_mark_exactly_the_legal_moves_for_both_sides(pawns):
    game_map = resolve_map("pawnrace_6x6")
    game = PawnRaceGame(game_map, PawnRaceGame.resolve_options({**game_map.header, "pawns": pawns}),
                        np.random.default_rng(0))
    rng = np.random.default_rng(4)
    while game.result is None:
        seat = game.to_act()[0]
        obs = game.observe(seat)
        table, mask = PawnRaceGame.array_actions(obs), PawnRaceGame.array_mask(obs)
        assert len(table) == len(set(table))
        assert sorted(table[i] for i in np.flatnonzero(mask)) == sorted(game.legal_actions(seat))
        game.apply({seat: table[int(rng.choice(np.flatnonzero(mask)))]})


def test_pawnrace_planes_are_seen_from_the_seats_own_corner():
    game_map = resolve_map("pawnrace_5x5")
    game = PawnRaceGame(game_map, PawnRaceGame.resolve_options(game_map.header), np.random.default_rng(0))
    game.apply({0: "base-c1"})
    white, black = (PawnRaceGame.array_observation(game.observe(seat)) for seat in (0, 1))
    assert white[0, 0, 2] == 1 and white[0].sum() == 1  # c1 is (2, 0): row 0, column 2
    assert black[1, 4, 2] == 1 and black[1].sum() == 1  # seen from black's corner, c1 is (2, 4)
    assert white[2, :2, :2].sum() == 4 and black[2, :2, :2].sum() == 4  # each side's own base at (0, 0)


def test_policy_bot_plays_a_callable_in_a_match():
    chooser = policy_bot("first-safe", "tron", lambda planes, mask: int(np.argmax(mask)))
    assert chooser.name == "first-safe" and chooser.games == ("tron",)
    assert chooser.__module__ == __name__
    registry = load_registry()
    registry.bots["first-safe"] = BotEntry("first-safe", chooser, "0", __file__, "test")
    outcome = run_match("tron", ["first-safe", "random"], game_map="center_block", seed=1, registry=registry)
    assert {turn[0] for turn in outcome.actions} == {"N"}  # index 0 every time


def test_a_saved_network_round_trips_and_plays_as_the_npz_bot(tmp_path):
    network = MLPPolicy.initial("catmouse", [5 * 8 * 7, 8, 4], np.random.default_rng(2))
    path = tmp_path / "cat.npz"
    network.save(path)
    loaded = load_policy(path)
    planes = np.random.default_rng(0).random((5, 8, 7)).astype(np.float32)
    assert np.array_equal(loaded.scores(planes), network.scores(planes))
    assert loaded.game == "catmouse"
    outcome = run_match("catmouse", [f"npz:file={path}", "cm_random"], game_map="catmouse_8x7", seed=0)
    assert not outcome.failures and outcome.turns > 0


def test_the_npz_spec_refuses_missing_or_broken_files_in_one_line(tmp_path):
    registry = load_registry()
    with pytest.raises(BotSpecError, match="give the policy file"):
        registry.spec("npz")
    with pytest.raises(BotSpecError, match="cannot read the policy"):
        registry.spec(f"npz:file={tmp_path / 'missing.npz'}")
    (tmp_path / "junk.npz").write_text("not a zip")
    with pytest.raises(BotSpecError, match=r"junk\.npz: cannot read the policy"):
        registry.spec(f"npz:file={tmp_path / 'junk.npz'}")
    with pytest.raises(ArenaError):
        load_policy(tmp_path / "junk.npz")


def test_a_network_trained_for_another_game_loses_at_the_start(tmp_path):
    path = tmp_path / "tron.npz"
    MLPPolicy.initial("tron", [5 * 13 * 13, 4], np.random.default_rng(0)).save(path)
    outcome = run_match("catmouse", [f"npz:file={path}", "cm_random"], game_map="catmouse_8x7", seed=0)
    assert outcome.failures[0].kind == "crash" and "trained for tron" in outcome.failures[0].detail


class RulesOnly(Game):
    """A game with rules and nothing for learning: no array form, no shaping potential."""

    name = "rules_only"

    @classmethod
    def check_map(cls, game_map):
        pass

    def __init__(self, game_map, options, rng):
        self.num_seats = 2

    def to_act(self):
        return (0,)

    def legal_actions(self, seat):
        return ["go"]

    def apply(self, actions):
        pass

    @property
    def result(self):
        return None

    def observe(self, seat):
        return seat

    def render(self, color=False):
        return ""


def test_the_learning_layer_finds_a_games_array_form_and_shaping_by_their_methods():
    assert array_form(TronGame) is TronGame
    with pytest.raises(ArenaError, match=r"^game 'rules_only' has no array form of its observations: it cannot be"):
        array_form(RulesOnly)
    assert shaping_potential(RulesOnly(None, {}, np.random.default_rng(0)), 0) == 0.0
    game = CatMouseGame(resolve_map("catmouse_8x7"), CatMouseGame.resolve_options({}), np.random.default_rng(0))
    assert shaping_potential(game, 1) == game.shaping(1) > 0
    planes, mask = observe_array(game, 0)
    assert planes.tolist() == CatMouseGame.array_observation(game.observe(0)).tolist()
    assert mask.tolist() == CatMouseGame.array_mask(game.observe(0)).tolist()
