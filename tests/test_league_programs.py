"""Program bots in a league, as the ladder plays them: a C bot, a node bot and a Python program speaking
arena-json, submitted by several teams, play every game with no failure charged to them, whether the arena runs
as root (as CI does) or not; a program that crashes loses its own games and its team's page shows the end of its
stderr. The versions' files are unpacked where no other user can read them and are gone once the ladder stops."""

import os
import shutil
import stat
from pathlib import Path

import pytest

from arena.league.facade import League
from arena.league.ladder_loop import LeagueLadder
from arena.league.web import data
from arena.play.executor_choice import LOCAL
from arena.plugins.stored_roots import base_folder
from tests.helpers import REPO, write_module
from tests.test_web_sessions import sign_in
from tests.web_server import LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.needs("bwrap", "gcc", "node")]

EXAMPLES = REPO / "examples" / "bots"
GAMES = 8
WELL_BEHAVED = ("alice", "bob", "carol", "eve")

PYTHON_PROGRAM = """
    \"\"\"Tron over arena-json: the first legal move onto a free cell.\"\"\"
    import json
    import sys

    DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            answer = {"type": "ready"}
        elif message["type"] == "turn":
            obs = message["observation"]
            x, y = obs["heads"][obs["seat"]]
            free = [m for m in message["legal"] if obs["rows"][y + DELTA[m][1]][x + DELTA[m][0]] == "."]
            answer = {"action": (free or message["legal"])[0]}
        else:
            break
        print(json.dumps(answer), flush=True)
    """
CRASHER = """
    \"\"\"Says ready, then on its first move fills its stderr and gives up.\"\"\"
    import sys

    for line in sys.stdin:
        if '"start"' in line:
            print('{"type": "ready"}', flush=True)
            continue
        for number in range(2000):
            sys.stderr.write(f"thinking, step {number:05d} of a long plan that goes nowhere at all\\n")
        sys.stderr.write("dave-bot: gave up, no plan for this board\\n")
        sys.exit(3)
    """


def manifest(folder, name, command):
    write_module(folder, "arena-bot.toml", f'name = "{name}"\ngames = ["tron"]\ncommand = {command}\n')


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A league of four teams' program bots and a Python module after its ladder (two worker processes)
    played GAMES games, all under a umask that lets no one else read what is made; the root the versions were
    unpacked in, as the ladder left it after its last game."""
    tmp = tmp_path_factory.mktemp("programs")
    umask = os.umask(0o077)
    try:
        return play_league(tmp)
    finally:
        os.umask(umask)


def play_league(tmp):
    folder = tmp / "league"
    league, organiser = League.create(folder, "tron", ["center_block", "empty_room"], seed=5)
    with league:
        tokens = {team: league.add_team(team) for team in (*WELL_BEHAVED, "dave")}
        teams = {team: league.authenticate(token) for team, token in tokens.items()}
        c_bot = Path(shutil.copytree(EXAMPLES / "aic2010-c", tmp / "c", ignore=shutil.ignore_patterns("bot")))
        node_bot = Path(shutil.copytree(EXAMPLES / "floodfill-js", tmp / "node"))
        python_program = tmp / "python"
        manifest(python_program, "steady", '["python3", "play.py"]')
        write_module(python_program, "play.py", PYTHON_PROGRAM)
        crasher = tmp / "crasher"
        manifest(crasher, "quitter", '["python3", "play.py"]')
        write_module(crasher, "play.py", CRASHER)
        module = write_module(tmp / "module", "hugger.py", (REPO / "bots" / "wallhugger.py").read_text())
        paths = (c_bot, node_bot, python_program, module, crasher)
        for team, path in zip((*WELL_BEHAVED, "dave"), paths, strict=True):
            version = league.submit(teams[team], path)
            kind = "python" if path == module else "program"
            assert (version.kind, version.status, version.active) == (kind, "ready", True), version
    roots = set()

    def seen(_index):
        roots.update(path.parent for path in base_folder().glob("run-*/alice_aic2010-c-*"))
        if len(roots) == 1:  # after every game: a version is unpacked when a game first needs it
            root = next(iter(roots))
            state["modes"] = {path.relative_to(root).as_posix(): stat.S_IMODE(path.stat().st_mode)
                              for path in (root, *root.glob("*_*-*"), *root.glob("*_*-*/*"))}

    state = {}
    ladder = LeagueLadder(folder, LOCAL, workers=2, max_games=GAMES, on_game=seen)
    ladder.run()
    assert ladder.error is None and ladder.games_played == GAMES
    return {"folder": folder, "tokens": tokens, "organiser": organiser, "roots": roots, "modes": state["modes"]}


def test_every_game_is_played_and_only_the_crashing_program_is_charged_with_failures(played):
    with League.open(played["folder"]) as league:
        games = league.games(limit=1000)
        assert sorted(game.id for game in games) == list(range(GAMES))
        played_by = {seat.team for game in games for seat in game.seats}
        assert played_by == {*WELL_BEHAVED, "dave"}
        for game in games:
            charged = {seat.team: seat.failure for seat in game.seats if seat.failure}
            expected = {"dave": "crash"} if any(seat.team == "dave" for seat in game.seats) else {}
            assert charged == expected, (game.id, game.reason)
            for failure in league.game_record(game.id).get("failures", []):
                assert failure["detail"] == "exited (exit status 3) on move 1", failure


def test_the_crash_and_the_end_of_its_stderr_are_on_the_team_s_own_page(played):
    with League.open(played["folder"]) as league:
        found = data.failures(league, league.team("dave"))
        assert found and {(f["label"], f["kind"]) for f in found} == {("dave/quitter", "crash")}
        for failure in found:
            assert failure["stderr"].startswith("thinking, step 00000 of a long plan")
            assert failure["stderr"].endswith("thinking, step 01999 of a long plan that goes nowhere at all\n"
                                              "dave-bot: gave up, no plan for this board\n")
            assert "bytes of stderr dropped here]" in failure["stderr"]
            assert len(failure["stderr"].encode()) < 66_000
    server = LiveServer(played["folder"])
    try:
        sign_in(server, played["tokens"]["dave"])
        page = server.get("/team").text
        assert "dave-bot: gave up, no plan for this board" in page and "Failures in your recent games" in page
    finally:
        server.stop()


def test_the_unpacked_versions_are_private_readable_by_the_sandbox_and_removed_when_the_ladder_stops(played):
    assert len(played["roots"]) == 1  # one root for the ladder and both its workers
    (root,) = played["roots"]
    modes = played["modes"]
    assert modes["."] == 0o700  # no other local user reaches the teams' files
    folders = {name: mode for name, mode in modes.items() if name != "." and "/" not in name}
    assert sorted(name.split("-")[0] for name in folders) == ["alice_aic2010", "bob_floodfill", "carol_steady",
                                                              "dave_quitter", "eve_wallhugger"]
    assert set(folders.values()) == {0o755}
    files = {name.split("/", 1)[1]: mode for name, mode in modes.items() if "/" in name
             and name.startswith(("alice", "dave"))}
    assert (files["bot.c"], files["bot"], files["play.py"]) == (0o644, 0o755, 0o644)
    assert not root.exists()
