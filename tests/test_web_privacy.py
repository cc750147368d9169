"""A failing bot's traceback, exception message and stderr are its team's (and the organiser's): every page and
API route shows anyone else only the failure's kind and a short reason. A real league, played in the sandbox,
served on a loopback port."""

import re

import pytest

from arena.league.web.privacy import short_failure
from tests.web_server import LiveServer, new_league, play_games, submit_bots

SOURCE_MARK = "source-mark-Kp37"
MESSAGE_MARK = "message-mark-Wv52"
STDERR_MARK = "stderr-mark-Qz81"
ALICE_MARK = "alice-stderr-Mx46"
CRASHER = f"""
    import sys

    from arena import bot


    @bot(game="tron")
    def crasher(obs, rng):
        \"\"\"Says something on stderr, then raises.\"\"\"
        print("{STDERR_MARK}", file=sys.stderr, flush=True)
        raise RuntimeError("{MESSAGE_MARK}")  # {SOURCE_MARK}
    """
TALKER = f"""
    import sys

    from arena import bot


    @bot(game="tron")
    def talker(obs, rng):
        \"\"\"The first safe move, and a word on stderr.\"\"\"
        print("{ALICE_MARK}", file=sys.stderr, flush=True)
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """
BOB_SECRETS = (SOURCE_MARK, MESSAGE_MARK, STDERR_MARK, "crasher.py", "arena-stored", "Traceback", "line 11")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("privacy")
    setup = new_league(tmp_path)
    submit_bots(setup, tmp_path, bots=(("alice", "talker.py", TALKER), ("bob", "crasher.py", CRASHER)))
    play_games(setup.folder, 2)
    live = LiveServer(setup.folder)
    yield setup, live
    live.stop()


def every_get(live):
    """Every GET route of the application, its path parameters filled with each game and bot of the league."""
    games = [g["id"] for g in live.get("/api/games").json()["games"]]
    bots = [("alice", "talker"), ("bob", "crasher")]
    paths = []
    app = live.server.config.app.app  # inside the body limit
    routes = [inner for route in app.routes
              for inner in (route.original_router.routes if hasattr(route, "original_router") else [route])]
    for route in routes:
        if "GET" not in (getattr(route, "methods", None) or ()):
            continue
        if "{game_id}" in route.path:
            paths += [route.path.replace("{game_id}", str(game)) for game in games]
        elif "{team}" in route.path:
            paths += [route.path.replace("{team}", team).replace("{bot}", bot) for team, bot in bots]
        else:
            paths.append(route.path)
    return [*paths, "/games?bot=bob/crasher", "/api/games?bot=bob/crasher&limit=500",
            "/api/bots/bob/crasher?games=500"]


def sign_in(live, token):
    live.jar.clear()
    page = live.get("/sign-in").text
    form_token = re.search(r'name="form_token" value="([^"]+)"', page).group(1)
    assert live.post_form("/sign-in", {"token": token, "form_token": form_token}).status == 303


