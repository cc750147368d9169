"""The compiled network learner against the plain Python one written from the rules module and numpy."""

import random

import numpy as np
import pytest

from arena.games.pawnrace.rules import BASE, Setup, legal_moves, play, start
from arena.learning.pawnrace.network_kernel import Geometry, seed_state
from arena.learning.pawnrace.network_kernel import legal_moves as kernel_moves
from arena.learning.pawnrace.network_reference import reference_game
from arena.learning.pawnrace.td_network import Network, TdNetworkTrainer, network_settings
from arena.learning.pawnrace.td_table import TdSettings


@pytest.mark.parametrize(
    ("n", "pawns", "removal", "greedy"), [(5, 1, "all", 0.9), (6, 3, "mover", 0.9), (8, 5, "all", 0.5)])
def test_the_compiled_learner_plays_and_learns_exactly_as_the_python_one(n, pawns, removal, greedy):
    settings = network_settings(TdSettings(n=n, a=2, pawns=pawns, removal=removal, greedy=greedy, seed=n,
                                           alpha=0.05))
    compiled = TdNetworkTrainer(settings)
    reference = [Network(compiled.geometry.inputs, weights=network.weights()) for network in compiled.networks]
    rng_state = seed_state(settings.seed)
    for _ in range(4):
        assert compiled.play_game() == reference_game(settings, reference, rng_state)
    assert compiled.rng_state[0] == rng_state[0]
    for mine, theirs in zip(compiled.networks, reference, strict=True):
        assert not np.allclose(mine.w1, Network(compiled.geometry.inputs, np.random.default_rng(settings.seed)).w1)
        for name in ("w1", "b1", "w2"):
            np.testing.assert_allclose(getattr(mine, name), getattr(theirs, name), rtol=0, atol=1e-12)
        assert mine.b2 == pytest.approx(theirs.b2, abs=1e-12)


def test_the_compiled_move_generator_lists_the_rules_moves_on_random_positions():
    setup = Setup(n=7, a=2, pawns=4, removal="all")
    geometry = Geometry.of(setup)
    origins, targets = np.zeros(300, dtype=np.int64), np.zeros(300, dtype=np.int64)
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        position = start(setup)
        while not position.over:
            board = np.zeros(setup.n * setup.n, dtype=np.int8)
            for side in (0, 1):
                for x, y in position.pawns[side]:
                    board[y * setup.n + x] = side + 1
            waiting = np.array(position.waiting, dtype=np.int64)
            count = kernel_moves(board, waiting, position.to_move, geometry.base_of, geometry.distance,
                                 geometry.neighbours, geometry.exits, origins, targets)
            listed = {(-1 if o < 0 else int(o), int(t)) for o, t in zip(origins[:count], targets[:count], strict=True)}
            moves = legal_moves(setup, position)
            assert listed == {(-1 if o == BASE else o[1] * setup.n + o[0], t[1] * setup.n + t[0]) for o, t in moves}
            assert count == len(moves)
            checked += 1
            position = play(setup, position, rng.choice(moves))
    assert checked > 400


def test_a_network_checkpoint_of_another_generator_is_refused_in_one_line():
    from arena.core.errors import ArenaError

    settings = network_settings(TdSettings(n=5, games=2, block=2))
    trainer = TdNetworkTrainer(settings)
    trainer.run()
    data = trainer.checkpoint()
    data["rng"] = [3, [0] * 625, None]
    with pytest.raises(ArenaError, match="older network learner"):
        TdNetworkTrainer(settings, data)


def test_playability_takes_nn_for_the_network_learner_and_refuses_an_unknown_one(tmp_path, monkeypatch):
    import json

    from arena.cli.main import app
    from tests.cli_runner import CliRunner

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    command = ["playability", "pawnrace", "-o", "n=6", "-o", "pawns=3", "--games", "6", "--block", "3", "-f", "json"]
    by_alias = runner.invoke(app, [*command, "--learner", "nn"])
    by_name = runner.invoke(app, [*command, "--learner", "network"])
    assert by_alias.exit_code == 0 and json.loads(by_alias.stdout) == json.loads(by_name.stdout)
    assert [block["games"] for block in json.loads(by_alias.stdout)["blocks"]] == [3, 3, 6]  # and the whole run
    wrong = runner.invoke(app, [*command, "--learner", "svm"])
    assert wrong.exit_code == 2
    assert wrong.stderr == "error: --learner 'svm' is not one of: table, network (or tabular, nn)\n"
