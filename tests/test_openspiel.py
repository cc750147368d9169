"""OpenSpiel's games in arena: the same bots and seeds play the same moves and returns as OpenSpiel's own play-out,
tournaments without maps store, rate and replay them, and a sample of every game loads and plays."""

import json
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

from arena import run_match  # noqa: E402
from arena.cli.main import app  # noqa: E402
from arena.games.openspiel.sweep import sweep  # noqa: E402
from arena.plugins.registry import PluginConfig, load_registry  # noqa: E402
from arena.rl.array_form import observe_array  # noqa: E402
from arena.testing import check_game  # noqa: E402
from tests.cli_runner import CliRunner  # noqa: E402

REGISTRY = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
runner = CliRunner()


def openspiel_playout(name, params, seed, make_bots):
    """OpenSpiel alone: the game played by OpenSpiel's bots, each seeded as arena seeds a seat, chance nodes drawn
    from ``numpy.random.default_rng(seed)`` by cumulative probability. Returns the players' actions and returns."""
    import numpy as np

    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(seed)
    bots = [make_bots[seat](game, seat, np.random.RandomState(random.Random(f"{seed}:{seat}").getrandbits(32)))
            for seat in range(game.num_players())]
    state, moves = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            u, total, outcomes = rng.random(), 0.0, state.chance_outcomes()
            drawn = outcomes[-1][0]
            for outcome, probability in outcomes:
                total += probability
                if u < total:
                    drawn = outcome
                    break
            state.apply_action(drawn)
            continue
        player = state.current_player()
        action = bots[player].step(state)
        moves.append({player: int(action)})
        state.apply_action(action)
    return moves, state.returns()


def mcts(game, seat, random_state):
    from open_spiel.python.algorithms import mcts as search

    return search.MCTSBot(game, 2.0, 12, search.RandomRolloutEvaluator(1, random_state), solve=True,
                          random_state=random_state)


def uniform(game, seat, random_state):
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    return UniformRandomBot(seat, random_state)


@pytest.mark.parametrize(("name", "params", "specs", "makers", "seed"), [
    ("connect_four", {}, ["openspiel-mcts:simulations=12", "openspiel-random"], [mcts, uniform], 3),
    ("pig", {"winscore": 12}, ["openspiel-random", "openspiel-mcts:simulations=12"], [uniform, mcts], 5),
])
def test_arena_plays_the_moves_and_returns_of_openspiel_own_playout(name, params, specs, makers, seed):
    options = {key: str(value) for key, value in params.items()}
    outcome = run_match(f"openspiel:{name}", specs, options=options, seed=seed, time_limit=30, registry=REGISTRY)
    moves, returns = openspiel_playout(name, params, seed, makers)
    assert [dict(turn) for turn in outcome.actions] == moves
    assert len(moves) > 5
    best = max(returns)
    assert outcome.ranks == tuple(1 if value == best else 2 for value in returns)
    assert outcome.reason == "the game ended with returns " + ", ".join(f"{value:g}" for value in returns)


def test_a_tournament_without_maps_is_stored_rated_and_replayed(tmp_path):
    db = str(tmp_path / "arena.db")
    played = runner.invoke(app, ["tournament", "--game", "openspiel:breakthrough", "-o", "rows=4", "-o", "columns=3",
                                 "-b", "openspiel-random,openspiel-mcts:simulations=8", "-n", "2", "-w", "1",
                                 "--db", db, "-f", "json"])
    assert played.exit_code == 0, played.output
    standings = {row["bot"]: row for row in json.loads(played.stdout)["standings"]}
    assert {bot: row["games"] for bot, row in standings.items()} == {"openspiel-random": 2,
                                                                     "openspiel-mcts:simulations=8": 2}
    checked = runner.invoke(app, ["replay", "1", "1", "--db", db, "--check"])
    assert checked.exit_code == 0 and "1 agree, 0 differ" in checked.output, checked.output
    shown = runner.invoke(app, ["replay", "1", "0", "--db", db])
    assert shown.exit_code == 0 and "Reason: the game ended with returns" in shown.output


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "openspiel:connect_fuor"], "error: unknown game 'openspiel:connect_fuor'; did you mean: "
                                           "openspiel:connect_four?"),
    (["--game", "openspiel:breakthrough", "-o", "rows=x"], "error: game 'openspiel:breakthrough': parameter rows = "
                                                           "'x' is not a whole number"),
    (["--game", "openspiel:breakthrough", "-o", "size=4"], "error: game openspiel:breakthrough has no parameter "
                                                           "'size' (known: columns, rows)"),
    (["--game", "tron"], "error: give at least one map: game 'tron' is played on maps"),
])
def test_bad_games_and_parameters_are_one_line_errors(tmp_path, args, message):
    result = runner.invoke(app, ["tournament", *args, "-n", "1", "--db", str(tmp_path / "a.db")])
    assert result.exit_code == 2
    assert " ".join(result.output.split()) == message


