"""The scaling experiment's primary test (one success difference per repetition, Holm across strategies), its
verdicts, its JSON, and the frozen control: every expected figure below is worked out by hand."""

import json
import math

import pytest

from arena.cli.main import app
from arena.engines.tron.snafu.reading import Reading
from arena.engines.tron.snafu.strategy import parse_strategy
from arena.learning.tron.snafu.automaton import Automaton
from arena.learning.tron.snafu.experiment import (
    Repetition,
    ResultsFile,
    ScalingSettings,
    repetition_seeds,
    run_experiment,
)
from arena.learning.tron.snafu.summary import verdict
from arena.stats.clustered import ClusteredTest, clustered_test
from tests.cli_runner import CliRunner

runner = CliRunner()


def strict_json(text):
    """Parse ``text`` refusing NaN and infinities, which are not JSON."""
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_clustered_test_by_hand():
    # Differences 0.1, 0.2, 0.0: mean 0.1, sd sqrt((0 + 0.01 + 0.01) / 2) = 0.1, z = 0.1 / (0.1 / sqrt 3) = sqrt 3.
    # Student's t with 2 df has P(|T| >= t) = 1 - t / sqrt(t^2 + 2): 1 - sqrt(3 / 5).
    found = clustered_test([0.1, 0.3, 0.2], [0.0, 0.1, 0.2])
    assert (found.mean_difference, found.sd, found.z, found.df) == pytest.approx((0.1, 0.1, math.sqrt(3), 2))
    assert found.p_value == pytest.approx(1 - math.sqrt(3 / 5), abs=1e-12)
    assert clustered_test([0.5], [0.1]) is None  # one cluster: no spread to test by
    same = clustered_test([0.25, 0.5], [0.0, 0.25])  # equal differences: no spread, a certain difference
    assert (same.z, same.p_value) == (math.inf, 0.0)


def test_the_verdict_follows_the_sign_and_the_holm_corrected_p():
    better, worse = ClusteredTest(0.1, 0.2, 3.0, 99, 0.003), ClusteredTest(-0.1, 0.2, -3.0, 99, 0.003)
    assert verdict(better, 0.018) == "trained better"
    assert verdict(worse, 0.018) == "trained worse"
    assert verdict(better, 0.06) == "no significant difference"  # p = 0.003 alone would pass; Holm's does not
    assert verdict(None, None) == "too few repetitions to test"


def write_results(path, settings, rows):
    """A results file holding ``rows`` (strategy, trained letters, untrained letters) as finished repetitions."""
    lines = [json.dumps(settings.header())]
    counts = {}
    for strategy, trained, untrained in rows:
        rep = counts[strategy] = counts.get(strategy, -1) + 1
        lines.append(json.dumps(Repetition(strategy, rep, "TTTT", trained, untrained, [1, 1, 1, 1], 0).to_json()))
    path.write_text("\n".join(lines) + "\n")


