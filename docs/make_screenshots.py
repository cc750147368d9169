"""Make the README's screenshots of the HTML replay viewer: docs/replay-tron.png and docs/replay-catmouse.png.

Run from the repository: ``python docs/make_screenshots.py`` (needs the playwright package and Chromium at
/usr/bin/chromium, or set CHROMIUM). Each game is played with shipped bots and a fixed seed, written as a
replay page and photographed part-way through.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from arena.play.referee import play
from arena.plugins.registry import PluginConfig, load_registry
from arena.report.replay_page import build_replay_html
from arena.tournament.single_game import single_game

DOCS = Path(__file__).resolve().parent
SHOTS = {  # file: (bots, map, options, seed, the turn shown, or None for the last)
    "replay-tron.png": (["floodfill", "chaser"], "powerup_room", {}, 3, 22),
    "replay-catmouse.png": (["greedy", "wary"], "catmouse_barn", {}, 3, 12),
}


def main() -> None:
    """Play each game, write its page, and save a screenshot of the page at the chosen turn."""
    registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        for name, (bots, map_spec, options, seed, turn) in SHOTS.items():
            _, _, setup = single_game(bots, registry, map_spec=map_spec, options=options, seed=seed, time_limit=5.0)
            record = play(setup, registry).record(setup)
            path = Path(scratch) / f"{name}.html"
            path.write_text(build_replay_html(record, registry), encoding="utf-8")
            page.goto(path.as_uri() + ("" if turn is None else f"#t={turn}"))
            page.screenshot(path=str(DOCS / name), full_page=True)
            print(f"{DOCS / name}: {record['game']} on {map_spec}, turn {turn} of {len(record['turns'])}")
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
