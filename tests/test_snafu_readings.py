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
from arena.learning.tron.snafu.experiment import ResultsFile, ScalingSettings, repetition_seeds, run_experiment
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


def right_games(reading, games, seed=3, size=9):
    """Play ``games`` games of the always-right table on a ``size`` x ``size`` board: (outcome, rounds, start, moves)
    each, the start being the automaton's cell (x, y) and heading (0 north, clockwise)."""
    from arena.engines.tron.snafu.features import parse_feature_set
    from arena.learning.tron.snafu.simulate import play_read_game, seed_games

    table, cells = right_table(), size * size
    states, actions, kept = np.zeros((cells, 1)), np.zeros(cells, dtype=np.int64), np.zeros(cells, dtype=np.int64)
    record = np.zeros(4 + cells, dtype=np.int64)
    seed_games(seed)
    found = []
    for _ in range(games):
        outcome, rounds = play_read_game(size, size, parse_feature_set("R"), reading.codes(), table.units,
                                         table.scores, table.size, 0.5, 3.0, states, actions, kept, record)
        start = (int(record[0]) % size, int(record[0]) // size, int(record[2]))
        found.append((int(outcome), int(rounds), start, actions[:rounds].tolist()))
    return found


def spin_crash_round(x, y, heading, size=9):
    """By hand: turning right every round walks a 2x2 square (heading + 1, + 2, + 3 quarter turns), so the k-th
    move lands off the board for the first k whose cell is outside, else the 4th move returns onto the start."""
    forward = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    for k in range(1, 4):
        dx, dy = forward[(heading + k) % 4]
        x, y = x + dx, y + dy
        if not (0 <= x < size and 0 <= y < size):
            return k
    return 4


def test_safe_dictation_refuses_a_decision_onto_an_occupied_cell():
    spinning = right_games(PAPER, 12)
    # Every move is the table's "right" (1), and the game ends, lost, on the round the square walk says.
    for outcome, rounds, start, moves in spinning:
        assert (outcome, rounds, moves) == (-1, spin_crash_round(*start), [1] * rounds)
    for _, _, start, moves in right_games(Reading(dictation="safe"), 12):
        # Safe dictation plays "right" while the cell there is empty and refuses it at the latest on the move that
        # would have crashed the spinner (earlier if the opponent's trail is there): the opponent's rule plays
        # then.
        crash = spin_crash_round(*start)
        refused = moves.index(next(move for move in moves if move != 1))
        assert refused <= crash - 1 and moves[:refused] == [1] * refused


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
    strategy = parse_strategy("PR:t=3")
    every = Automaton(strategy)
    every_games = every.play(9, 9, 30, seed=3)
    matched = Automaton(strategy, reading=Reading(growth="matched"))
    session = matched.play(9, 9, 30, seed=3)
    # By the update rule, every round adds the game's reward (3 win, -3 loss, 1 tie) once to one entry, so the
    # scores sum to the sum over games of reward x rounds, whichever entries the rounds went to.
    for automaton, games in ((every, every_games), (matched, session)):
        expected = sum(automaton.reward(o) * r for o, r in zip(games.outcomes, games.rounds, strict=True))
        assert automaton.table.scores[: len(automaton.table)].sum() == expected
    # The empty table matches nothing in the first game, so each of its rounds becomes an entry; PR's vectors
    # (two shares and a round number, none negative) here all lie within c = 0.5 of one of those, so no entry
    # is added after it, where every-round growth keeps adding new exact states.
    assert session.table_sizes == [session.rounds[0]] * 30
    assert every_games.table_sizes[-1] > every_games.table_sizes[0] == every_games.rounds[0]  # R: all distinct


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
    # Training is the file's reading played on the repetition's training seed; a decisive entry is one whose best
    # decision beats both others by more than t = 12, counted here from the table's scores.
    again = Automaton(parse_strategy("WR"), reading=SMALL.reading)
    games = again.play(9, 9, 20, repetition_seeds(7, parse_strategy("WR"), 0)[0])
    assert repetition.train == "".join({1: "W", -1: "L", 0: "T"}[o] for o in games.outcomes)
    scores = sorted(map(sorted, again.table.scores[: len(again.table)].tolist()))
    assert repetition.decisive == sum(1 for low, middle, best in scores if best - middle > 12)
    assert repetition.train_table == games.table_sizes == [games.rounds[0]] * 20  # matched: the first game's states
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
        found.append((len(match.actions), match.ranks, table.scores[: len(table)].copy(), match.actions))
    # Each round adds the game's reward (3 win, -3 loss, 1 tie) once, to the entry its state matched. The first game
    # starts from an empty table: each of its rounds becomes an entry holding the reward on the move it played.
    # After it no entry is added (every later state matches one of its entries), and the scores' sum grows by
    # reward x rounds per game.
    reward = {(1, 1): 1, (1, 2): 3, (2, 1): -3}
    first_rounds, first_ranks, first_scores, first_moves = found[0]
    column = {"straight": 0, "right": 1, "left": 2}
    expected = np.zeros((first_rounds, 3), dtype=np.int64)
    for row, turn in enumerate(first_moves):
        expected[row, column[turn[0]]] = reward[first_ranks]
    assert first_scores.tolist() == expected.tolist()
    total = 0
    for rounds, ranks, scores, _ in found:
        total += reward[ranks] * rounds
        assert len(scores) == first_rounds and scores.sum() == total
