"""The league's pages in a real headless Chromium, against a real server with its ladder playing: sign in, submit
through the form, see the build, watch games appear, open a replay, and the bot's rating chart, with no script
error and nothing fetched from another site."""

import pytest

from tests.helpers import write_module
from tests.web_server import HUGGER, STRAIGHT, LiveServer, new_league, submit_bots


@pytest.mark.slow
def test_a_team_submits_in_the_browser_and_follows_its_bot(tmp_path, browser_page):
    league = new_league(tmp_path)
    submit_bots(league, tmp_path, bots=[("bob", "straight.py", STRAIGHT)])
    path = write_module(tmp_path / "mine", "hugger.py", HUGGER)
    server = LiveServer(league.folder, ladder=True)
    page, errors, requests = browser_page, [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("request", lambda request: requests.append(request.url))
    try:
        page.goto(server.url + "/")
        page.click("text=Sign in")
        page.fill("input[name=token]", league.tokens["alice"])
        page.click("button:has-text('Sign in')")
        assert page.locator("h1").inner_text() == "Team alice"

        page.set_input_files("input[name=file]", str(path))
        page.click("button:has-text('Submit')")
        assert page.locator("p.notice").inner_text().startswith("hugger v1 (")
        assert "built" in page.locator("p.notice").inner_text()
        submission = page.locator("details.submission").first
        assert submission.locator(".status").inner_text() == "ready"
        assert submission.locator("pre.log").count() == 1

        page.click("nav >> text=Games")
        # the feed reloads itself as games finish: wait for the first one with alice's bot
        page.wait_for_selector("table.games >> text=alice/hugger", timeout=180_000)
        page.locator("table.games td a[href^='/games/']").first.click()
        page.wait_for_selector("#viewer canvas")
        total = int(page.locator("#turn").inner_text().rsplit("/", 1)[1])
        assert page.locator("#turn").inner_text() == f"turn 0 / {total}" and total > 0
        page.keyboard.press("End")
        assert page.locator("#turn").inner_text() == f"turn {total} / {total}"
        assert page.locator("a:has-text('Download the record')").count() == 1

        page.goto(server.url + "/bots/alice/hugger")
        # attached, not visible: mu after all draws is a flat line, which has no height for the browser
        page.wait_for_selector("svg.chart polyline.series", state="attached")
        assert page.locator("svg.chart").first.is_visible()
        assert page.locator("svg.chart polyline.series").first.get_attribute("data-bot") == "v1"
        page.goto(server.url + "/")
        assert page.locator("table.leaderboard a[href='/bots/alice/hugger']").inner_text() == "hugger"
        assert page.locator("table.leaderboard svg.sparkline").count() == 2
    finally:
        server.stop()
    assert errors == []
    assert all(url.startswith(server.url) or url.startswith("data:") for url in requests), requests
