"""A class of five teams, start to finish, as the league guide tells a teacher to run it: a roster added with
``arena league add-teams``, a bot from each team (one through the browser's form, the rest through the API),
a few ladder games, each team reading its own bot's log and nobody else's, a double-elimination final of 4 games
a pairing, its bracket in the browser with every game linked, and its table exported as CSV with a tiebreak
column; the leaderboard on a phone in dark mode. A real server on a loopback port, real Chromium, every game played
in the sandbox on a tiny map."""

import csv
import io
import re

import pytest

from arena.cli.main import app
from arena.league.facade import FINAL, League
from tests.cli_runner import CliRunner
from tests.helpers import write_module
from tests.league_helpers import play_final
from tests.web_server import HUGGER, STRAIGHT, LiveServer, play_games

pytestmark = [pytest.mark.needs("bwrap"), pytest.mark.slow]  # every build and game runs in the sandbox

runner = CliRunner()

TINY = """; title = Tiny
#######
#1....#
#.....#
#.....#
#....2#
#######
"""
"""A 5 x 4 room: a game is over in a few moves."""

MARKER = "marker-7f3c: only team dana may read this"
CHATTY = f"""
    import sys

    from arena import bot


    @bot(game="tron")
    def chatty(obs, rng):
        \"\"\"The last safe move; says so on stderr.\"\"\"
        print({MARKER!r}, file=sys.stderr)
        moves = obs.safe_moves()
        return moves[-1] if moves else "N"
    """
RANDOM = """
    from arena import bot


    @bot(game="tron")
    def dice(obs, rng):
        \"\"\"A random safe move (the game's seed decides).\"\"\"
        moves = obs.safe_moves()
        return rng.choice(moves) if moves else "N"
    """
LOOSE = """
    from arena import bot


    @bot(game="tron")
    def loose(obs, rng):
        \"\"\"The safe move with the fewest walls around it.\"\"\"
        moves = obs.safe_moves()
        return min(moves, key=obs.walls_around) if moves else "N"
    """
ROSTER = [("ana", "ana@school.example"), ("ben", "ben@school.example"), ("cleo", "cleo@school.example"),
          ("dana", "dana@school.example"), ("eli", "eli@school.example")]
BOTS = {"ana": ("hugger.py", HUGGER), "ben": ("straight.py", STRAIGHT), "cleo": ("dice.py", RANDOM),
        "dana": ("chatty.py", CHATTY), "eli": ("loose.py", LOOSE)}
LADDER_GAMES = 6


def cli(*args):
    result = runner.invoke(app, [*map(str, args)])
    assert result.exit_code == 0, result.output
    return result


def sign_in(context, url, token):
    page = context.new_page()
    page.goto(url + "/sign-in")
    page.fill("input[name=token]", token)
    page.click("button:has-text('Sign in')")
    return page


@pytest.fixture
def chromium(_browser):
    """The test process's headless Chromium: each team browses in a context of its own."""
    return _browser


