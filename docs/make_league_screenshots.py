"""Make the league page's screenshots: docs/league-leaderboard.png (and league-leaderboard-dark.png in the dark
colour scheme, league-leaderboard-phone.png at a phone's width), docs/league-bot.png, docs/league-game.png,
docs/league-team.png and docs/league-bracket.png.

Run from the repository: ``python docs/make_league_screenshots.py`` (needs the league extra, the playwright
package, bubblewrap, and Chromium at /usr/bin/chromium, or set CHROMIUM). It makes a league of four teams
with a fixed seed, plays its first games with the league's own ladder and a double-elimination final of 2 games
a pairing, serves it on a free loopback port and photographs the pages, as ``docs/make_screenshots.py`` does the
replay viewer.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from arena.league.facade import FINAL, League
from arena.league.ladder_loop import LeagueLadder
from arena.league.web.app import create_app
from arena.league.web.serve import address_of, listen
from arena.play.executor_choice import LOCAL

DOCS = Path(__file__).resolve().parent
BOTS = Path(__file__).resolve().parent.parent / "bots"
TEAMS = {"alice": "wallhugger.py", "bob": "chaser.py", "carol": "floodfill.py", "dan": "random_bot.py"}
GAMES = 120
FINAL_GAMES = 2
SHOTS = ("league-leaderboard.png", "league-leaderboard-dark.png", "league-leaderboard-phone.png", "league-bot.png",
         "league-game.png", "league-team.png", "league-bracket.png")


def main() -> None:
    """Make the league, play it, serve it and photograph its pages."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "league"
        league, _ = League.create(folder, "tron", ["center_block", "empty_room"], seed=11)
        with league:
            tokens = {team: league.add_team(team) for team in TEAMS}
            for team, module in TEAMS.items():
                league.submit(league.team(team), BOTS / module)
        LeagueLadder(folder, LOCAL, workers=2, max_games=GAMES).run()
        play_final(folder)
        sock = listen("127.0.0.1", 0)
        server = uvicorn.Server(uvicorn.Config(create_app(folder), log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            threading.Event().wait(0.05)
        base = address_of(sock)
        try:
            shoot(base, tokens["alice"])
        finally:
            server.should_exit = True
            thread.join()


def play_final(folder: Path) -> None:
    """Pause ranked play and play a double-elimination final, wave by wave, with the league's own ladder."""
    with League.open(folder) as league:
        league.pause()
        league.start_final(games=FINAL_GAMES, fmt="double-elimination")
    while True:
        with League.open(folder) as league:
            league.advance_final()
            waiting = len(league.waiting((FINAL,)))
        if not waiting:
            return
        LeagueLadder(folder, LOCAL, workers=2, max_games=waiting).run()


def shoot(base: str, token: str) -> None:
    """Photograph the leaderboard (light, dark, a phone's width), a bot, a game at its end, a team's page and the
    final's bracket."""
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        dark = browser.new_page(viewport={"width": 1100, "height": 700}, color_scheme="dark")
        dark.goto(base + "/")
        dark.screenshot(path=str(DOCS / "league-leaderboard-dark.png"), full_page=True)
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                 color_scheme="light")
        phone.goto(base + "/")
        phone.screenshot(path=str(DOCS / "league-leaderboard-phone.png"))
        page = browser.new_page(viewport={"width": 1100, "height": 700}, color_scheme="light")
        page.goto(base + "/final/bracket")
        page.screenshot(path=str(DOCS / "league-bracket.png"), full_page=True)
        page.goto(base + "/")
        page.screenshot(path=str(DOCS / "league-leaderboard.png"), full_page=True)
        bot = page.locator("table.leaderboard td.name a").first
        bot.click()
        page.screenshot(path=str(DOCS / "league-bot.png"), clip={"x": 0, "y": 0, "width": 1100, "height": 900})
        page.locator("table.games td a[href^='/games/']").first.click()
        page.wait_for_selector("#viewer canvas")
        page.keyboard.press("End")
        page.screenshot(path=str(DOCS / "league-game.png"), full_page=True)
        page.goto(base + "/sign-in")
        page.fill("input[name=token]", token)
        page.click("button:has-text('Sign in')")
        page.screenshot(path=str(DOCS / "league-team.png"), clip={"x": 0, "y": 0, "width": 1100, "height": 700})
        browser.close()
    for name in SHOTS:
        print(DOCS / name)


if __name__ == "__main__":
    sys.exit(main())
