import json

import numpy as np
import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.engines.tron.snafu.features import parse_feature_set, state_vector
from arena.engines.tron.snafu.strategy import PAPER_STRATEGIES, Strategy, parse_strategy
from arena.engines.tron.snafu.table import ACTIONS, NO_MATCH, Table, load_table, save_table
from arena.games.tron.rules import padded_grid
from arena.games.tron.snafu import SnafuGame
from arena.learning.tron.snafu.automaton import Automaton, success_curve
from arena.learning.tron.snafu.experiment import ResultsFile, ScalingSettings, run_experiment
from arena.learning.tron.snafu.simulate import play_game, seed_games
from arena.learning.tron.snafu.summary import summarise
from arena.play.referee import run_match
from arena.stats.welch import welch_test
from tests.cli_runner import CliRunner

runner = CliRunner()

# A 5 x 4 board: walls at (2, 0) and (0, 3), the automaton at (1, 1), the opponent at (3, 2).
ROWS = ("..#..", ".....", ".....", "#....")
ME, THEM = (1, 1), (3, 2)


def features(rows, me, them, heading, turn=0, letters="POWR"):
    cells = np.frombuffer(padded_grid(tuple(rows)), dtype=np.uint8).copy()
    width, height = len(rows[0]), len(rows)
    for x, y in (me, them):
        cells[(y + 1) * (width + 2) + x + 1] = 3
    codes = parse_feature_set(letters)
    out = np.zeros(8)
    state_vector(cells, width, height, me[0], me[1], "NESW".index(heading), them[0], them[1], turn, codes, out)
    return out[: {"POWR": 8, "P": 2, "O": 2, "W": 3, "R": 1}[letters]].tolist()


@pytest.mark.parametrize(("heading", "position", "opponent", "walls"), [
    # P: to the edge ahead / dimension, to the right / dimension; O: (right, ahead) / dimensions;
    # W: occupied shares ahead, left, right (the two walls and the two heads are occupied).
    ("N", [1 / 4, 3 / 5], [2 / 5, -1 / 4], [1 / 5, 1 / 4, 2 / 12]),
    ("E", [3 / 5, 2 / 4], [1 / 4, 2 / 5], [2 / 12, 1 / 5, 2 / 10]),
    ("S", [2 / 4, 1 / 5], [-2 / 5, 1 / 4], [2 / 10, 2 / 12, 1 / 4]),
    ("W", [1 / 5, 1 / 4], [-1 / 4, -2 / 5], [1 / 4, 2 / 10, 1 / 5]),
])
def test_each_feature_for_each_heading(heading, position, opponent, walls):
    assert features(ROWS, ME, THEM, heading, letters="P") == position
    assert features(ROWS, ME, THEM, heading, letters="O") == opponent
    assert features(ROWS, ME, THEM, heading, letters="W") == walls
    assert features(ROWS, ME, THEM, heading, turn=6, letters="R") == [7.0]
    assert features(ROWS, ME, THEM, heading, turn=6) == position + opponent + walls + [7.0]


def test_a_half_plane_beyond_the_edge_counts_as_walled():
    assert features(ROWS, (0, 0), THEM, "N", letters="W") == [1.0, 1.0, 2 / 16]
    assert features(ROWS, (0, 0), THEM, "N", letters="P") == [0.0, 4 / 5]


def test_feature_sets_concatenate_in_the_order_written():
    rows = ("." * 6,) * 6
    assert features(rows, (2, 3), (4, 1), "E", turn=2, letters="POWR")[:4] == [3 / 6, 2 / 6, -2 / 6, 2 / 6]
    with pytest.raises(ArenaError, match="distinct letters"):
        parse_feature_set("PPX")


def one_entry_table(vector, scores):
    table = Table(len(vector))
    table.scores[table.row(np.array(vector, dtype=float))] = scores
    return table


