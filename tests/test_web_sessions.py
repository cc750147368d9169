"""Browser sign-in and forms: a session cookie after one sign-in, every form checked for its form token, and a
revoked token ending its sessions; ``arena serve`` as a user runs it."""

import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest

from arena.league.facade import League
from arena.league.web.sessions import SESSION_COOKIE
from tests.web_server import HUGGER, LiveServer, new_league, submit_bots, submitted_league


@pytest.fixture
def league(tmp_path):
    return new_league(tmp_path)


@pytest.fixture
def server(league):
    live = LiveServer(league.folder)
    yield live
    live.stop()


def form_token(page):
    return re.search(r'name="form_token" value="([^"]+)"', page).group(1)


def sign_in(server, token):
    page = server.get("/sign-in").text
    return server.post_form("/sign-in", {"token": token, "form_token": form_token(page)})


def cookies(server):
    return {cookie.name: cookie.value for cookie in server.jar}


def test_signing_in_once_opens_the_team_page_until_signing_out(league, server):
    assert server.get("/team").status == 303  # to /sign-in
    answer = sign_in(server, league.tokens["alice"])
    assert answer.status == 303 and answer.headers["Location"] == "/team"
    assert SESSION_COOKIE in cookies(server)
    assert "HttpOnly" in answer.headers["Set-Cookie"] and "SameSite=lax" in answer.headers["Set-Cookie"]
    page = server.get("/team")
    assert page.status == 200 and "<h1>Team alice</h1>" in page.text
    assert league.tokens["alice"] not in page.text  # the token is never shown again

    signed_out = server.post_form("/sign-out", {"form_token": form_token(page.text)})
    assert signed_out.status == 303 and server.get("/team").status == 303


def test_a_wrong_token_is_refused_and_opens_no_session(league, server):
    answer = sign_in(server, "team_not_a_token")
    assert answer.status == 401 and "not one of this league" in answer.text
    assert SESSION_COOKIE not in cookies(server)


def test_forms_without_their_form_token_change_nothing(tmp_path, league, server):
    assert server.post_form("/sign-in", {"token": league.tokens["alice"]}).status == 403
    assert server.post_form("/sign-in", {"token": league.tokens["alice"], "form_token": "guess"}).status == 403
    assert SESSION_COOKIE not in cookies(server)

    sign_in(server, league.tokens["alice"])
    refused = server.post_form("/team/challenge", {"bot": "x", "opponent": "bob/y", "games": "2",
                                                   "form_token": "from-another-site"})
    assert refused.status == 403 and "came from another site" in refused.json()["detail"]
    organiser_form = server.post_form("/organiser/add-team", {"team": "mallory", "form_token": "x"})
    assert organiser_form.status == 401  # alice is not the organiser
    with League.open(league.folder) as opened:
        assert [team.name for team in opened.teams()] == ["alice", "bob"]


def test_the_organiser_adds_a_team_from_the_page_and_revoking_a_token_ends_its_sessions(league, server):
    alice = LiveServer.__new__(LiveServer)  # a second browser on the same server
    alice.__dict__.update(server.__dict__)
    import http.cookiejar

    from tests.web_server import _NoRedirect
    alice.jar = http.cookiejar.CookieJar()
    alice.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(alice.jar), _NoRedirect())
    sign_in(alice, league.tokens["alice"])
    assert alice.get("/team").status == 200

    assert sign_in(server, league.organiser).headers["Location"] == "/organiser"
    page = server.get("/organiser").text
    added = server.post_form("/organiser/add-team", {"team": "carol", "form_token": form_token(page)})
    assert added.status == 200
    token = re.search(r'<code id="new-token">([^<]+)</code>', added.text).group(1)
    assert server.get("/api/team", token=token).json() == {"team": "carol", "versions": [], "failures": [], "logs": []}

    revoked = server.post_form("/organiser/revoke", {"team": "alice", "form_token": form_token(page)})
    assert revoked.status == 303
    assert alice.get("/team").status == 303  # signed out: the token it signed in with no longer works


@pytest.mark.slow
def test_arena_serve_listens_answers_and_stops_on_ctrl_c(league):
    process = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(league.folder), "--port", "0",
                                "--workers", "1"], stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = process.stderr.readline()
        url = re.search(r"serving .* at (http://127\.0\.0\.1:\d+) \(Ctrl-C stops\)", line).group(1)
        with urllib.request.urlopen(url + "/api/leaderboard", timeout=60) as answer:
            assert answer.status == 200 and b'"rows":[]' in answer.read()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130  # the exit status of every interrupted arena command
        assert process.stderr.read() == ""  # no traceback, nothing left to say
        with League.open(league.folder) as opened:
            assert opened.workers().state == "stopped"  # the ladder was stopped, not killed
    finally:
        process.kill()
        process.wait()


