"""The league's web server, for real on a loopback port: ``arena submit`` over HTTP, the JSON API, the pages,
and bad requests answered with a clear 4xx (never a 500 or a traceback)."""

import http.client
import io
import re
import zipfile

import pytest

from arena.cli.main import app
from arena.league.web.client import Upload, multipart_body
from tests.cli_runner import CliRunner
from tests.helpers import write_module
from tests.web_server import HUGGER, STRAIGHT, LiveServer, Response, new_league, play_games, submitted_league

runner = CliRunner()


@pytest.fixture
def league(tmp_path):
    return new_league(tmp_path)


@pytest.fixture
def server(league):
    live = LiveServer(league.folder)
    yield live
    live.stop()


def test_arena_submit_uploads_a_bot_and_prints_its_new_version(tmp_path, league, server, monkeypatch):
    path = write_module(tmp_path, "hugger.py", HUGGER)
    first = runner.invoke(app, ["submit", str(path), "--server", server.url, "--token", league.tokens["alice"]])
    assert first.exit_code == 0, first.output
    line = first.stdout.strip()
    assert re.fullmatch(r"alice/hugger v1 [0-9a-f]{8}", line)

    monkeypatch.setenv("ARENA_TOKEN", league.tokens["alice"])
    again = runner.invoke(app, ["submit", str(path), "--server", server.url])  # the same source: the same version
    assert again.exit_code == 0 and again.stdout.strip() == line
    write_module(tmp_path, "hugger.py", HUGGER.replace("most walls", "most walls, again"))
    second = runner.invoke(app, ["submit", str(path), "--server", server.url + "/"])
    assert second.exit_code == 0 and second.stdout.startswith("alice/hugger v2 ")

    team = server.get("/api/team", token=league.tokens["alice"]).json()
    assert [(v["bot"], v["number"], v["status"], v["active"]) for v in team["versions"]] == [
        ("hugger", 2, "ready", True), ("hugger", 1, "ready", False)]
    board = server.get("/api/leaderboard").json()
    assert [(row["label"], row["number"]) for row in board["rows"]] == [("alice/hugger", 2)]


def test_arena_submit_says_in_one_line_why_it_failed(tmp_path, league, server):
    path = write_module(tmp_path, "hugger.py", HUGGER)
    cases = [
        (["--server", server.url, "--token", "team_wrong"], "the server refused it (401): the token is not one of "
                                                             "this league's"),
        (["--server", server.url, "--token", league.organiser], "the server refused it (403): this needs a team's "
                                                                 "token, not the organiser's"),
        (["--server", server.url], "no token: pass --token or set ARENA_TOKEN"),
        (["--server", "ftp://x", "--token", "t"], "'ftp://x' is not a server address"),
        (["--server", "http://127.0.0.1:9", "--token", "t"], "cannot reach http://127.0.0.1:9/api/submissions"),
    ]
    for options, message in cases:
        result = runner.invoke(app, ["submit", str(path), *options])
        assert result.exit_code != 0 and message in result.stderr, (options, result.output)
        assert result.stdout == "" and "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1
    folder = tmp_path / "nomanifest"
    folder.mkdir()
    result = runner.invoke(app, ["submit", str(folder), "--server", server.url, "--token", league.tokens["bob"]])
    assert result.exit_code != 0 and "has no arena-bot.toml" in result.stderr
    assert server.get("/api/team", token=league.tokens["alice"]).json()["versions"] == []


def test_a_bot_that_fails_to_load_is_kept_with_its_log_and_arena_submit_exits_non_zero(tmp_path, league, server):
    path = write_module(tmp_path, "broken.py", "from arena import bot\n\n@bot(game='tron')\ndef broken(obs, rng):\n"
                                               "    return 'N'\n\nraise RuntimeError('no luck')\n")
    result = runner.invoke(app, ["submit", str(path), "--server", server.url, "--token", league.tokens["bob"]])
    if result.exit_code == 2:  # refused outright: the league could not even name the bot
        assert "no luck" in result.stderr
        return
    assert result.exit_code == 1 and "did not build" in result.stderr and "no luck" in result.stderr