def test_without_openspiel_asking_for_its_game_says_how_to_install_it():
    program = ("import sys, runpy; sys.modules['pyspiel'] = None; "
               "sys.argv = ['arena', 'play', '--game', 'openspiel:tic_tac_toe', 'random', 'random']; "
               "runpy.run_module('arena', run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert " ".join(result.stderr.split()) == ("error: game 'openspiel:tic_tac_toe': OpenSpiel is not installed: pip "
                                               "install 'bot-arena[openspiel]' to play OpenSpiel's games")


@pytest.mark.parametrize("name", ["openspiel:tic_tac_toe", "openspiel:pig", "openspiel:goofspiel",
                                  "openspiel:kuhn_poker"])  # turns, chance, simultaneous moves, hidden cards
def test_representative_games_pass_the_conformance_kit(name):
    check_game(REGISTRY.game(name), games=1).assert_ok()


def test_a_sample_of_every_game_loads_and_plays_and_observes_as_text_and_tensors():
    lines = list(sweep(max_moves=25, every=9))
    assert [line for line in lines if not line.ok] == []
    assert len(lines) == 12
    game_cls = REGISTRY.game("openspiel:tic_tac_toe")
    game = game_cls(None, {}, __import__("numpy").random.default_rng(0))
    tensor, mask = observe_array(game, 0)
    assert (tensor.shape, int(mask.sum()), game.observe(0).text) == ((27,), 9, "...\n...\n...")


REGISTRY_LOAD = ("import json, sys; from arena.plugins.registry import load_registry; registry = load_registry(); "
                 "print(json.dumps(['pyspiel' in sys.modules, sum(name.startswith('openspiel:') for name in "
                 "registry.games), len(registry.bot('openspiel-mcts').games)]))")


def load_registry_in(cache):
    """Whether a fresh process loading the registry with ``ARENA_CACHE=cache`` imported pyspiel, and how many
    OpenSpiel games and games of OpenSpiel's MCTS it registered."""
    import os

    loaded = subprocess.run([sys.executable, "-c", REGISTRY_LOAD], env={**os.environ, "ARENA_CACHE": str(cache)},
                            capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stderr == ""
    return json.loads(loaded.stdout)


def test_loading_the_registry_reads_the_games_from_a_cache_without_importing_pyspiel(tmp_path):
    from arena.games.openspiel.catalog import CACHE_FILE, installed_key

    cache = tmp_path / "cache" / CACHE_FILE
    assert load_registry_in(cache.parent) == [True, 108, 38]  # no cache yet: pyspiel lists the games once
    written = json.loads(cache.read_text())
    assert written["key"] == installed_key() and len(written["games"]) == len(pyspiel.registered_games())
    assert load_registry_in(cache.parent) == [False, 108, 38]
    cache.write_text(cache.read_text()[:1000])  # cut short: not JSON
    assert load_registry_in(cache.parent) == [True, 108, 38]
    assert json.loads(cache.read_text()) == written


def test_a_cache_of_the_wrong_shape_or_for_another_openspiel_is_not_read(tmp_path):
    from arena.games.openspiel.catalog import all_games, installed_key, read_cache, write_cache

    key, path = installed_key(), tmp_path / "games.json"
    write_cache(path, key, all_games())
    assert read_cache(path, key) == all_games()
    assert read_cache(path, {**key, "open_spiel": "0.0.1"}) is None
    good = json.loads(path.read_text())
    for games in ([{**good["games"][0], "min_players": "2"}], [{**good["games"][0], "extra": 1}], ["tic_tac_toe"],
                  {"tic_tac_toe": {}}):
        path.write_text(json.dumps({"key": key, "games": games}))
        assert read_cache(path, key) is None
    path.write_bytes(b"\xff\xfe")
    assert read_cache(path, key) is None