def test_the_command_reports_the_clustered_test_with_holm_and_the_readings_tried(tmp_path):
    path = tmp_path / "r.jsonl"
    # Success (eq. 2) of 4 games is (wins - losses) / 4. Per repetition, trained minus untrained:
    # WR: 0.25 - -0.25, 0 - -0.25, 0.5 - 0 = 0.5, 0.25, 0.5: mean 5/12, sd sqrt(1/48), z = 5, p = 1 - 5/sqrt 27.
    # PO: 0.25, 0.5, 0 against 0: mean 0.25, sd 0.25, z = sqrt 3, p = 1 - sqrt(3/5).
    # PR: 0, 0, -0.5 against 0: mean -1/6, sd sqrt(1/12), z = -1, p = 1 - 1/sqrt 3. PR's trained automaton wins
    # more (5 of 12 against 0) and loses more: the pooled z on win rates is (5/12) / sqrt(5/12 * 7/12 / 12)
    # = sqrt(60/7) = +2.93 while Welch's t on the success is -1: the old label said "trained better (z only)".
    write_results(path, ScalingSettings(0, 4, 4), [
        ("WR:t=12", "WWLT", "LLTW"), ("WR:t=12", "WLTT", "WLLT"), ("WR:t=12", "WWWL", "TTTT"),
        ("PO:t=4", "WWLT", "TTTT"), ("PO:t=4", "WWWL", "TTTT"), ("PO:t=4", "TTTT", "TTTT"),
        ("PR:t=3", "WWLL", "TTTT"), ("PR:t=3", "WWLL", "TTTT"), ("PR:t=3", "WLLL", "TTTT")])
    base = ["experiment", "snafu-scaling", "--strategy", "WR", "--strategy", "PO", "--strategy", "PR", "--reps", "3",
            "--train-games", "4", "--test-games", "4", "--results", str(path), "--readings-tried", "2"]
    result = runner.invoke(app, [*base, "-f", "json"])
    assert result.exit_code == 0, result.output
    found = {row["strategy"]: row for row in strict_json(result.stdout)}
    p_wr, p_po, p_pr = 1 - 5 / math.sqrt(27), 1 - math.sqrt(3 / 5), 1 - 1 / math.sqrt(3)
    # Holm over 3: the smallest (WR) times 3; the next (PO) times 2, at least that; the largest (PR) times 1,
    # at least PO's.
    holm = {"WR:t=12": 3 * p_wr, "PO:t=4": 2 * p_po, "PR:t=3": 2 * p_po}
    expected = {"WR:t=12": (5 / 12, 5.0, p_wr), "PO:t=4": (0.25, math.sqrt(3), p_po),
                "PR:t=3": (-1 / 6, -1.0, p_pr)}
    for strategy, (difference, z, p) in expected.items():
        row = found[strategy]
        assert (row["success_difference"], row["clustered_z"], row["p_clustered"]) == pytest.approx((difference, z, p))
        assert row["holm_p"] == pytest.approx(holm[strategy])
        assert row["p_all_readings"] == pytest.approx(min(1.0, 2 * holm[strategy]))
        assert (row["clustered_df"], row["readings_tried"], row["frozen"]) == (2, 2, False)
        assert row["verdict"] == "no significant difference"
    assert found["PR:t=3"]["z"] == pytest.approx(math.sqrt(60 / 7))
    assert found["PR:t=3"]["welch_t"] == pytest.approx(-1.0)
    assert found["WR:t=12"]["z"] == pytest.approx(math.sqrt(24 / 7))  # 6 of 12 against 2 of 12
    assert "treating games as independent" in found["WR:t=12"]["measures"]["z"]
    table = runner.invoke(app, [*base, "-f", "md"])
    assert table.exit_code == 0
    assert "| PR:t=3     |      3 |" in table.output and "| -0.167 " in table.output
    assert table.output.count("no significant difference") == 3 and "z only" not in table.output


def test_json_with_one_repetition_is_valid_json(tmp_path):
    path = tmp_path / "r.jsonl"
    # 4 wins against 4 losses: the pooled z's standard error is 0, so z is infinite; one repetition has no spread.
    write_results(path, ScalingSettings(0, 4, 4), [("WR:t=12", "WWWW", "LLLL")])
    result = runner.invoke(app, ["experiment", "snafu-scaling", "--strategy", "WR", "--reps", "1", "--train-games",
                                 "4", "--test-games", "4", "--results", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    row = strict_json(result.stdout)[0]
    assert (row["z"], row["clustered_z"], row["holm_p"], row["welch_t"]) == (None, None, None, None)
    assert row["success"]["trained"] == {"mean": 1.0, "sd": 0.0}
    assert row["verdict"] == "too few repetitions to test"


def test_frozen_plays_the_large_board_without_learning(tmp_path):
    reading = Reading(dictation="safe", growth="matched")
    settings = dict(seed=7, train_games=20, test_games=10, train_size=(9, 9), test_size=(13, 13), reading=reading)
    strategy = parse_strategy("WR")
    learning, frozen = ResultsFile(tmp_path / "l.jsonl", ScalingSettings(**settings)), ResultsFile(
        tmp_path / "f.jsonl", ScalingSettings(**settings, frozen=True))
    assert run_experiment(learning, [strategy], reps=1) and run_experiment(frozen, [strategy], reps=1)
    assert json.loads((tmp_path / "f.jsonl").read_text().splitlines()[0])["frozen"] is True
    learnt, fixed = learning.done[("WR:t=12", 0)], frozen.done[("WR:t=12", 0)]
    assert fixed.train == learnt.train  # the same training games, so the same table goes to 13x13
    # An empty table that never learns never dictates: it plays the pseudo-random opponent's rule whatever its
    # features, so an empty PO automaton on the untrained side's seed plays the same games.
    _, _, untrained_seed = repetition_seeds(7, strategy, 0)
    mindless = Automaton(parse_strategy("PO"), reading=reading).play(13, 13, 10, untrained_seed, learn=False)
    assert fixed.untrained == "".join({1: "W", -1: "L", 0: "T"}[o] for o in mindless.outcomes)
    # Both trained sides start from the same table, so their first game is the same; the learning one's table then
    # changes with each game, the frozen one's does not, and their games part.
    assert learnt.trained[0] == fixed.trained[0] and learnt.trained != fixed.trained