@pytest.mark.slow
def test_the_api_and_the_pages_show_the_games_played(tmp_path_factory, tmp_path):
    league = submitted_league(tmp_path_factory, tmp_path)
    play_games(league.folder, 4)
    server = LiveServer(league.folder)
    try:
        board = server.get("/api/leaderboard").json()
        assert sorted(row["label"] for row in board["rows"]) == ["alice/hugger", "bob/straight"]
        for row in board["rows"]:
            assert row["games"] == 4 and row["wins"] + row["draws"] + row["losses"] == 4
            assert row["rating"] == pytest.approx(row["mu"] - 3 * row["sigma"])
        assert board["rows"][0]["rating"] >= board["rows"][1]["rating"]

        feed = server.get("/api/games?limit=3").json()["games"]
        assert len(feed) == 3 and [g["id"] for g in feed] == sorted((g["id"] for g in feed), reverse=True)
        everything = server.get("/api/games?bot=alice/hugger&limit=500").json()["games"]
        assert len(everything) == 4 and all("alice/hugger" in [s["label"] for s in g["seats"]] for g in everything)

        newest = feed[0]
        assert server.get(f"/api/games/{newest['id']}").json() == newest
        record = server.get(newest["record_url"])
        assert record.headers["Content-Disposition"] == f'attachment; filename="game-{newest["id"]}.json"'
        assert record.json()["format"] == "arena-record/1" and record.json()["game"] == "tron"

        bot = server.get("/api/bots/alice/hugger").json()
        (version,) = bot["versions"]
        assert version["games"] == 4 and len(version["history"]) == 4 and "build_log" not in version
        assert version["history"][-1]["mu"] == pytest.approx(version["mu"])
        (h2h,) = bot["head_to_head"]
        assert h2h["label"] == "bob/straight" and h2h["games"] == 4 and h2h["low"] <= h2h["score"] <= h2h["high"]

        page = server.get("/", headers={"Accept": "text/html"}).text
        assert 'href="/bots/alice/hugger"' in page and page.count('class="sparkline"') == 2
        assert '<meta http-equiv="refresh"' in page
        bot_page = server.get("/bots/alice/hugger").text
        assert bot_page.count('<polyline class="series" data-bot="v1"') == 1 and "bob/straight" in bot_page
        game_page = server.get(f"/games/{newest['id']}").text
        assert 'id="replay-data"' in game_page and '<script src="/static/replay_viewer.js">' in game_page
        assert "//" not in re.sub(r'(href|src)="/[^/]', "", " ".join(re.findall(r'(?:href|src)="[^"]*"', game_page)))
        games_page = server.get("/games?bot=alice/hugger").text
        assert games_page.count('<td><a href="/games/') == 4
    finally:
        server.stop()


def test_the_openapi_document_lists_every_api_route(server):
    document = server.get("/openapi.json").json()
    assert {"/api/leaderboard", "/api/bots/{team}/{bot}", "/api/games", "/api/games/{game_id}",
            "/api/submissions"} <= set(document["paths"])
    assert "post" in document["paths"]["/api/submissions"]
    assert server.get("/docs").status == 404  # FastAPI's own pages would load scripts from a CDN
    assert "/api/submissions" in server.get("/api").text


def upload(server, token, filename, data):
    body, content_type = multipart_body(Upload(filename, data))
    return server.request("POST", "/api/submissions", body, headers={"Content-Type": content_type}, token=token)


def declared_only(server, token, length):
    """A submission that says it is ``length`` bytes long and sends nothing: answered before its body is read."""
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    connection.putrequest("POST", "/api/submissions")
    connection.putheader("Authorization", f"Bearer {token}")
    connection.putheader("Content-Type", "multipart/form-data; boundary=x")
    connection.putheader("Content-Length", str(length))
    connection.endheaders()
    answer = connection.getresponse()
    try:
        return Response(answer.status, answer.headers, answer.read())
    finally:
        connection.close()


def test_bad_requests_get_a_4xx_with_a_reason(tmp_path, league, server):
    alice = league.tokens["alice"]
    evil = io.BytesIO()
    with zipfile.ZipFile(evil, "w") as archive:
        archive.writestr("../../evil.py", "x")
    cases = [
        (server.get("/api/games/12345"), 404, "no finished game 12345 in this league"),
        (server.get("/api/games/abc"), 422, "path parameter 'game_id': Input should be a valid integer"),
        (server.get("/api/games?limit=0"), 422, "query parameter 'limit': Input should be greater than or equal"),
        (server.get("/api/games?bot=nobody/nothing"), 404, "nobody"),
        (server.get("/api/bots/alice/nothing"), 404, "team alice has no bot 'nothing'"),
        (server.get("/api/team"), 401, "this needs a token"),
        (server.get("/api/organiser", token=alice), 403, "this needs the organiser's token"),
        (server.get("/api/nothing"), 404, "Not Found"),
        (upload(server, None, "bot.py", b"pass"), 401, "this needs a token"),
        (upload(server, alice, "bot.exe", b"MZ"), 400, "'bot.exe' is neither a .py file nor a folder"),
        (upload(server, alice, "evil.zip", evil.getvalue()), 400, "climbs out of the folder with '..'"),
        (upload(server, alice, "big.py", b"#" * (2**20 + 10)), 413, "the upload is larger than 1,048,576 bytes"),
        (declared_only(server, alice, 2**21), 413, "the request is larger than 1,114,112 bytes"),
        (server.request("POST", "/api/submissions", b"garbage", headers={"Content-Type": "text/plain"}, token=alice),
         422, "file"),
    ]
    for answer, status, reason in cases:
        assert answer.status == status, (answer.status, answer.text)
        assert reason in answer.json()["detail"], answer.text
    page = server.get("/games/999", headers={"Accept": "text/html"})
    assert page.status == 404 and "no finished game 999" in page.text and "Traceback" not in page.text
    assert server.get("/api/team", token=alice).json()["versions"] == []


def test_a_team_sees_only_its_own_logs(tmp_path_factory, tmp_path):
    league = submitted_league(tmp_path_factory, tmp_path)
    server = LiveServer(league.folder)
    try:
        alice = server.get("/api/team", token=league.tokens["alice"]).json()
        assert alice["team"] == "alice" and [v["bot"] for v in alice["versions"]] == ["hugger"]
        assert "build_log" in alice["versions"][0]
        public = server.get("/api/bots/bob/straight").json()
        assert all("build_log" not in v for v in public["versions"])
        assert STRAIGHT.strip()[:20] not in server.get("/bots/bob/straight").text
    finally:
        server.stop()
