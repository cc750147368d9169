"""The readings of the paper the pawn race's learners offer (initial weights, loss reward, learning rate,
network inputs, table key) and the multi-seed playability run."""

import json
import random
from pathlib import Path

import numpy as np
import pytest

from arena.cli.main import app
from arena.engines.pawnrace.td_model import Features
from arena.games.pawnrace.rules import BLACK, WHITE, Position, Setup, legal_moves, play, start
from arena.learning.pawnrace.initial_weights import initial_networks
from arena.learning.pawnrace.network_kernel import seed_state
from arena.learning.pawnrace.network_reference import reference_game
from arena.learning.pawnrace.td_network import Network, TdNetworkTrainer, network_settings
from arena.learning.pawnrace.td_table import TdSettings
from tests.cli_runner import CliRunner


def turned(setup, position):
    """``position`` turned 180 degrees with the colours swapped."""
    n = setup.n
    squares = [frozenset((n - 1 - x, n - 1 - y) for x, y in position.pawns[side]) for side in (WHITE, BLACK)]
    return Position((squares[1], squares[0]), (position.waiting[1], position.waiting[0]), 1 - position.to_move)


@pytest.mark.parametrize("inputs", ["parts", "printed"])
def test_mirror_gives_black_the_network_of_white_seen_from_the_other_corner(inputs):
    setup = Setup(8, 2, 5)
    features = Features(setup, inputs)
    white, black = initial_networks(features, "mirror", seed=4)
    rng = random.Random(1)
    checked = 0
    for _ in range(5):
        position = start(setup)
        while not position.over and position.moves < 60:
            mine = float(black.values(features(position)[None, :])[0])
            assert mine == pytest.approx(float(white.values(features(turned(setup, position))[None, :])[0]),
                                         abs=1e-12)
            checked += 1
            position = play(setup, position, rng.choice(legal_moves(setup, position)))
    assert checked > 200
    other, _ = initial_networks(features, "random", seed=4)
    np.testing.assert_array_equal(other.w1, white.w1)  # white's network is the same under both readings
    assert not np.allclose(initial_networks(features, "random", seed=4)[1].w1, black.w1)


def test_random_scale_draws_the_same_weights_shrunk_to_its_bound():
    # uniform(-s, s) is s * (2u - 1) for the same draw u: random:0.05 is random (s = 0.5) times 0.1
    features = Features(Setup(8, 2, 5), "printed")
    small, wide = initial_networks(features, "random:0.05", seed=3), initial_networks(features, "random", seed=3)
    for mine, theirs in zip(small, wide, strict=True):
        for name in ("w1", "b1", "w2", "b2"):
            np.testing.assert_allclose(mine.weights()[name], np.asarray(theirs.weights()[name]) * 0.1, atol=1e-15)
        assert np.abs(mine.w1).max() <= 0.05 and np.abs(mine.w1).max() > 0.049
    assert initial_networks(features, "random:0.5", seed=3)[1].b2 == wide[1].b2


def test_the_printed_inputs_are_the_papers_count_and_zero_starts_every_position_at_one_half():
    setup = Setup(8, 2, 5)
    assert Features(setup, "printed").size == 64 - 2 * 4 + 10 == 66  # the paper's n^2 - 2a^2 + 10
    assert Features(setup, "parts").size == 2 * (64 - 2 * 4) + 2 + 8 == 122  # the sum of the parts it lists
    row = Features(setup, "printed")(Position((frozenset({(2, 2)}), frozenset({(5, 5)})), (4, 4), 1))
    assert sorted(row[:56].tolist()).count(1.0) == 1 and sorted(row[:56].tolist()).count(-1.0) == 1
    zero = initial_networks(Features(setup, "printed"), "zero", seed=0)
    assert zero[0].w1.shape == (66, 33) and float(zero[1].values(row[None, :])[0]) == 0.5


@pytest.mark.parametrize(("inputs", "init", "loss"), [("printed", "mirror", -1.0), ("parts", "zero", -1.0),
                                                      ("parts", "mirror", 0.0)])
