"""The conformance kit: every shipped game passes it on every shipped map for it, and it catches each kind
of broken game and misbehaving bot, with a line that says what is wrong."""

import random

import numpy as np
import pytest

from arena import Game, Option, Result
from arena.cli.main import app
from arena.core.maps import known_map_names, parse_map, resolve_map
from arena.plugins.registry import PluginConfig, load_registry
from arena.testing import check_bot, check_game
from arena.testing.game_checks import option_combinations
from arena.tournament.selection import map_game
from tests.cli_runner import CliRunner
from tests.helpers import write_module

REGISTRY = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
MAPS_BY_GAME: dict[str, list[str]] = {}
for _name in known_map_names():
    MAPS_BY_GAME.setdefault(map_game(resolve_map(_name), REGISTRY), []).append(_name)
MAP_GAMES = sorted(name for name, game in REGISTRY.games.items() if game.parameters_map({}) is None)
runner = CliRunner()


def test_every_registered_game_played_on_maps_has_a_shipped_map():
    assert set(MAP_GAMES) <= set(MAPS_BY_GAME) <= set(REGISTRY.games)


@pytest.mark.parametrize("game_name", [pytest.param(name, marks=pytest.mark.slow) if name == "pawnrace" else name
                                       for name in MAP_GAMES])  # the pawn race takes seconds
def test_shipped_games_pass_on_every_shipped_map_and_every_option_combination(game_name):
    report = check_game(REGISTRY.game(game_name), MAPS_BY_GAME[game_name], games=1)
    report.assert_ok()
    total = int(np.prod([len(o.choices) for o in REGISTRY.game(game_name).options.values()]))
    assert f"option combinations: {min(total, 64)} of {total} checked" in report.lines()[2]


def test_every_combination_is_tried_up_to_the_cap_then_an_even_seeded_spread():
    tron = REGISTRY.game("tron")
    every, total = option_combinations(tron, 64)
    assert total == 16 and len(every) == 16 and len({tuple(c.values()) for c in every}) == 16
    some, _ = option_combinations(tron, 5, seed=3)
    again, _ = option_combinations(tron, 5, seed=3)
    assert some == again and len({tuple(c.values()) for c in some}) == 5
    assert all(tuple(c.values()) in {tuple(e.values()) for e in every} for c in some)


# --- broken games: each breaks one rule ----------------------------------------------------------------

class Countdown(Game):
    """A correct little game: two players alternately take 1 or 2 from a pile; who takes the last wins."""

    name = "countdown"
    options = {"pile": Option("7", ("5", "7")), "first": Option("0", ("0", "1", "2"))}

    @classmethod
    def check_map(cls, game_map):
        pass

    def __init__(self, game_map, options, rng):
        self.num_seats = 2
        self.pile = int(options["pile"])
        self.mover = int(options["first"]) % 2
        self.taken = []
        self._result = None

    def to_act(self):
        return (self.mover,)

    def legal_actions(self, seat):
        return [take for take in (1, 2) if take <= self.pile]

    def apply(self, actions):
        self.pile -= actions[self.mover]
        self.taken.append(actions[self.mover])
        if self.pile == 0:
            ranks = (1, 2) if self.mover == 0 else (2, 1)
            self._result = Result(ranks, f"player {self.mover + 1} took the last")
        self.mover = 1 - self.mover

    @property
    def result(self):
        return self._result

    def observe(self, seat):
        return (self.pile, tuple(self.taken))

    def render(self, color=False):
        return f"pile {self.pile}"


class SharedList(Countdown):
    name = "shared"

    def observe(self, seat):
        return self.taken  # the bot gets the game's own list


class GlobalRandom(Countdown):
    name = "globalrandom"

    def apply(self, actions):
        super().apply(actions)
        self.taken[-1] = random.random()  # not from the rng the game was given


class AcceptsAnything(Countdown):
    name = "anything"

    def is_legal(self, seat, action):
        return True


class BadDefault(Countdown):
    name = "baddefault"
    options = {**Countdown.options, "pile": Option("9", ("5", "7"))}


class Unpicklable(Countdown):
    name = "unpicklable"

    def __init__(self, game_map, options, rng):
        super().__init__(game_map, options, rng)
        self.callback = lambda: None


class NeverEnds(Countdown):
    name = "neverends"

    def apply(self, actions):
        self.mover = 1 - self.mover


class NoRanks(Countdown):
    name = "noranks"

    def apply(self, actions):
        super().apply(actions)
        if self._result is not None:
            self._result = Result((1,), "")


def failures(game_class, **kwargs):
    return [check.detail for check in check_game(game_class, **kwargs).failures]


def test_a_correct_game_without_maps_passes_every_combination():
    report = check_game(Countdown)
    report.assert_ok()
    assert report.lines()[1] == "ok    option combinations: 6 of 6 checked"
    assert report.lines()[2].startswith("ok    play: 12 random games played to the end on 1 map(s)")


