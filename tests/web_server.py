"""A league's web server for tests: a real uvicorn server on a free loopback port, in a thread, and a small HTTP
client (the standard library's, with a cookie jar like a browser's)."""

import http.cookiejar
import json
import shutil
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

import uvicorn

from arena.league.facade import League
from arena.league.ladder_loop import LeagueLadder
from arena.league.web.app import create_app
from arena.league.web.serve import address_of, ladder_running, listen
from arena.play.executor_choice import LOCAL
from tests.helpers import write_module

HUGGER = """
    from arena import bot


    @bot(game="tron")
    def hugger(obs, rng):
        \"\"\"The safe move with the most walls around it.\"\"\"
        moves = obs.safe_moves()
        return max(moves, key=obs.walls_around) if moves else "N"
    """
STRAIGHT = """
    from arena import bot


    @bot(game="tron")
    def straight(obs, rng):
        \"\"\"The first safe move, north first.\"\"\"
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """


@dataclass
class LeagueFolder:
    """A new league and its tokens."""

    folder: object
    organiser: str
    tokens: dict


def new_league(tmp_path, teams=("alice", "bob"), seed=7, maps=("center_block",)):
    """A tron league in ``tmp_path/league`` with ``teams``."""
    folder = tmp_path / "league"
    league, organiser = League.create(folder, "tron", list(maps), seed=seed)
    with league:
        tokens = {team: league.add_team(team) for team in teams}
    return LeagueFolder(folder, organiser, tokens)


def submit_bots(setup, tmp_path, bots=(("alice", "hugger.py", HUGGER), ("bob", "straight.py", STRAIGHT))):
    """Submit each ``(team, file, source)`` through the library; returns the versions."""
    found = []
    with League.open(setup.folder) as league:
        for team, name, source in bots:
            path = write_module(tmp_path / "sources" / team, name, source)
            found.append(league.submit(league.team(team), path))
    return found


_submitted: list[LeagueFolder] = []


def submitted_league(factory, tmp_path):
    """A copy in ``tmp_path/league`` of a :func:`new_league` with alice's hugger and bob's straight submitted
    (:func:`submit_bots`), made once in this test process (each submission is checked in the sandbox)."""
    if not _submitted:
        made = factory.mktemp("web-league")
        setup = new_league(made)
        submit_bots(setup, made)
        _submitted.append(setup)
    setup = _submitted[0]
    return LeagueFolder(shutil.copytree(setup.folder, tmp_path / "league"), setup.organiser, dict(setup.tokens))


def play_games(folder, games):
    """Play ``games`` ranked games of the league with its own ladder, one worker, in this thread."""
    LeagueLadder(folder, LOCAL, workers=1, max_games=games).run()


class Response:
    """An answer: status, headers, body."""

    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self):
        return self.body.decode("utf-8")

    def json(self):
        return json.loads(self.body)


class LiveServer:
    """The league in ``folder`` served on a free loopback port until :meth:`stop`; with ``ladder``, its ladder
    plays (one worker)."""

    def __init__(self, folder, ladder=False):
        app = create_app(folder, ladder_running(folder, LOCAL, 1)) if ladder else create_app(folder)
        self.socket = listen("127.0.0.1", 0)
        self.url = address_of(self.socket)
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        started = threading.Event()
        while not self.server.started and self.thread.is_alive():
            started.wait(0.02)
        assert self.server.started, "the server did not start"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())

    def stop(self):
        self.server.should_exit = True
        self.thread.join(60)
        self.socket.close()

    def request(self, method, path, body=None, headers=None, token=None):
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=120) as answer:
                return Response(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.headers, exc.read())

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post_form(self, path, fields, **kwargs):
        body = urllib.parse.urlencode(fields).encode()
        return self.request("POST", path, body,
                            headers={"Content-Type": "application/x-www-form-urlencoded", **kwargs.pop("headers", {})},
                            **kwargs)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are answers to look at, not to follow."""

    def redirect_request(self, *args, **kwargs):
        return None