def test_arena_serve_says_in_one_line_what_is_wrong(tmp_path, league):
    taken = LiveServer(league.folder)
    try:
        port = taken.url.rsplit(":", 1)[1]
        result = subprocess.run([sys.executable, "-m", "arena", "serve", str(league.folder), "--port", port],
                                capture_output=True, text=True, timeout=120)
    finally:
        taken.stop()
    assert result.returncode == 2 and result.stderr.startswith("error: cannot listen on 127.0.0.1:")
    assert "Address already in use" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    missing = subprocess.run([sys.executable, "-m", "arena", "serve", str(tmp_path / "nowhere")],
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1 and "nowhere" in missing.stderr
    bogus = subprocess.run([sys.executable, "-m", "arena", "serve", str(league.folder), "--executor", "bogus"],
                           capture_output=True, text=True, timeout=120)
    assert bogus.returncode == 2 and bogus.stderr.strip() == "error: unknown executor 'bogus': choose from local, ray"


def test_without_the_league_extra_arena_serve_says_what_to_install(league, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "uvicorn.py").write_text("raise ImportError('uvicorn is not installed')\n")
    result = subprocess.run([sys.executable, "-m", "arena", "serve", str(league.folder)], capture_output=True,
                            text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(blocker)})
    assert result.returncode == 2
    assert result.stderr.strip() == "error: the web server needs the league extra: pip install 'bot-arena[league]'"


@pytest.fixture
def submitted(tmp_path_factory, tmp_path):
    """A copy of a league with alice's hugger and bob's straight submitted."""
    return submitted_league(tmp_path_factory, tmp_path)


def test_a_team_chooses_the_version_that_plays_and_asks_for_a_challenge_from_its_page(tmp_path, submitted):
    league = submitted
    submit_bots(league, tmp_path, bots=[("alice", "hugger.py", HUGGER.replace("most walls", "most walls (2)"))])
    server = LiveServer(league.folder)
    try:
        check_choosing_and_challenging(league, server)
    finally:
        server.stop()


def check_choosing_and_challenging(league, server):
    sign_in(server, league.tokens["alice"])
    page = server.get("/team").text
    assert page.count('<details class="submission ready"') == 2

    chosen = server.post_form("/team/active", {"bot": "hugger", "number": "1", "form_token": form_token(page)})
    assert chosen.status == 303 and "hugger%20v1%20plays%20now" in chosen.headers["Location"]
    with League.open(league.folder) as opened:
        assert [(v.number, v.active) for v in opened.versions("alice", "hugger")] == [(2, False), (1, True)]

    asked = server.post_form("/team/challenge", {"bot": "hugger", "opponent": "bob/straight", "games": "2",
                                                 "form_token": form_token(page)})
    assert asked.status == 303
    notice = server.get(asked.headers["Location"]).text
    assert "2 unrated games of alice/hugger against bob/straight are queued" in notice
    too_many = server.post_form("/team/challenge", {"bot": "hugger", "opponent": "bob/straight", "games": "99",
                                                    "form_token": form_token(page)})
    assert too_many.status == 400 and "a challenge is 1 to 10 games" in too_many.text
    with League.open(league.folder) as opened:
        assert [entry.kind for entry in opened.queue()] == ["challenge", "challenge"]


def test_the_organiser_pauses_resumes_and_replaces_its_own_token_from_its_page(league, server):
    sign_in(server, league.organiser)
    page = server.get("/organiser").text
    assert "Ranked play is <b>running</b>" in page
    assert server.post_form("/organiser/pause", {"form_token": form_token(page)}).status == 303
    assert "Ranked play is <b>paused</b>" in server.get("/organiser").text
    assert server.get("/api/organiser", token=league.organiser).json()["paused"] is True
    assert server.post_form("/organiser/resume", {"form_token": form_token(page)}).status == 303
    assert server.post_form("/organiser/nothing", {"form_token": form_token(page)}).status == 404

    rotated = server.post_form("/organiser/rotate-own", {"form_token": form_token(page)})
    new = re.search(r'<code id="new-token">([^<]+)</code>', rotated.text).group(1)
    assert server.get("/api/organiser", token=new).json()["paused"] is False
    assert server.get("/api/organiser", token=league.organiser).status == 401
    assert server.get("/organiser").status == 303  # the session of the old token has ended