def crash_seat(record):
    return next(p["seat"] for p in record["players"] if p["bot"] == "bob/crasher")


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_no_route_shows_a_failure_beyond_its_kind_and_short_reason_to_anyone_but_its_team(played):
    setup, live = played
    paths = every_get(live)
    assert {"/", "/games/0", "/games/1", "/api/games/0/record", "/api/games/1", "/bots/bob/crasher", "/api/team",
            "/openapi.json", "/team", "/organiser", "/final"} <= set(paths)
    readers = [("anyone", {}), ("alice's token", {"token": setup.tokens["alice"]})]
    for name, options in readers:
        for path in paths:
            answer = live.get(path, **options)
            assert answer.status < 500, (name, path, answer.status)
            leaked = [mark for mark in BOB_SECRETS if mark in answer.text]
            assert not leaked, (name, path, leaked)
    sign_in(live, setup.tokens["alice"])
    for path in paths:
        text = live.get(path).text
        assert not [mark for mark in BOB_SECRETS if mark in text], ("alice's session", path)
    live.jar.clear()

    record = live.get("/api/games/0/record").json()
    seat = crash_seat(record)
    assert record["failures"] == [{"seat": seat, "kind": "crash", "detail": "raised RuntimeError on move 1"}]
    assert record["result"]["reason"] == f"player {seat + 1} (bob/crasher) raised RuntimeError on move 1"
    assert "stderr" not in record
    game = live.get("/api/games/0").json()
    assert game["reason"] == record["result"]["reason"] and "stderr" not in game
    listed = live.get("/api/games").json()["games"]
    assert {g["reason"] for g in listed} == {"player 1 (bob/crasher) crashed", "player 2 (bob/crasher) crashed"}


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_team_reads_its_own_bots_failures_in_full_and_the_organiser_reads_all(played):
    setup, live = played
    for game in (0, 1):
        own = live.get(f"/api/games/{game}/record", token=setup.tokens["bob"])
        assert own.headers["Cache-Control"] == "private, no-store"
        record = own.json()
        seat = crash_seat(record)
        (failure,) = record["failures"]
        assert failure["detail"].startswith(f"raised RuntimeError on move 1: {MESSAGE_MARK} (")
        assert SOURCE_MARK in failure["traceback"] and MESSAGE_MARK in record["result"]["reason"]
        assert record["stderr"] == {str(seat): f"{STDERR_MARK}\n"}  # not alice's

        theirs = live.get(f"/api/games/{game}/record", token=setup.tokens["alice"]).json()
        assert theirs["stderr"] == {str(1 - seat): f"{ALICE_MARK}\n"}
        assert not [mark for mark in BOB_SECRETS if mark in str(theirs)]

        everything = live.get(f"/api/games/{game}/record", token=setup.organiser).json()
        assert everything["stderr"] == {str(seat): f"{STDERR_MARK}\n", str(1 - seat): f"{ALICE_MARK}\n"}
        assert everything["failures"] == record["failures"]

    assert live.get("/api/games/0/record", token="team_wrong").status == 401
    sign_in(live, setup.tokens["bob"])
    page = live.get("/games/0")
    assert page.headers["Cache-Control"] == "private, no-store"
    assert SOURCE_MARK in page.text and STDERR_MARK in page.text and ALICE_MARK not in page.text
    assert MESSAGE_MARK in live.get("/api/games/0/record").json()["result"]["reason"]  # the session counts too
    assert SOURCE_MARK in live.get("/team").text
    live.jar.clear()


@pytest.mark.parametrize(("kind", "detail", "short"), [
    ("crash", "raised KeyError on move 3: 'nope' (/tmp/arena-stored-0/bob/bot.py:4, in act)",
     "raised KeyError on move 3"),
    ("crash", "raised ValueError in start(): x = secret()  # a line (bot.py:9, in start)",
     "raised ValueError in start()"),
    ("crash", "raised SyntaxError: invalid syntax (bot.py, line 4)", "raised SyntaxError"),
    ("crash", "raised a b c: d", "crashed"),
    ("crash", "exited (exit code 1) on move 12", "crashed on move 12"),
    ("crash", "could not start 'python3' in /tmp/arena-x/bob (No such file or directory) on move 1",
     "crashed on move 1"),
    ("crash", "its build failed: gcc: bot.c:4: error", "crashed"),
    ("timeout", "was still thinking on move 5 after 1.20 s (the time limit and its grace), and was stopped",
     "ran out of time on move 5"),
    ("illegal", "returned '/etc/passwd' on move 2, which is not a legal action", "made an illegal move on move 2"),
    ("memory", "ran out of memory in start() (MemoryError)", "ran out of memory in start()"),
    ("other", "anything at all", "failed"),
])
def test_a_short_reason_keeps_the_kind_the_exception_type_and_where_and_nothing_else(kind, detail, short):
    assert short_failure(kind, detail) == short
