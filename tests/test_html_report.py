"""The HTML report, checked as rendered by a real headless browser, not as text."""

import json

import pytest

from arena.cli.main import app
from tests.cli_runner import CliRunner

runner = CliRunner()


@pytest.mark.slow
def test_report_renders_standings_heat_map_charts_and_failures(tmp_path, bot_dir, browser_page):
    played = runner.invoke(app, ["tournament", "empty_room", "--bots-dir", str(bot_dir), "-b",
                                 "crasher,steady,random", "-n", "4", "-w", "1", "--time-limit", "0.5", "-f", "json"])
    assert played.exit_code == 0, played.output
    standings = json.loads(played.stdout)["standings"]
    written = runner.invoke(app, ["report", "1", "--html", str(tmp_path / "report.html")])
    assert written.exit_code == 0 and "report written to" in written.stderr

    requests = []
    page = browser_page
    page.on("request", lambda request: requests.append(request.url))
    page.goto((tmp_path / "report.html").as_uri())
    assert requests == [(tmp_path / "report.html").as_uri()]  # self-contained: nothing else is fetched

    title = "empty_room: crasher, steady, random (run 1): tron, round-robin"
    assert page.title() == title
    assert page.locator("h1").inner_text() == title
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 3
    assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(3)] == [r["bot"] for r in standings]

    cells = page.locator("table.heat td.cell")
    assert cells.count() == 6
    colours = cells.evaluate_all("cells => cells.map(c => getComputedStyle(c).backgroundColor)")
    texts = cells.all_inner_texts()
    for colour, text in zip(colours, texts, strict=True):
        red, green, _ = (int(part) for part in colour[colour.index("(") + 1:-1].split(",")[:3])
        score = int(text.split("%")[0])
        assert (green > red) if score > 50 else (red > green) if score < 50 else red == green == 255, (text, colour)
    assert "after Holm's correction" in page.locator("p.legend").nth(1).inner_text()

    charts = page.locator("svg.chart")
    assert charts.count() == 2
    box = charts.first.bounding_box()
    assert box is not None and box["width"] > 500 and box["height"] > 200
    assert charts.first.locator("polyline.series").count() == 3

    failures = page.locator("table.failures tbody tr")
    crashes = next(r for r in standings if r["bot"] == "crasher")["crash"]
    assert crashes > 0 and failures.count() == crashes
    assert failures.first.locator("td").nth(2).inner_text() == "crash"
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert (tmp_path / "report.png").stat().st_size > 10_000