def test_each_broken_rule_is_one_line_naming_what_is_wrong():
    first = "no map [pile=5, first=0], seed 0: "
    shared = failures(SharedList, games=1)
    assert len(shared) == 6  # every combination
    assert shared[0] == (first + "a bot that changes what observe(1) gave it changes the game: observe() must "
                         "give a copy or an immutable view")
    assert failures(GlobalRandom, games=1)[0] == (
        first + "the same seed and actions give different observations (observation 2): all randomness must "
        "come from the rng the game is given")
    assert failures(AcceptsAnything, games=1)[0] == (
        first + "is_legal accepts <malformed action>, which legal_actions(0) does not list")
    assert failures(BadDefault, games=1) == ["option 'pile': default '9' is not one of its choices 5, 7"]
    assert failures(Unpicklable, games=1)[0] == (
        first + "the game cannot be pickled (AttributeError: Can't pickle local object "
        "'Unpicklable.__init__.<locals>.<lambda>'); it must cross process boundaries")
    assert failures(NeverEnds, games=1, max_turns=50)[0] == first + "no result after 50 turns of random play"
    assert failures(NoRanks, games=1)[0] == (
        first + "result ranks (1,): need one rank per seat, 1 (best) to 2, someone first")


def test_a_map_the_game_refuses_is_a_failed_check():
    tron = REGISTRY.game("tron")
    broken = parse_map("#####\n#1.x#\n#####\n", name="broken")
    report = check_game(tron, [broken, "center_block"], max_combinations=2, games=1)
    [failure] = report.failures
    assert failure.name == "maps" and failure.detail.startswith("broken: ")
    assert "unknown character 'x'" in failure.detail


# --- bots ------------------------------------------------------------------------------------------

def test_check_bot_passes_shipped_bots_in_every_role_they_play():
    report = check_bot("floodfill", registry=REGISTRY, maps=["center_block"])
    assert report.ok and report.lines()[-1] == ("ok    play: 4 games without a crash, timeout or illegal answer "
                                                "(1 s a move)")
    for spec, games in (("hillclimb", 4), ("wary", 2)):
        report = check_bot(spec, registry=REGISTRY)
        assert report.ok and f"play: {games} games without" in report.lines()[-1]


def test_check_bot_reports_each_failure_with_its_kind_and_where(tmp_path):
    write_module(tmp_path / "bots", "bad.py", """
        import time

        from arena import Bot


        class Crashes(Bot):
            name = "t_crashes"
            games = ("tron",)

            def act(self, obs):
                raise KeyError("nope")


        class Cheats(Bot):
            name = "t_cheats"
            games = ("tron",)

            def act(self, obs):
                return "up"


        class Dawdles(Bot):
            name = "t_dawdles"
            games = ("tron",)

            def act(self, obs):
                time.sleep(0.2)
                return obs.safe_moves()[0] if obs.safe_moves() else "N"
        """)
    registry = load_registry(PluginConfig(bot_dirs=(str(tmp_path / "bots"),), use_cwd_bots=False,
                                          use_env_path=False))
    crashes = check_bot("t_crashes", registry=registry, maps=["center_block"], games=1)
    assert [check.name for check in crashes.failures] == ["crash", "stopped"]  # the second seat: the same crash
    first = crashes.failures[0].detail.splitlines()
    assert first[0].startswith("center_block, player 1 against random, seed 0: crash: raised KeyError on move 1: "
                               "'nope' (")
    assert first[-1] == "KeyError: 'nope'"
    cheats = check_bot("t_cheats", registry=registry, maps=["center_block"], games=1)
    assert [check.detail for check in cheats.failures] == [
        "center_block, player 1 against random, seed 0: illegal: returned 'up' on move 1, which is not a legal action",
        "center_block, player 2 against random, seed 0: the same illegal again, so the other games were not played"]
    dawdles = check_bot("t_dawdles", registry=registry, maps=["center_block"], games=1, time_limit=0.05)
    assert [check.name for check in dawdles.failures] == ["timeout", "stopped"]
    unknown = check_bot("t_crashs", registry=registry)
    assert [check.line() for check in unknown.failures] == [
        "FAIL  spec: unknown bot 't_crashs'; did you mean: t_crashes?"]


def test_check_commands_exit_1_on_a_failed_check_and_2_on_bad_input():
    game = runner.invoke(app, ["check", "game", "catmouse"])
    assert game.exit_code == 0, game.output
    assert game.stdout.splitlines()[0] == "game 'catmouse'"
    bot = runner.invoke(app, ["check", "bot", "wary"])
    assert bot.exit_code == 0 and bot.stdout.splitlines()[-1].startswith("ok    play: 2 games")
    wrong_game = runner.invoke(app, ["check", "bot", "wary", "--game", "tron"])
    assert wrong_game.exit_code == 1
    assert wrong_game.stdout.splitlines()[-1] == "FAIL  spec: bot 'wary' does not play tron (it plays catmouse)"
    unknown = runner.invoke(app, ["check", "game", "torn"])
    assert unknown.exit_code == 2 and unknown.stderr == "error: unknown game 'torn'; did you mean: tron?\n"
