"""arena report and arena compare RUN_A RUN_B: how sure each number is."""

import json

import pytest

from arena.cli.main import app
from arena.stats.analysis import analyse, compare_ratings
from arena.stats.proportions import holm, sign_test
from arena.stats.standings import PlayedGame
from tests.cli_runner import CliRunner

runner = CliRunner()


def game(a, b, ranks, map_name="m"):
    return PlayedGame(((a, None), (b, None)), ranks, {}, (0.0, 0.0), map_name)


def test_analysis_counts_each_game_once_and_marks_what_survives_holm():
    played = [game("strong", "weak", (1, 2)) for _ in range(10)] + [game("weak", "strong", (2, 1)) for _ in range(10)]
    played += [game("strong", "even", (1, 1)) for _ in range(4)] + [game("even", "weak", (1, 2), "n")]
    analysis = analyse(played)
    strong = analysis.bots[("strong", None)]
    assert (strong.wins, strong.draws, strong.losses) == (20, 4, 0)
    assert strong.success == pytest.approx(20 / 24)
    assert analysis.bots[("weak", None)].success == pytest.approx(-21 / 21)
    assert analysis.bots[("even", None)].success == pytest.approx(1 / 5)
    assert strong.bt.games == 24  # every game counted once
    pair = next(p for p in analysis.pairs if (p.a, p.b) == ("strong", "weak"))
    assert (pair.wins, pair.draws, pair.losses) == (20, 0, 0)
    raw = [sign_test(0, 1), sign_test(0, 0), sign_test(20, 0)]  # even-weak, even-strong, strong-weak (sorted)
    assert pair.p_value == pytest.approx(raw[2]) and pair.p_holm == pytest.approx(holm(raw)[2])
    assert pair.significant
    assert not next(p for p in analysis.pairs if (p.a, p.b) == ("even", "weak")).significant
    seat_zero = analysis.seats[0]
    assert seat_zero.score.games == 25 and seat_zero.score.score == pytest.approx((10 + 0 + 2 + 1) / 25)
    assert [(m.map, m.key[0]) for m in analysis.maps] == [("m", "even"), ("m", "strong"), ("m", "weak"),
                                                         ("n", "even"), ("n", "weak")]


def test_rating_changes_are_tested_against_their_uncertainty():
    changes = compare_ratings({("a", None): (25.0, 1.0), ("b", None): (25.0, 3.0)},
                              {("a", None): (29.0, 1.0), ("b", None): (26.0, 3.0), ("c", None): (1.0, 1.0)})
    assert [c.label for c in changes] == ["a", "b"]
    assert changes[0].z == pytest.approx(4 / 2 ** 0.5) and changes[0].significant
    assert changes[1].z == pytest.approx(1 / 18 ** 0.5) and not changes[1].significant


def run_tournament(*extra):
    result = runner.invoke(app, ["tournament", "center_block", "-b", "floodfill,random,chaser", "-n", "6", "-w", "1",
                                 "-f", "json", *extra])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_report_json_latex_and_table():
    run_tournament()
    data = json.loads(runner.invoke(app, ["report", "1", "-f", "json"]).stdout)
    assert next(row["bot"] for row in data["standings"]) == "floodfill"
    first = data["standings"][0]
    assert first["score_lower"] <= first["score"] <= first["score_upper"]
    assert first["bt_lower"] <= first["bt"] <= first["bt_upper"]
    assert first["success"] == pytest.approx((first["wins"] - first["losses"]) / first["games"])
    assert len(data["pairwise"]) == 6 and len(data["seats"]) == 2
    assert sum(s["games"] for s in data["seats"]) == 2 * 18
    latex = runner.invoke(app, ["report", "1", "-f", "latex"]).stdout
    assert latex.startswith("% Standings: tron, 18 games\n\\begin{tabular}")
    table = runner.invoke(app, ["report", "1"]).stdout
    assert "Pairwise scores" in table and "Seat advantage" in table and "Holm" in table
    assert "success" in table and "Cloppert 2007" in table
    assert runner.invoke(app, ["report", "1", "-f", "xml"]).stderr.startswith("error: --format 'xml'")


@pytest.mark.slow
def test_compare_runs_and_bots_need_the_right_arguments():
    run_tournament()
    run_tournament("--seed", "5")
    result = runner.invoke(app, ["compare", "1", "2", "-f", "csv"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "bot,run 1,run 2,change,z,p,significant"
    assert sorted(line.split(",")[0] for line in lines[1:]) == ["chaser", "floodfill", "random"]
    assert runner.invoke(app, ["compare", "1", "2", "--sprt", "0,10"]).stderr.startswith(
        "error: --sprt plays bots against each other")
    assert runner.invoke(app, ["compare", "floodfill", "random"]).stderr.startswith(
        "error: comparing two bots needs --sprt ELO0,ELO1")