def test_selection_at_the_c_boundary():
    table = one_entry_table([1, 1, 1, 1], [10, 7, 0])  # cosine with (1, 0, 0, 0) is exactly 0.5
    assert table.choose(np.array([1.0, 0, 0, 0]), c=0.5, t=2) == 0
    assert table.choose(np.array([1.0, 0, 0, 0]), c=0.5000001, t=2) == NO_MATCH
    assert table.choose(np.zeros(4), c=0.5, t=2) == NO_MATCH  # a zero vector has similarity 0


def test_selection_at_the_t_boundary():
    table = one_entry_table([1, 1, 1, 1], [7, 10, 0])  # right beats straight by 3 and left by 10
    assert ACTIONS[table.choose(np.array([1.0, 1, 1, 1]), c=0.5, t=2)] == "right"
    assert table.choose(np.array([1.0, 1, 1, 1]), c=0.5, t=3) == NO_MATCH  # by more than t, not t itself
    assert ACTIONS[one_entry_table([1, 0], [-5, -5, 0]).choose(np.array([1.0, 0]), 0.5, 4)] == "left"


def test_the_most_similar_entry_decides_and_the_earliest_on_a_tie():
    table = Table(2)
    table.scores[table.row(np.array([1.0, 0.0]))] = [0, 0, 9]  # left
    table.scores[table.row(np.array([2.0, 0.0]))] = [9, 0, 0]  # same direction, later: never chosen
    table.scores[table.row(np.array([1.0, 1.0]))] = [0, 9, 0]  # right
    assert ACTIONS[table.choose(np.array([3.0, 0.1]), 0.5, 3)] == "left"
    assert ACTIONS[table.choose(np.array([1.0, 0.9]), 0.5, 3)] == "right"
    assert len(Table(2)) == 0 and Table(2).choose(np.array([1.0, 0.0]), 0.0, 0) == NO_MATCH


def test_the_update_after_a_win_a_loss_and_a_tie():
    strategy = Strategy("PO", 4, 0.5, (4, -4, -1))
    automaton = Automaton(strategy)
    assert [automaton.reward(outcome) for outcome in (1, -1, 0)] == [4, -4, -1]
    table = automaton.table
    states = np.array([[0.5, 0.5, 0, 1], [0.5, 0.5, 0, 1], [0.1, 0.2, 0.3, 0.4]])
    table.update(states, np.array([1, 1, 2]), automaton.reward(1))
    assert len(table) == 2 and table.scores[:2].tolist() == [[0, 8, 0], [0, 0, 4]]
    table.update(states[2:], np.array([0]), automaton.reward(-1))
    table.update(np.array([[0.0, 0, 0, 1]]), np.array([2]), automaton.reward(0))
    assert len(table) == 3 and table.scores[:3].tolist() == [[0, 8, 0], [-4, 0, 4], [0, 0, -1]]


def test_each_game_adds_its_reward_to_every_move_played():
    automaton = Automaton(PAPER_STRATEGIES[1])  # PR t=3, 3/-3/1
    seen, total = set(), 0
    for game in range(40):
        session = automaton.play(7, 7, 1, seed=game)
        outcome, rounds = session.outcomes[0], session.rounds[0]
        total += automaton.reward(outcome) * rounds
        assert int(automaton.table.scores.sum()) == total
        seen.add(outcome)
    assert seen == {1, -1, 0}


def observed_state(game, codes):
    obs = game.observe(0)
    (x, y), (ox, oy) = obs.xy(obs.heads[0]), obs.xy(obs.heads[1])
    out = np.zeros(8)
    state_vector(np.frombuffer(obs.cells, dtype=np.uint8), obs.width, obs.height, x, y, "NESW".index(obs.heading),
                 ox, oy, obs.turn, codes, out)
    return out.tolist()


