"""The switches of the Snafu CLA (readings of what Cloppert 2007 leaves open): each changes what it says."""

import json

import numpy as np
import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.engines.tron.snafu.features import parse_feature_set, read_state
from arena.engines.tron.snafu.reading import PAPER, Reading
from arena.engines.tron.snafu.strategy import parse_strategy
from arena.engines.tron.snafu.table import Table
from arena.games.tron.rules import padded_grid
from arena.learning.tron.snafu.automaton import Automaton
from arena.learning.tron.snafu.experiment import ResultsFile, ScalingSettings, run_experiment
from arena.learning.tron.snafu.summary import summarise, table_growth
from tests.cli_runner import CliRunner

runner = CliRunner()

# A 5 x 4 board: walls at (2, 0) and (0, 3), the automaton at (2, 2), the opponent's head at (3, 2).
ROWS = ("..#..", ".....", ".....", "#....")
ME, THEM = (2, 2), (3, 2)


def features(heading, letters, reading, turn=6):
    cells = np.frombuffer(padded_grid(ROWS), dtype=np.uint8).copy()
    for x, y in (ME, THEM):
        cells[(y + 1) * 7 + x + 1] = 3
    out = np.zeros(3)
    read_state(cells, 5, 4, *ME, "NESW".index(heading), *THEM, turn, parse_feature_set(letters), reading.codes(),
               out)
    return out[: {"P": 2, "W": 3, "R": 1}[letters]].tolist()


@pytest.mark.parametrize(("heading", "edges", "trails"), [
    # Free cells ahead / height (width), then to the right / width (height). North: the wall at (2, 0) is 1
    # cell ahead, the opponent's head right beside us; east: the head is ahead.
    ("N", [2 / 4, 2 / 5], [1 / 4, 0 / 5]),
    ("E", [2 / 5, 1 / 4], [0 / 5, 1 / 4]),
    ("S", [1 / 4, 2 / 5], [1 / 4, 2 / 5]),
    ("W", [2 / 5, 2 / 4], [2 / 5, 1 / 4]),
])
def test_perception_trails_stops_p_at_the_first_wall_trail_or_head(heading, edges, trails):
    assert features(heading, "P", PAPER) == edges
    assert features(heading, "P", Reading(perception="trails")) == trails


@pytest.mark.parametrize(("heading", "half_planes", "rays"), [
    # Occupied shares ahead, left, right. North: half-planes y < 2 (10 cells, the wall at (2, 0)), x < 2 (8, the
    # wall at (0, 3)), x > 2 (8, the head at (3, 2)); rays (2, 1) (2, 0) | (1, 2) (0, 2) | (3, 2) (4, 2).
    ("N", [1 / 10, 1 / 8, 1 / 8], [1 / 2, 0 / 2, 1 / 2]),
    ("E", [1 / 8, 1 / 10, 2 / 10], [1 / 2, 1 / 2, 0 / 1]),
    ("S", [2 / 10, 1 / 8, 1 / 8], [0 / 1, 1 / 2, 0 / 2]),
    ("W", [1 / 8, 2 / 10, 1 / 10], [0 / 2, 0 / 1, 1 / 2]),
])
def test_walls_rays_measures_the_lines_of_cells_not_the_half_planes(heading, half_planes, rays):
    assert features(heading, "W", PAPER) == half_planes
    assert features(heading, "W", Reading(walls="rays")) == rays


def test_round_scaled_divides_the_round_by_the_boards_cells():
    assert features("N", "R", PAPER) == [7.0]
    assert features("N", "R", Reading(round="scaled")) == [7 / 20]


def right_table():
    """A table whose one entry dictates "right" in every state of feature R (all R vectors point one way)."""
    table = Table(1)
    table.scores[table.row(np.array([1.0]))] = [0, 10, 0]
    return table


def test_safe_dictation_refuses_a_decision_onto_an_occupied_cell():
    strategy = parse_strategy("R:t=3")
    spinning = Automaton(strategy, right_table()).play(9, 9, 12, seed=3, learn=False)
    assert spinning.outcomes == [-1] * 12  # it turns right into its own trail (or off the board) every game
    assert spinning.rounds == [4, 4, 4, 4, 4, 2, 4, 1, 4, 4, 4, 2]
    safe = Automaton(strategy, right_table(), Reading(dictation="safe")).play(9, 9, 12, seed=3, learn=False)
    assert safe.outcomes == [-1, 0, -1, 1, 1, 1, -1, -1, -1, -1, 0, -1]
    assert safe.rounds == [25, 26, 9, 40, 36, 18, 16, 30, 10, 4, 14, 9]


