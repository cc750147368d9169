"""The league's pages say clearly what happened: failures grouped, failure counts on the leaderboard, disabled
bots kept, mu drawn in its band, the deadline on every page, bot files named by team, bot and version; and
every page has its API twin. A real league, played in the sandbox, served on a loopback port."""

import json
import re
from datetime import UTC, datetime

import pytest

from arena.league.facade import League
from arena.league.web.client import Upload, multipart_body
from arena.league.web.page_routes import BROWSER_ONLY, FORM_API, PAGE_API
from arena.league.web.rendering import time_left
from tests.test_web_privacy import CRASHER, TALKER
from tests.web_server import LiveServer, new_league, play_games, submit_bots

BROKEN = ("from arena import bot\n\n@bot(game='tron')\ndef broken(obs, rng):\n    return 'N'\n\n"
          "raise RuntimeError('no luck')\n")
CRASH = "raised RuntimeError on move 1"
CRASH_DETAIL = f"{CRASH}: message-mark-Wv52 (bob/crasher v1 crasher.py:11, in crasher)"


def form_token(page):
    return re.search(r'name="form_token" value="([^"]+)"', page).group(1)


def sign_in(live, token):
    live.jar.clear()
    page = live.get("/sign-in").text
    assert live.post_form("/sign-in", {"token": token, "form_token": form_token(page)}).status == 303


def post_json(live, path, body, **options):
    return live.request("POST", path, json.dumps(body).encode(), headers={"Content-Type": "application/json"},
                        **options)