def test_the_compiled_learner_follows_the_python_one_under_every_reading(inputs, init, loss):
    settings = network_settings(TdSettings(n=6, a=2, pawns=3, seed=6, alpha=0.05, init=init, loss_reward=loss,
                                           network_inputs=inputs))
    compiled = TdNetworkTrainer(settings)
    reference = [Network(compiled.geometry.inputs, weights=network.weights()) for network in compiled.networks]
    rng_state = seed_state(settings.seed)
    for _ in range(4):
        assert compiled.play_game() == reference_game(settings, reference, rng_state)
    for mine, theirs in zip(compiled.networks, reference, strict=True):
        np.testing.assert_allclose(mine.w1, theirs.w1, rtol=0, atol=1e-12)
        np.testing.assert_allclose(mine.w2, theirs.w2, rtol=0, atol=1e-12)


def test_the_loss_reward_reaches_the_loser_and_a_zero_learning_rate_learns_nothing():
    base = network_settings(TdSettings(n=5, a=2, pawns=1, seed=2, alpha=0.05, games=1, init="zero"))
    plain, punished = TdNetworkTrainer(base), TdNetworkTrainer(network_settings(TdSettings(
        n=5, a=2, pawns=1, seed=2, alpha=0.05, games=1, init="zero", loss_reward=-1.0)))
    winner, _ = plain.play_game()
    assert punished.play_game() == (winner, _)  # all-zero networks: the same first game either way
    loser = 1 - winner
    assert plain.networks[winner].b2 == punished.networks[winner].b2
    assert punished.networks[loser].b2 < plain.networks[loser].b2 < 0  # pushed further down by the -1
    frozen = TdNetworkTrainer(network_settings(TdSettings(n=5, a=2, pawns=1, seed=2, alpha=0.0, games=30,
                                                          init="mirror")))
    before = [network.weights() for network in frozen.networks]
    frozen.run()
    assert [network.weights() for network in frozen.networks] == before


def test_train_records_the_readings_and_a_resumed_run_keeps_them(tmp_path):
    runner = CliRunner()
    first = runner.invoke(app, ["train", "pawnrace-td", "--learner", "nn", "-o", "n=5", "-n", "4", "--block", "2",
                                "--init", "mirror", "--loss-reward", "-1", "--alpha", "0.01",
                                "--network-inputs", "printed", "--out", "m.json", "-f", "json"])
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert {key: report["settings"][key] for key in ("init", "loss_reward", "alpha", "network_inputs")} == {
        "init": "mirror", "loss_reward": -1.0, "alpha": 0.01, "network_inputs": "printed"}
    assert [block["block"] for block in report["blocks"]] == ["0-2", "2-4", "all"]
    assert report["white"] == report["blocks"][-1]["white"]
    assert "games 0-2: moves per player" in first.stderr  # progress lines leave stdout to the JSON
    more = runner.invoke(app, ["train", "pawnrace-td", "-n", "6", "--block", "2", "--out", "m.json", "--resume",
                               "-f", "json"])
    assert more.exit_code == 0, more.output
    assert json.loads(more.stdout)["settings"]["init"] == "mirror"
    assert json.loads(Path("m.json").read_text())["settings"]["network_inputs"] == "printed"
    changed = runner.invoke(app, ["train", "pawnrace-td", "-n", "8", "--out", "m.json", "--resume", "--init", "zero"])
    assert changed.exit_code == 2
    assert changed.stderr == ("error: the run to resume was started with --init mirror: a resumed run keeps its "
                              "settings\n")