@pytest.mark.parametrize(("reading", "entries", "score_sum"), [
    # One 24-round tie (reward +1) on 9x9: every round is an entry, or only the 5 rounds that began facing an
    # occupied cell, or the last 10 rounds.
    (PAPER, 24, 24),
    (Reading(growth="turns"), 5, 5),
    (Reading(credit="last"), 10, 10),
    (Reading(growth="matched"), 24, 24),  # an empty table matches nothing: every state becomes an entry
])
def test_growth_and_credit_choose_the_rounds_that_enter_the_table(reading, entries, score_sum):
    automaton = Automaton(parse_strategy("PR:t=3"), reading=reading)
    session = automaton.play(9, 9, 1, seed=3)
    assert (session.outcomes, session.rounds) == ([0], [24])
    assert len(automaton.table) == entries
    assert automaton.table.scores[: len(automaton.table)].sum() == score_sum


def test_matched_growth_updates_the_matched_entries_instead_of_adding_states():
    every = Automaton(parse_strategy("PR:t=3"))
    every.play(9, 9, 30, seed=3)
    matched = Automaton(parse_strategy("PR:t=3"), reading=Reading(growth="matched"))
    session = matched.play(9, 9, 30, seed=3)
    assert len(every.table) == 429
    assert len(matched.table) == 24  # after the first game every state matches one of its 24 entries
    assert sum(session.rounds) == 458 and sum(session.outcomes) == -11
    assert matched.table.scores[:24].sum() == -422


def test_table_update_into_given_entries():
    table = Table(2)
    table.update(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([0, 1]), 3)
    table.update(np.array([[2.0, 0.0], [5.0, 5.0]]), np.array([2, 2]), -4, entries=np.array([1, -1]))
    assert len(table) == 3
    assert table.scores[:3].tolist() == [[3, 0, 0], [0, 3, -4], [0, 0, -4]]


def test_readings_check_their_values_and_label_what_differs():
    assert PAPER.label == "paper"
    assert Reading(dictation="safe", growth="matched").label == "dictation=safe,growth=matched"
    assert Reading.from_settings({"dictation": "safe"}) == Reading(dictation="safe")
    with pytest.raises(ArenaError, match="growth 'some' is not one of: every-round, turns, matched"):
        Reading(growth="some")


def test_table_growth_per_block():
    sizes = [np.array([10, 18, 24, 28, 30]), np.array([12, 20, 24, 30, 30])]
    assert table_growth(sizes, blocks=2) == [(1, 2, 9.5), (3, 5, pytest.approx(11 / 3))]  # mean 11 19 24 29 30
    assert table_growth(sizes, blocks=10) == [(1, 1, 11.0), (2, 2, 8.0), (3, 3, 5.0), (4, 4, 5.0), (5, 5, 1.0)]


SMALL = ScalingSettings(seed=7, train_games=20, test_games=10, train_size=(9, 9), test_size=(13, 13),
                        reading=Reading(dictation="safe", growth="matched"))


def test_the_reading_is_part_of_the_results_files_settings(tmp_path):
    path = tmp_path / "r.jsonl"
    assert run_experiment(ResultsFile(path, SMALL), [parse_strategy("WR")], reps=1)
    header = json.loads(path.read_text().splitlines()[0])
    assert (header["dictation"], header["growth"], header["perception"]) == ("safe", "matched", "edges")
    with pytest.raises(ArenaError, match="dictation safe there, any here"):
        ResultsFile(path, ScalingSettings(seed=7, train_games=20, test_games=10, train_size=(9, 9),
                                          test_size=(13, 13)))
    repetition = ResultsFile(path, SMALL).done[("WR:t=12", 0)]
    assert (repetition.decisive, repetition.train_table[-1], repetition.train) == (1, 13, "LTWTWLWLWTTWTLWLLTWT")
    old = tmp_path / "old.jsonl"  # a file written before the switches existed reads as the paper's reading
    plain = ScalingSettings(seed=7, train_games=20, test_games=10, train_size=(9, 9), test_size=(13, 13))
    header = {key: value for key, value in plain.header().items() if key not in PAPER.settings()}
    old.write_text(json.dumps(header) + "\n")
    assert ResultsFile(old, plain).done == {}


