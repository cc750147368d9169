"""The learned Tron evaluation: data set from stored games, least-squares fit, weights file, bots using it."""

import json

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.engines.tron.features import CHAMBER_FEATURES, DEFAULT_FEATURES, FEATURES, features
from arena.engines.tron.learned_eval import LearnedEval, load_weights
from arena.engines.tron.search import Position, Searcher, territories, territory_terms, voronoi
from arena.learning.tron.dataset import build_dataset, records_from_db, split_games
from arena.learning.tron.training import chamber_weights, train
from arena.plugins.registry import load_registry
from arena.storage.replay import new_game
from bots.chamber import Chamber
from bots.voronoi import Voronoi
from tests.cli_runner import CliRunner

runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """12 games on center_block between floodfill, random and chaser (seeded: the same games every run)."""
    path = tmp_path_factory.mktemp("tron_eval") / "games.db"
    result = runner.invoke(app, ["tournament", "center_block", "-b", "floodfill,random,chaser", "-n", "4",
                                 "-w", "1", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_features_are_differences_from_each_side():
    record_game = new_game({"game": "tron", "options": {}, "seed": 0,
                            "map": {"text": "#######\n#1....#\n#.....#\n#....2#\n#######\n", "name": "m"}},
                           load_registry())
    pos = Position.from_observation(record_game.observe(0))
    a, b = pos.me, pos.op
    mine = features(pos.free, a, b, pos.stride, pos.size)
    theirs = features(pos.free, b, a, pos.stride, pos.size)
    assert len(mine) == len(DEFAULT_FEATURES)
    assert [-v for v in mine] == list(theirs)
    ours, their, _ = voronoi(pos.free, a, b, pos.stride)
    assert mine[0] == ours - their


def test_split_is_by_games_and_seeded():
    train_games, held = split_games(10, 0.2, seed=3)
    assert len(train_games) == 8 and len(held) == 2
    assert sorted([*train_games, *held]) == list(range(10))
    again = split_games(10, 0.2, seed=3)
    assert list(again[1]) == list(held)
    with pytest.raises(ArenaError, match=r"--holdout 1\.5"):
        split_games(10, 1.5, seed=3)


@pytest.mark.slow
def test_dataset_and_fit_are_exact_with_a_seed(db):
    data = build_dataset(records_from_db(db), load_registry())
    assert (data.games, data.skipped, data.x.shape) == (12, 0, (478, 5))
    result = train(data, seed=1, holdout=0.2)
    assert result.games == {"train": 10, "holdout": 2, "skipped": 0}
    assert result.positions == {"train": 404, "holdout": 74}
    assert result.errors["train"]["accuracy"] == pytest.approx(73 / 108, abs=1e-12)
    assert result.errors["holdout"]["accuracy"] == pytest.approx(43 / 54, abs=1e-12)
    assert result.errors["baseline_train"]["accuracy"] == pytest.approx(127 / 216, abs=1e-12)
    assert result.errors["baseline_holdout"]["accuracy"] == pytest.approx(8 / 9, abs=1e-12)
    assert result.errors["train"]["mse"] == pytest.approx(0.11280390141165708, rel=1e-9)
    assert result.errors["holdout"]["mse"] == pytest.approx(0.135816843973328, rel=1e-9)
    assert result.errors["baseline_train"]["mse"] == pytest.approx(0.1284622022297153, rel=1e-9)
    # Least squares: the learned fit can't do worse than Voronoi alone on its own training set.
    assert result.errors["train"]["mse"] < result.errors["baseline_train"]["mse"]
    assert result.weights == pytest.approx([0.0742443981480543, -0.07317960708699583, 0.01004758415981659,
                                            -0.04720186614460277, -0.006253523438837517], rel=1e-9)


def test_train_command_writes_the_weights_file(db, tmp_path):
    out = tmp_path / "w.json"
    result = runner.invoke(app, ["train", "tron-eval", "--db", str(db), "--out", str(out), "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "10 training games (404 positions), 2 held out (74 positions), 0 skipped; seed 1" in result.output
    assert "learned: training mse 0.1128, accuracy 67.6%; held-out mse 0.1358, accuracy 79.6%" in result.output
    assert "voronoi only: training mse 0.1285, accuracy 58.8%; held-out mse 0.1461, accuracy 88.9%" in result.output
    assert f"weights written to {out}" in result.output
    saved = json.loads(out.read_text())
    assert saved["format"] == "arena-tron-eval/1"
    assert saved["features"] == list(DEFAULT_FEATURES)
    assert saved["seed"] == 1 and saved["holdout"] == 0.2
    assert saved["positions"] == {"train": 404, "holdout": 74}
    assert saved["games"] == {"train": 10, "holdout": 2, "skipped": 0}
    assert saved["weights"] == pytest.approx([0.0742443981480543, -0.07317960708699583, 0.01004758415981659,
                                              -0.04720186614460277, -0.006253523438837517], rel=1e-9)
    assert set(saved["errors"]) == {"train", "holdout", "baseline_train", "baseline_holdout"}
    loaded = load_weights(out)
    assert loaded.names == DEFAULT_FEATURES


def test_features_are_taken_by_name_in_the_order_asked():
    record_game = new_game({"game": "tron", "options": {}, "seed": 0,
                            "map": {"text": "#########\n#1......#\n#.###...#\n#.#.....#\n#......2#\n#########\n",
                                    "name": "m"}}, load_registry())
    pos = Position.from_observation(record_game.observe(0))
    a, b = pos.me, pos.op
    everything = dict(zip(FEATURES, features(pos.free, a, b, pos.stride, pos.size, FEATURES), strict=True))
    assert features(pos.free, a, b, pos.stride, pos.size, ("mobility", "voronoi")) == (
        everything["mobility"], everything["voronoi"])
    mine, theirs = territories(pos.free, 1 << a, 1 << b, pos.stride)
    (our_cells, our_edges), (their_cells, their_edges) = (territory_terms(mine, a, pos.stride, pos.size),
                                                          territory_terms(theirs, b, pos.stride, pos.size))
    assert (everything["chamber_cells"], everything["chamber_edges"]) == (our_cells - their_cells,
                                                                          our_edges - their_edges)
    assert our_edges != their_edges  # the walls near player 1 make the two territories' edges differ
    # chamber's evaluation is exactly 2 x cells + 7 x edges of these terms
    python = Searcher(pos.stride, pos.size, evaluation="chamber", engine="python")
    assert python.evaluate(pos.free, a, b) == 2 * everything["chamber_cells"] + 7 * everything["chamber_edges"]


def test_fitting_the_chamber_terms_gives_chambers_own_weights(db, tmp_path):
    data = build_dataset(records_from_db(db), load_registry(), CHAMBER_FEATURES)
    assert data.names == CHAMBER_FEATURES and data.x.shape == (478, 2)
    result = train(data, seed=1, holdout=0.2)
    assert result.weights == pytest.approx([0.037478217845849725, -0.021743539713138697], rel=1e-9)
    assert chamber_weights(result) == (7, -4)  # 7 x 0.0217 / 0.0375 = 4.06
    result.weights = [0.002, 0.007]
    assert chamber_weights(result) == (2, 7)  # the default weights, fitted, are themselves
    assert chamber_weights(train(build_dataset(records_from_db(db), load_registry()), seed=1)) is None
    out = tmp_path / "w.json"
    command = ["train", "tron-eval", "--db", str(db), "--out", str(out), "--seed", "1",
               "--features", "chamber_cells,chamber_edges"]
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.output
    assert ("as chamber's own weights: chamber:cells=7,edges=-4 (version 2's are cells=2,edges=7; version 4, the "
            "default, has 7 and 7)") in result.output
    assert json.loads(out.read_text())["features"] == list(CHAMBER_FEATURES)
    # The baseline is the Voronoi difference whatever is fitted: the same line as with the default features.
    assert "voronoi only: training mse 0.1285, accuracy 58.8%; held-out mse 0.1461, accuracy 88.9%" in result.output


def test_an_unknown_feature_is_a_one_line_error(db):
    result = runner.invoke(app, ["train", "tron-eval", "--db", str(db), "--features", "voronoi,speed"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: unknown feature 'speed' (known: " + ", ".join(FEATURES) + ")"]


def test_train_command_errors_are_one_line(tmp_path):
    result = runner.invoke(app, ["train", "tron-eval", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: --db {tmp_path / 'none.db'}: no such database file"]


def test_bots_play_with_learned_weights(db, tmp_path):
    out = tmp_path / "w.json"
    assert runner.invoke(app, ["train", "tron-eval", "--db", str(db), "--out", str(out)]).exit_code == 0
    result = runner.invoke(app, ["play", f"voronoi:weights={out},depth=2", f"chamber:weights={out},depth=2",
                                 "--map", "center_block", "--quiet", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "Result after" in result.output and "raised" not in result.output
    assert Voronoi(depth=2, weights=str(out)).learned is not None
    assert Chamber(depth=2).learned is None


def test_learned_value_is_the_scaled_linear_combination_clamped():
    evaluation = LearnedEval(["voronoi"], [0.01])
    record_game = new_game({"game": "tron", "options": {}, "seed": 0,
                            "map": {"text": "#######\n#1....#\n#.....#\n#.....#\n#....2#\n#######\n",
                                    "name": "m"}}, load_registry())
    board = record_game.observe(0)
    free = Position.from_observation(board).free
    a, b = board.heads
    ours, theirs, _ = voronoi(free, a, b, board.stride)
    assert evaluation.value(free, a, b, board.stride, len(board.cells)) == round(1000 * 0.01 * (ours - theirs))
    assert LearnedEval(["area"], [1e9]).value(free, a, b, board.stride, len(board.cells)) in (-40_000, 0, 40_000)


@pytest.mark.parametrize(("text", "message"), [
    (None, "cannot read"),
    ("{not json", "not JSON"),
    ('{"format": "other"}', "field 'format' should be 'arena-tron-eval/1'"),
    ('{"format": "arena-tron-eval/1", "features": ["speed"], "weights": [1]}', "unknown feature 'speed'"),
    ('{"format": "arena-tron-eval/1", "features": ["voronoi"], "weights": [1, 2]}',
     "field 'weights' should be 1 finite numbers"),
])
def test_a_bad_weights_file_is_a_one_line_error(tmp_path, text, message):
    path = tmp_path / "bad.json"
    if text is not None:
        path.write_text(text)
    for bot in (Voronoi, Chamber):
        with pytest.raises(ArenaError) as caught:
            bot(depth=2, weights=str(path))
        assert message in str(caught.value)
        assert str(caught.value).startswith(f"weights file {path}: ")
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_bad_weights_file_is_refused_before_any_game(tmp_path, command):
    path = tmp_path / "bad.json"
    path.write_text("{}")
    spec = f"voronoi:weights={path},depth=2"
    db = tmp_path / "results.db"
    if command == "play":
        args = ["play", spec, "random", "--map", "center_block", "--quiet"]
    else:
        args = ["tournament", "center_block", "-b", f"{spec},random", "-n", "2", "--db", str(db)]
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    message = " ".join(result.output.split())
    assert f"weights file {path}: field 'format' should be 'arena-tron-eval/1'" in message
    assert not db.exists()  # nothing was played or stored