def played_league(tmp_path, games):
    """alice's talker and bob's crasher submitted, ``games`` games played, the league served."""
    setup = new_league(tmp_path)
    submit_bots(setup, tmp_path, bots=(("alice", "talker.py", TALKER), ("bob", "crasher.py", CRASHER)))
    play_games(setup.folder, games)
    return setup, LiveServer(setup.folder)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The league the tests only read (a test that changes it has a league of its own)."""
    setup, live = played_league(tmp_path_factory.mktemp("pages"), 3)
    yield setup, live
    live.stop()


@pytest.fixture
def own_league(tmp_path):
    setup, live = played_league(tmp_path, 1)
    yield setup, live
    live.stop()


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_team_reads_its_failures_once_per_kind_and_message_and_never_another_team_s(played):
    setup, live = played
    bob = live.get("/api/team", token=setup.tokens["bob"]).json()
    assert [{k: v for k, v in f.items() if k not in ("traceback", "stderr")} for f in bob["failures"]] == [
        {"label": "bob/crasher", "number": 1, "kind": "crash", "detail": CRASH_DETAIL, "count": 3, "first_game": 0,
         "last_game": 2}]
    assert 'File "bob/crasher v1 crasher.py", line 11' in bob["failures"][0]["traceback"]
    assert live.get("/api/team", token=setup.tokens["alice"]).json()["failures"] == []
    sign_in(live, setup.tokens["bob"])
    page = live.get("/team").text
    assert page.count('<pre class="traceback">') == 1
    assert page.count('<tr class="failure-group">') == 1
    assert "arena-unpacked" not in page and "/tmp/" not in page
    assert (f'<td class="name">{CRASH_DETAIL}</td><td>3</td>\n<td><a href="/games/0">#0</a></td>'
            '<td><a href="/games/2">#2</a></td>') in page
    live.jar.clear()


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_teams_game_page_and_record_name_its_files_by_team_bot_and_version(played):
    setup, live = played
    record = live.get("/api/games/0/record", token=setup.tokens["bob"]).json()
    crash = next(f for f in record["failures"] if f["kind"] == "crash")
    assert crash["detail"] == CRASH_DETAIL
    assert 'File "bob/crasher v1 crasher.py", line 11' in crash["traceback"]
    sign_in(live, setup.tokens["bob"])
    page = live.get("/games/0").text
    assert "bob/crasher v1 crasher.py" in page
    for shown in (page, str(record), str(live.get("/api/games/0", token=setup.tokens["bob"]).json())):
        assert "arena-unpacked" not in shown and "arena-bots-" not in shown
    live.jar.clear()


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_the_leaderboard_counts_failures_and_the_bot_page_draws_mu_in_its_band(played):
    _, live = played
    rows = live.get("/api/leaderboard").json()["rows"]
    assert [(r["label"], r["crashes"], r["timeouts"], r["illegal"]) for r in rows] == [
        ("alice/talker", 0, 0, 0), ("bob/crasher", 3, 0, 0)]
    page = live.get("/").text
    assert '<td class="crashes">3</td><td class="timeouts">0</td><td class="illegal">0</td>' in page
    assert "a new bot's rating rises as it plays, even while it loses" in page
    bot = live.get("/api/bots/bob/crasher").json()
    history = bot["versions"][0]["history"]
    assert len(history) == 3
    assert all(p["high"] == pytest.approx(p["mu"] + 3 * p["sigma"]) for p in history)
    page = live.get("/bots/bob/crasher").text
    assert page.count('<polygon class="band"') == 1
    assert "mu after each rated game, in a band of mu \u00b1 3 sigma" in page
    assert "The leaderboard ranks by the band's lower edge" in page


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_challenge_from_the_api_checks_who_asks_as_the_page_does(played):
    setup, live = played
    ask = {"bot": "talker", "opponent": "bob/crasher", "games": 2}
    live.jar.clear()
    assert post_json(live, "/api/challenges", ask).status == 401
    assert post_json(live, "/api/challenges", ask, token=setup.organiser).status == 403
    assert post_json(live, "/api/challenges", ask, token=setup.tokens["bob"]).status == 400  # not bob's bot
    answer = post_json(live, "/api/challenges", ask, token=setup.tokens["alice"])
    assert answer.status == 201
    assert {k: v for k, v in answer.json().items() if k != "games"} == {"team": "alice", "bot": "talker",
                                                                        "opponent": "bob/crasher"}
    assert len(answer.json()["games"]) == 2
    sign_in(live, setup.tokens["alice"])
    assert post_json(live, "/api/challenges", ask).status == 403  # a cookie alone, as another site could send
    assert post_json(live, "/api/challenges", {**ask, "form_token": "forged"}).status == 403
    token = form_token(live.get("/team").text)
    assert post_json(live, "/api/challenges", {**ask, "form_token": token}).status == 201
    live.jar.clear()
    with League.open(setup.folder) as league:
        assert [entry.kind for entry in league.queue()].count("challenge") == 4


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_build_log_names_the_file_by_team_bot_and_version_and_the_dropdowns_pick_the_bot_that_plays(played):
    setup, live = played
    body, content_type = multipart_body(Upload("broken.py", BROKEN.encode()))
    answer = live.request("POST", "/api/submissions", body, headers={"Content-Type": content_type},
                          token=setup.tokens["alice"])
    assert answer.status == 201, answer.text
    assert answer.json()["build_log"] == "alice/broken v1 broken.py: RuntimeError: no luck; skipped"
    sign_in(live, setup.tokens["alice"])
    page = live.get("/team").text
    assert "arena-upload" not in page and "/tmp/" not in page
    assert page.count("<option selected>talker</option>") == 2  # the bot that plays, in both forms
    assert '<option value="1" selected>talker v1 (plays)</option>' in page
    live.jar.clear()


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_the_organiser_disables_from_a_list_and_the_team_stays_listed_unranked(own_league):
    setup, live = own_league
    sign_in(live, setup.organiser)
    page = live.get("/organiser").text
    assert '<option value="bob/crasher/1">bob/crasher v1 (ready, plays)</option>' in page
    assert '<input name="bot"' not in page
    wrong = live.post_form("/organiser/disable", {"version": "bob/crasher", "form_token": form_token(page)})
    assert wrong.status == 400 and "pick a version from the list (team/bot/number)" in wrong.text
    done = live.post_form("/organiser/disable", {"version": "bob/crasher/1", "form_token": form_token(page)})
    assert done.status == 303 and "bob/crasher%20v1%20is%20disabled" in done.headers["Location"]
    live.jar.clear()
    board = live.get("/api/leaderboard").json()
    assert [r["label"] for r in board["rows"]] == ["alice/talker"]
    assert board["disabled"] == [{"team": "bob", "bot": "crasher", "label": "bob/crasher", "number": 1,
                                  "status": "disabled", "url": "/bots/bob/crasher"}]
    page = live.get("/").text
    assert '<tr class="disabled">\n<td>-</td>\n<td class="name"><a href="/bots/bob/crasher">crasher</a></td>' in page
    versions = live.get("/api/organiser", token=setup.organiser).json()["versions"]
    assert ("bob/crasher/1", "disabled") in [(v["value"], v["status"]) for v in versions]


def app_routes(live):
    app = live.server.config.app.app  # inside the body limit
    routes = [inner for route in app.routes
              for inner in (route.original_router.routes if hasattr(route, "original_router") else [route])]
    return {(method, route.path) for route in routes for method in (getattr(route, "methods", None) or ())}


def test_every_page_and_team_form_has_its_api_route_and_openapi_lists_it(tmp_path):
    setup = new_league(tmp_path)
    live = LiveServer(setup.folder)
    try:
        routes = app_routes(live)
        pages = {path for method, path in routes if method == "GET" and not path.startswith(("/api/", "/static"))
                 and path not in ("/openapi.json", "/favicon.ico")}
        assert pages == set(PAGE_API)  # a new page needs its line in PAGE_API, and an API route
        forms = {path for method, path in routes if method == "POST" and not path.startswith("/api/")}
        assert forms == set(FORM_API) | set(BROWSER_ONLY)
        documented = live.get("/openapi.json").json()["paths"]
        for method, path in [*PAGE_API.values(), *FORM_API.values()]:
            assert (method, path) in routes, path
            assert path == "/openapi.json" or method.lower() in documented[path], path
        listed = live.get("/api").text
        for path in ("/api/challenges", "/api/team/active", "/api/organiser", "/api/team"):
            assert f"<code>{path}</code>" in listed or path in listed
        organiser = live.get("/api/organiser", token=setup.organiser).json()
        assert organiser == {"paused": False, "teams": ["alice", "bob"], "versions": [], "maps": ["center_block.txt"],
                             "deadline": None, "final_started": False, "queue": [], "workers": None}
        assert live.get("/api/organiser", token=setup.tokens["alice"]).status == 403
    finally:
        live.stop()


def test_every_page_shows_the_deadline_and_a_countdown_that_works_without_script(tmp_path):
    setup = new_league(tmp_path)
    live = LiveServer(setup.folder)
    try:
        assert "deadline-banner" not in live.get("/").text
        with League.open(setup.folder) as league:
            league.start_final("2099-01-02T03:04")
        for path in ("/", "/games", "/sign-in", "/api"):
            page = live.get(path).text
            assert ('<aside class="deadline-banner" role="status">Submissions close and the final begins at '
                    '<time datetime="2099-01-02T03:04:00+00:00">2099-01-02 03:04 UTC</time>: '
                    '<span class="countdown" data-deadline="2099-01-02T03:04:00+00:00">') in page, path
            left = re.search(r'<span class="countdown"[^>]*>([^<]+)</span> left\.</aside>', page).group(1)
            assert re.fullmatch(r"\d+ days( \d+ h)?( \d+ min)?", left), left
            assert "<script src" not in page
        assert live.get("/api/organiser", token=setup.organiser).json()["deadline"] == "2099-01-02T03:04:00+00:00"
    finally:
        live.stop()
    assert datetime(2099, 1, 2, 3, 4, tzinfo=UTC) > datetime.now(UTC)


@pytest.mark.parametrize(("seconds", "words"), [(0, "under a minute"), (59, "under a minute"), (60, "1 min"),
                                                 (3660, "1 h 1 min"), (86400, "1 day"),
                                                 (2 * 86400 + 3 * 3600 + 5 * 60 + 7, "2 days 3 h 5 min")])
def test_time_left_is_said_to_the_minute(seconds, words):
    assert time_left(seconds) == words