def test_the_command_takes_the_switches_and_reports_growth_and_decisive_entries_as_json(tmp_path):
    base = ["experiment", "snafu-scaling", "--strategy", "WR", "--reps", "2", "--train-games", "20",
            "--test-games", "10", "--results", str(tmp_path / "r.jsonl"), "--dictation", "safe", "--growth",
            "matched"]
    result = runner.invoke(app, [*base, "-f", "json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert len(found) == 1
    strategy = found[0]
    assert strategy["strategy"] == "WR:t=12" and strategy["reps"] == 2
    assert strategy["reading"]["dictation"] == "safe" and strategy["reading"]["growth"] == "matched"
    rows = ResultsFile(tmp_path / "r.jsonl", ScalingSettings(
        0, 20, 10, reading=Reading(dictation="safe", growth="matched"))).repetitions(parse_strategy("WR"), 2)
    summary = summarise("WR:t=12", rows)
    assert strategy["decisive_entries"]["per_repetition"] == [rep.decisive for rep in rows]
    assert [block["entries_per_game"] for block in strategy["growth"]] == [g[2] for g in summary.growth]
    assert [block["games"] for block in strategy["growth"]] == [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10],
                                                               [11, 12], [13, 14], [15, 16], [17, 18], [19, 20]]
    assert strategy["growth"][0]["entries_per_game"] == (rows[0].train_table[1] + rows[1].train_table[1]) / 4
    assert strategy["z"] == summary.z_test.z
    table = runner.invoke(app, [*base, "-f", "md"])
    assert table.exit_code == 0
    assert "(reading: dictation=safe,growth=matched): 2 of 2" in table.output
    assert "| WR:t=12    | 19-20   |" in table.output
    other = runner.invoke(app, [*base[:-4], "-f", "json"])
    assert other.exit_code == 2 and "other settings" in other.output
    bad = runner.invoke(app, [*base, "--walls", "cones"])
    assert bad.exit_code == 2 and "walls 'cones' is not one of: half-planes, rays" in bad.output


def test_the_cla_bot_plays_under_a_reading(tmp_path):
    from arena.engines.tron.snafu.table import save_table
    from arena.play.referee import run_match

    path = tmp_path / "left.json"
    table = Table(3)
    table.scores[table.row(np.array([0.5, 0.5, 1.0]))] = [0, 0, 50]  # PR: every state matches; turn left
    save_table(path, table, {})
    spinning = run_match("snafu", [f"cla:features=PR,table={path}", "mindless"], options={"size": "9x9"}, seed=4)
    assert [turn[0] for turn in spinning.actions] == ["left"] * 4 and spinning.ranks == (2, 1)
    safe = run_match("snafu", [f"cla:features=PR,table={path},dictation=safe", "mindless"],
                     options={"size": "9x9"}, seed=4)
    moves = [turn[0] for turn in safe.actions]
    assert moves[:6] == ["left", "left", "left", "straight", "left", "straight"]  # the fourth left would crash
    assert len(moves) == 32 and safe.ranks == (1, 2)


def test_train_command_takes_the_switches_and_names_them_in_the_bots_spec(tmp_path):
    from arena.engines.tron.snafu.table import load_table

    path = tmp_path / "t.json"
    result = runner.invoke(app, ["train", "snafu-cla", "--strategy", "WR", "--size", "9x9", "--games", "20",
                                 "--seed", "2", "--dictation", "safe", "--growth", "matched", "--out", str(path)])
    assert result.exit_code == 0, result.output
    assert "cla:features=WR,t=12,c=0.5,reward=4/-4/-1,dictation=safe,growth=matched,table=" in result.output
    table, settings = load_table(path)
    assert (settings["dictation"], settings["growth"], settings["perception"]) == ("safe", "matched", "edges")
    again = Automaton(parse_strategy("WR"), reading=Reading(dictation="safe", growth="matched"))
    again.play(9, 9, 20, seed=2)
    assert len(table) == len(again.table) == 16
    assert table.scores[:16].tolist() == again.table.scores[:16].tolist()


def test_a_learning_cla_bot_adds_games_to_the_entries_its_states_matched():
    import sys

    from arena.play.referee import run_match

    spec = "cla:features=PR,t=3,learn=on,growth=matched"
    key = ("features=PR,t=3,c=0.5,reward=3/-3/1", "", "growth=matched")
    found = []
    for seed in (4, 5, 6):
        if seed == 4:  # the bot keeps its table in its module, per spec: start from an empty one
            for module in [m for m in sys.modules.values() if hasattr(m, "_TABLES") and hasattr(m, "Cla")]:
                module._TABLES.pop(key, None)
        match = run_match("snafu", [spec, "mindless"], options={"size": "9x9"}, seed=seed)
        module = next(m for m in sys.modules.values() if hasattr(m, "_TABLES") and hasattr(m, "Cla"))
        table = module._TABLES[key]
        found.append((len(match.actions), match.ranks, len(table), table.scores[: len(table)].tolist()))
    # A 5-round tie makes the five entries; then every state matches one of them: a 7-round tie adds 1 to each
    # of its 7 moves there, a 24-round win 3 to each of its 24.
    assert found == [
        (5, (1, 1), 5, [[1, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]]),
        (7, (1, 1), 5, [[2, 0, 0], [0, 1, 1], [2, 0, 0], [1, 0, 0], [4, 0, 1]]),
        (24, (1, 2), 5, [[2, 0, 3], [0, 1, 1], [2, 0, 0], [1, 0, 0], [58, 0, 16]]),
    ]