def test_compiled_games_follow_the_snafu_rules_and_see_what_the_observation_shows():
    width, height = 9, 7
    strategy = PAPER_STRATEGIES[4]
    table = Automaton(strategy).table
    codes = parse_feature_set(strategy.features)
    states, actions = np.zeros((width * height, 8)), np.zeros(width * height, dtype=np.int64)
    record = np.zeros(4 + width * height, dtype=np.int64)
    seed_games(5)
    results = set()
    for _ in range(30):
        outcome, rounds = play_game(width, height, codes, table.units, table.scores, 0, 0.5, 3.0, states, actions,
                                    record)
        first, second = divmod(int(record[0]), width)[::-1], divmod(int(record[1]), width)[::-1]
        game = SnafuGame.from_position(("." * width,) * height, [first, second],
                                       ["NESW"[record[2]], "NESW"[record[3]]])
        for turn in range(rounds):
            assert game.result is None
            assert states[turn].tolist() == observed_state(game, codes)
            game.apply({0: ACTIONS[actions[turn]], 1: ACTIONS[record[4 + turn]]})
        ranks = game.result.ranks
        assert {(1, 2): 1, (2, 1): -1, (1, 1): 0}[ranks] == outcome
        results.add(outcome)
    assert results == {1, -1, 0}


def test_table_files_round_trip(tmp_path):
    automaton = Automaton(PAPER_STRATEGIES[0])
    automaton.play(10, 10, 30, seed=3)
    path = tmp_path / "table.json"
    save_table(path, automaton.table, {"features": "WR", "seed": 3})
    loaded, settings = load_table(path)
    assert settings == {"features": "WR", "seed": 3}
    size = len(automaton.table)
    assert len(loaded) == size > 0
    assert np.array_equal(loaded.states[:size], automaton.table.states[:size])
    assert np.array_equal(loaded.scores[:size], automaton.table.scores[:size])
    assert np.array_equal(loaded.units[:size], automaton.table.units[:size])
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ArenaError, match="not a Snafu CLA table"):
        load_table(path)
    with pytest.raises(ArenaError, match="no such table file"):
        load_table(tmp_path / "missing.json")


def test_strategies_parse_with_the_papers_defaults():
    assert parse_strategy("POWR:t=3") == Strategy("POWR", 3, 0.5, (3, -3, 1))
    assert parse_strategy("PO") == Strategy("PO", 4, 0.5, (4, -4, -1))
    assert parse_strategy("wr:c=0.7,reward=1/-1/0") == Strategy("WR", 12, 0.7, (1, -1, 0))
    assert parse_strategy("PO").label == "PO:t=4" and parse_strategy("PO:reward=3/-3/1").label == \
        "PO:t=4,reward=3/-3/1"
    for bad in ("POX", "PO:t=x", "PO:q=1", "PO:reward=1/2", "PO:c=2"):
        with pytest.raises(ArenaError):
            parse_strategy(bad)


def test_an_untrained_cla_bot_plays_as_mindless_and_a_trained_one_follows_its_table(tmp_path):
    mindless = run_match("snafu", ["mindless", "mindless"], options={"size": "9x9"}, seed=4)
    cla = run_match("snafu", ["cla:features=PR", "mindless"], options={"size": "9x9"}, seed=4)
    assert cla.actions == mindless.actions and cla.ranks == mindless.ranks
    path = tmp_path / "left.json"
    save_table(path, one_entry_table([0.5, 0.5, 1.0], [0, 0, 50]), {})  # PR: everything matches; turn left
    turning = run_match("snafu", [f"cla:features=PR,table={path}", "mindless"], options={"size": "9x9"}, seed=4)
    assert [turn[0] for turn in turning.actions] == ["left"] * len(turning.actions)
    assert len(turning.actions) <= 4  # four lefts close a loop at the latest


def test_welch_test_against_known_values():
    found = welch_test([1, 2, 3, 4], [2, 4, 6, 8, 10])
    assert found.t == pytest.approx(-2.2514363, abs=1e-6)
    assert found.df == pytest.approx(5.5207877, abs=1e-6)
    assert found.p_value == pytest.approx(0.06913359, abs=1e-7)
    assert welch_test([1, 1], [1, 1]).p_value == 1.0


