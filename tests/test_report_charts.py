"""The report's rating charts: one line per bot version, over the runs it played, and the page draws them so."""

import re
from html import unescape

import pytest

from arena.cli.main import app
from arena.report.charts import point_chart
from arena.storage.queries import rating_series, run_rating_series
from arena.storage.store import Store
from tests.cli_runner import CliRunner
from tests.helpers import VERSIONED_HUGGER, write_module

runner = CliRunner()



def play(bots_dir, bots):
    result = runner.invoke(app, ["tournament", "empty_room", "-b", bots, "-n", "2", "-w", "1", "--bots-dir",
                                 str(bots_dir), "-f", "json"])
    assert result.exit_code == 0, result.output


def chart_points(page: str, title: str) -> dict[str, list[str]]:
    """The points of each line of the chart captioned ``title`` in an HTML page, by their tooltips."""
    figure = page[page.index(f"<figcaption>{title}</figcaption>"):]
    figure = figure[:figure.index("</figure>")]
    lines = re.findall(r'<g class="line" data-name="([^"]*)">(.*?)</g>', figure)
    return {unescape(name): [unescape(t) for t in re.findall(r"<title>(.*?)</title>", body)] for name, body in lines}


@pytest.mark.slow
def test_each_version_is_a_line_over_the_runs_it_played(tmp_path):
    mine = tmp_path / "mine"
    write_module(mine, "hugger.py", VERSIONED_HUGGER.format(version=1))
    play(mine, "hugger,random,wallhugger")  # run 1
    write_module(mine, "hugger.py", VERSIONED_HUGGER.format(version=2))
    play(mine, "hugger,random")  # run 2: wallhugger sits out
    play(mine, "random,wallhugger")  # run 3: hugger sits out
    play(mine, "hugger,random,wallhugger")  # run 4

    with Store("arena.db") as store:
        old, new = (row["version"] for row in sorted(store.bot_rows(), key=lambda row: row["id"])
                    if row["label"] == "hugger")
        played = {run: {bot for result in store.results(run) for bot, _ in result.players} for run in (1, 2, 3, 4)}
        boards = {run: {bot: mu - 3 * sigma for bot, _, mu, sigma, _ in store.run_leaderboard(run)}
                  for run in (1, 2, 3, 4)}
        ids = {(row["label"], row["version"]): row["id"] for row in store.bot_rows()}
        series = rating_series(store, "tron", ["hugger", "random", "wallhugger"], 4)
        in_run = run_rating_series(store, 4)
        snapshots = len(store.snapshots(4))
    versions = {f"hugger@{old}": ("hugger", old), f"hugger@{new}": ("hugger", new)}
    for label in ("random", "wallhugger"):
        versions[label] = next(key for key in ids if key[0] == label)
    assert {name: [run for run, _ in points] for name, points in series.items()} == {
        f"hugger@{old}": [1], f"hugger@{new}": [2, 4], "random": [1, 2, 3, 4], "wallhugger": [1, 3, 4]}
    for name, points in series.items():  # each point: the version's stored rating after a run it played
        assert all(ids[versions[name]] in played[run] and value == boards[run][ids[versions[name]]]
                   for run, value in points)
    assert set(in_run) == {"hugger", "random", "wallhugger"}  # one version each in run 4
    assert sum(len(values) for values in in_run.values()) == snapshots

    written = runner.invoke(app, ["report", "4", "--html", str(tmp_path / "report.html")])
    assert written.exit_code == 0, written.output
    page = (tmp_path / "report.html").read_text()
    drawn = chart_points(page, "mu - 3 sigma after each run it played, version by version, across every stored run")
    assert drawn == {name: [f"{name}, run {run}: {value:.2f}" for run, value in points]
                     for name, points in series.items()}
    for run in (1, 2, 3, 4):
        assert f'text-anchor="middle">run {run}</text>' in page


def test_a_point_chart_places_each_series_on_the_shared_axis():
    svg = point_chart("t", {"a": [(0, 1.0), (2, 3.0)], "b": [(0, 1.0), (1, 2.0)]}, "run",
                      ["run 1", "run 2", "run 3"], width=250, height=100)
    # x runs from 50 to 100 (width - 150): positions 0, 1, 2 at 50, 75, 100; y from 65 (low) to 20 (high)
    lines = dict(re.findall(r'<g class="line" data-name="(\w)">(.*?)</g>', svg))
    assert re.findall(r'points="([^"]*)"', lines["a"]) == ["50.0,65.0", "100.0,20.0"]  # no solid line over run 2
    assert re.findall(r'<line class="gap" x1="([^"]*)" y1="([^"]*)" x2="([^"]*)" y2="([^"]*)"', lines["a"]) == [
        ("50.0", "65.0", "100.0", "20.0")]  # but a dashed one
    assert re.findall(r'points="([^"]*)"', lines["b"]) == ["50.0,65.0 75.0,42.5"] and "gap" not in lines["b"]
    assert re.findall(r"<title>(.*?)</title>", lines["a"]) == ["a, run 1: 1.00", "a, run 3: 3.00"]