@pytest.mark.parametrize(("words", "message"), [
    (["--init", "mirror"], "--init mirror is for the network learner: a table starts at zero"),
    (["--network-inputs", "printed"], "--network-inputs is for the network learner, not the table"),
    (["--learner", "nn", "--key", "paper"], "--key is for the table learner, not the network"),
    (["--learner", "nn", "--init", "gauss"],
     "--init 'gauss' is not one of: random, mirror, zero, random:SCALE (e.g. random:0.05)"),
    (["--learner", "nn", "--init", "mirror:0.1"],
     "--init 'mirror:0.1' is not one of: random, mirror, zero, random:SCALE (e.g. random:0.05)"),
    (["--learner", "nn", "--init", "random:0"], "--init 'random:0': SCALE must be a number above 0, as in random:0.05"),
    (["--learner", "nn", "--init", "random:x"], "--init 'random:x': SCALE must be a number above 0, as in random:0.05"),
    (["--learner", "nn", "--init", "random:nan"],
     "--init 'random:nan': SCALE must be a number above 0, as in random:0.05"),
    (["--init", "random:0.05"], "--init random:0.05 is for the network learner: a table starts at zero"),
    (["-o", "max_moves=300"], "option max_moves = '300' is not one of: 2000, 200, 500, 1000, 20000"),
    (["--key", "short"], "--key 'short' is not one of: full, paper"),
    (["--learning-rate", "-0.1"], "--learning-rate must be 0 or more, not -0.1"),
    (["--seeds", "4-2"], "--seeds '4-2' is not a list of seeds such as 0-9 or 0,3,7"),
])
def test_a_reading_the_learner_cannot_take_is_one_line_on_stderr(words, message):
    result = CliRunner().invoke(app, ["playability", "pawnrace", "-n", "2", *words])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")
    assert list(Path.cwd().iterdir()) == []


@pytest.mark.slow
def test_seeds_pool_each_seed_run_alone_and_any_worker_count_gives_the_same_tables():
    runner = CliRunner()
    command = ["playability", "pawnrace", "-n", "40", "--block", "20", "--learning-rate", "0.01", "-f", "json"]
    alone = [json.loads(runner.invoke(app, [*command, "--seed", str(seed)]).stdout) for seed in (3, 5)]
    one = runner.invoke(app, [*command, "--seeds", "3,5"])
    two = runner.invoke(app, [*command, "--seeds", "3,5", "--workers", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    report = json.loads(one.stdout)
    assert report == json.loads(two.stdout)
    assert [seed["seed"] for seed in report["seeds"]] == [3, 5]
    assert [seed["blocks"] for seed in report["seeds"]] == [run["blocks"] for run in alone]
    assert [seed["white"] for seed in report["seeds"]] == [run["white"] for run in alone]
    whole = report["pooled"][-1]
    wins = [run["blocks"][-1]["white"] * 40 for run in alone]
    assert (whole["block"], whole["seeds"], whole["games"]) == ("all", 2, 80)
    assert whole["white"] == pytest.approx(sum(wins) / 80) and report["white"] == whole["white"]
    assert whole["white_of_decided_seed_mean"] == pytest.approx(sum(wins) / 80)  # 5 x 5: no draws
    low, high = whole["white_of_decided_seed_95"]
    assert low < whole["white_of_decided_seed_mean"] < high
    assert report["settings"]["alpha"] == 0.01 and "seed" not in report["settings"]
    assert report["paper"] == []  # the paper gives no table for the 5 x 5 board


def test_the_tables_key_is_flagged_where_it_is_not_the_papers():
    runner = CliRunner()
    ours = runner.invoke(app, ["playability", "pawnrace", "-n", "2", "--block", "2", "-f", "md"])
    paper = runner.invoke(app, ["playability", "pawnrace", "-n", "2", "--block", "2", "--key", "paper", "-f", "json"])
    assert ours.exit_code == 0 and paper.exit_code == 0, ours.output + paper.output
    assert "move cap 2000, table key full (not the paper's: --key paper)" in ours.stdout
    assert json.loads(paper.stdout)["title"].endswith("move cap 2000, table key paper (the paper's)")


def test_the_paper_table_stands_beside_a_run_on_its_board():
    result = CliRunner().invoke(app, ["playability", "pawnrace", "--map", "pawnrace_8x8", "--learner", "nn", "-n",
                                      "2", "--block", "1", "--learning-rate", "0", "--init", "mirror", "-f", "md"])
    assert result.exit_code == 0, result.output
    assert "| 0-10,000      |        179.94 |     108.02 | 47.83%" in result.stdout
    assert "| all           |        184.5  |     108.4  | 49.26%" in result.stdout