SMALL = ScalingSettings(seed=7, train_games=20, test_games=10, train_size=(9, 9), test_size=(13, 13))
TWO = [parse_strategy("PR:t=3"), parse_strategy("PO")]


def repetitions(path):
    lines = path.read_text().splitlines()
    return lines[0], sorted(lines[1:])


@pytest.mark.slow
def test_the_experiment_is_the_same_with_one_or_two_workers_and_after_a_resume(tmp_path):
    one, two, resumed = tmp_path / "one.jsonl", tmp_path / "two.jsonl", tmp_path / "resumed.jsonl"
    assert run_experiment(ResultsFile(one, SMALL), TWO, reps=2, workers=1)
    assert run_experiment(ResultsFile(two, SMALL), TWO, reps=2, workers=2)
    calls = []
    assert not run_experiment(ResultsFile(resumed, SMALL), TWO, reps=2, workers=1,
                              should_stop=lambda: bool(calls), on_done=calls.append)
    assert len(calls) == 1 and len(resumed.read_text().splitlines()) == 2
    assert run_experiment(ResultsFile(resumed, SMALL), TWO, reps=2, workers=1)
    assert repetitions(one) == repetitions(two) == repetitions(resumed)
    assert len(repetitions(one)[1]) == 4
    results = ResultsFile(one, SMALL)
    summary = summarise("PR:t=3", results.repetitions(TWO[0], 2))
    rows = results.repetitions(TWO[0], 2)
    finals = [success_curve([{"W": 1, "L": -1, "T": 0}[c] for c in rep.trained])[-1] for rep in rows]
    assert summary.trained.final[0] == pytest.approx(np.mean(finals))
    assert summary.wins[2] == 20
    with pytest.raises(ArenaError, match="other settings"):
        ResultsFile(one, ScalingSettings(seed=8, train_games=20, test_games=10, train_size=(9, 9),
                                         test_size=(13, 13)))


def test_train_command_writes_a_table_with_its_settings(tmp_path):
    path = tmp_path / "t.json"
    result = runner.invoke(app, ["train", "snafu-cla", "--strategy", "PR:t=3", "--size", "9x9", "--games", "20",
                                 "--every", "10", "--seed", "2", "--out", str(path)])
    assert result.exit_code == 0, result.output
    assert "game     20: success" in result.output
    table, settings = load_table(path)
    assert settings == {"features": "PR", "t": 3, "c": 0.5, "reward": [3, -3, 1], "size": "9x9", "games": 20,
                        "seed": 2, "start_table": None, "perception": "edges", "round": "raw", "dictation": "any",
                        "walls": "half-planes", "growth": "every-round", "credit": "game"}
    again = Automaton(parse_strategy("PR:t=3"))
    again.play(9, 9, 20, seed=2)
    assert len(table) == len(again.table)
    bad = runner.invoke(app, ["train", "snafu-cla", "--strategy", "PQ"])
    assert bad.exit_code == 2 and "distinct letters" in bad.output


@pytest.mark.slow
def test_the_experiment_command_prints_its_verdicts_and_draws_the_curves(tmp_path):
    base = ["experiment", "snafu-scaling", "--strategy", "PR:t=3", "--strategy", "PO", "--reps", "2",
            "--train-games", "6", "--test-games", "4", "--results", str(tmp_path / "r.jsonl")]
    result = runner.invoke(app, [*base, "-f", "json", "--plot", str(tmp_path / "curves.png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = runner.invoke(app, [*base, "-f", "json", "--plot", str(tmp_path / "curves.svg")])
    assert again.exit_code == 0 and "<svg" in (tmp_path / "curves.svg").read_text()
    wrong = runner.invoke(app, [*base, "--plot", str(tmp_path / "curves.gif")])
    assert wrong.exit_code == 2