def test_a_class_of_five_submits_reads_its_own_logs_and_plays_a_double_elimination_final(tmp_path, chromium):
    folder, tiny = tmp_path / "league", tmp_path / "tiny.txt"
    tiny.write_text(TINY)
    cli("league", "new", folder, "--game", "tron", "--map", tiny, "--seed", 5)
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\n" + "".join(f"{name},{mail}\n" for name, mail in ROSTER))
    cli("league", "add-teams", folder, roster, "--tokens", tmp_path / "tokens.csv")
    with (tmp_path / "tokens.csv").open(newline="") as handle:
        tokens = {row["name"]: row["token"] for row in csv.DictReader(handle)}
    assert sorted(tokens) == [name for name, _ in ROSTER]

    server = LiveServer(folder)
    contexts = []
    try:
        # ana submits through the form; the others through the API with their tokens
        ana = chromium.new_context()
        contexts.append(ana)
        page = sign_in(ana, server.url, tokens["ana"])
        assert page.locator("h1").inner_text() == "Team ana"
        page.set_input_files("input[name=file]", str(write_module(tmp_path / "ana", *BOTS["ana"])))
        page.click("button:has-text('Submit')")
        assert page.locator("details.submission .status").first.inner_text() == "ready"
        for team in ("ben", "cleo", "dana", "eli"):
            name, source = BOTS[team]
            path = write_module(tmp_path / team, name, source)
            answer = ana.request.post(server.url + "/api/submissions",
                                      headers={"Authorization": f"Bearer {tokens[team]}"},
                                      multipart={"file": {"name": name, "mimeType": "text/x-python",
                                                          "buffer": path.read_bytes()}})
            assert answer.status == 201, answer.text()
            assert answer.json()["status"] == "ready"

        play_games(folder, LADDER_GAMES)
        with League.open(folder) as league:
            games = league.games(limit=100)
            assert len(games) == LADDER_GAMES
            chatty = [g for g in games if "dana/chatty" in {s.label for s in g.seats}]
        assert chatty, "dana's bot played none of the ladder's games"
        game = chatty[0]
        rival = next(s.label.split("/")[0] for s in game.seats if s.label != "dana/chatty")

        dana = chromium.new_context()
        contexts.append(dana)
        page = sign_in(dana, server.url, tokens["dana"])
        assert MARKER in page.locator("details.bot-log pre.log").first.text_content()  # a closed <details>
        page.goto(f"{server.url}/games/{game.id}")
        logs = page.locator("div.failure pre.log")
        assert MARKER in "\n".join(logs.all_inner_texts())

        other = chromium.new_context()
        contexts.append(other)
        page = sign_in(other, server.url, tokens[rival])
        assert page.locator("h1").inner_text() == f"Team {rival}"
        for path in ("/team", f"/games/{game.id}", "/games", "/", "/bots/dana/chatty", f"/bots/{BOTS_LABEL[rival]}"):
            page.goto(server.url + path)
            assert MARKER not in page.content(), path
        for path in (f"/api/games/{game.id}/record", "/api/team", f"/api/games/{game.id}", "/api/games"):
            answer = other.request.get(server.url + path, headers={"Authorization": f"Bearer {tokens[rival]}"})
            assert answer.status == 200 and MARKER not in answer.text(), path

        # the organiser's final: a double elimination, 4 games a pairing, played to its end
        cli("league", "pause", folder)
        started = cli("league", "final", folder, "--format", "double-elimination", "--games", 4)
        assert started.stderr.startswith("the final (double-elimination) is queued: ")
        with League.open(folder) as league:
            play_final(league)
            final_ids = sorted(g.id for g in league.games(kind=FINAL, limit=1000))
            champion = league.final_bracket()["champion"]["label"]
        assert len(final_ids) == 32  # 8 matches of 4 games: no bracket reset

        page.goto(server.url + "/final/bracket")
        assert page.locator("p.notice").inner_text() == f"Champion: {champion}"
        linked = page.locator(".bracket-games a")
        hrefs = [linked.nth(i).get_attribute("href") for i in range(linked.count())]
        assert sorted(int(re.fullmatch(r"/games/(\d+)", h).group(1)) for h in hrefs) == final_ids
        assert page.locator(".bracket-games a.unplayed").count() == 0
        page.locator(".bracket-games a").first.click()
        assert page.locator("h1").first.inner_text().startswith(f"Game {min(final_ids)} (final")

        table = cli("league", "final-table", folder, "-f", "csv").stdout
        served = other.request.get(server.url + "/api/final?format=csv")
        assert served.status == 200 and served.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(table)))
        assert list(csv.DictReader(io.StringIO(served.text()))) == rows
        assert "tiebreak" in rows[0]
        assert champion == "eli/loose"
        assert [(r["rank"], f'{r["team"]}/{r["bot"]}', r["seed"], r["points"], r["games"],
                 f'{r["wins"]}-{r["draws"]}-{r["losses"]}', r["tiebreak"]) for r in rows] == FINAL_TABLE

        # on a phone, in the dark: the page never scrolls sideways, the leaderboard scrolls in its own box
        phone = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, color_scheme="dark")
        contexts.append(phone)
        page = phone.new_page()
        page.goto(server.url + "/")
        assert page.evaluate("document.documentElement.scrollWidth") == 390
        assert page.evaluate("(t => t.scrollWidth > t.clientWidth)(document.querySelector('table.leaderboard'))")
        assert all(box["x"] >= 0 and box["x"] + box["width"] <= 390
                   for box in map(lambda link: link.bounding_box(), page.locator("nav.site a").all()))
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 19, 24)"
        badges = page.locator("table.leaderboard tbody td:first-child")
        assert [badges.nth(i).evaluate("c => getComputedStyle(c).backgroundImage.startsWith('radial-gradient')")
                for i in range(badges.count())] == [True, True, True, False, False]
    finally:
        for context in contexts:
            context.close()
        server.stop()


BOTS_LABEL = {team: f"{team}/{name.removesuffix('.py')}" for team, (name, _) in BOTS.items()}
FINAL_TABLE = [  # by how far each got in the bracket (the tiebreak column says so), then by seed
    ("1", "eli/loose", "1", "10.5", "12", "9-3-0", "bracket"),
    ("2", "ben/straight", "3", "8.5", "20", "8-1-11", "bracket"),
    ("3", "cleo/dice", "2", "4.0", "12", "3-2-7", "bracket"),
    ("4", "dana/chatty", "4", "5.0", "12", "4-2-6", "bracket"),
    ("5", "ana/hugger", "5", "4.0", "8", "4-0-4", ""),
]
