"""Each bot's log of a game: what it prints, logs or writes to stderr in its own calls, capped at 64 KB, kept with
the game by seat; shown by ``arena show``, ``arena replay`` and the replay page, and in a league to its own team
and the organiser only. Real games with fixed seeds; a real league played in the sandbox on a loopback port."""

import json
import re
import sys

import pytest
from typer.testing import CliRunner

from arena.cli.main import app
from arena.core.capped_log import LOG_CAP
from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, load_registry
from arena.report.replay_page import build_replay_html
from arena.storage.store import Store
from tests.helpers import write_module
from tests.web_server import LiveServer, new_league, play_games, submit_bots

TALKY = """
    import logging
    import sys

    from arena import Bot

    log = logging.getLogger("talky")


    class Talky(Bot):
        name = "talky"
        games = ("tron",)

        def __init__(self):
            print("built")

        def start(self, info):
            print("start, seat", info.seat)

        def act(self, obs):
            print("move")
            sys.stderr.write("to stderr\\n")
            log.warning("warned")
            moves = obs.safe_moves()
            return moves[0] if moves else "N"

        def finish(self, result):
            print("ranks", result.ranks)
    """
FLOODER = """
    from arena import bot


    @bot(game="tron")
    def flooder(obs, rng):
        \"\"\"Prints 10 MB and a closing script tag on every move.\"\"\"
        print("first words")
        print("x" * (10 << 20))
        print("</script><script>alert(1)</script>")
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """


@pytest.fixture
def bots(tmp_path):
    write_module(tmp_path / "bots", "talky.py", TALKY)
    write_module(tmp_path / "bots", "flooder.py", FLOODER)
    return tmp_path / "bots"


def registry_of(bots):
    return load_registry(PluginConfig(bot_dirs=(str(bots),), use_cwd_bots=False))


def talky_log(turns, seat, ranks):
    return (f"built\nstart, seat {seat}\n" + "move\nto stderr\nWARNING:talky:warned\n" * turns
            + f"ranks {ranks}\n")


def test_an_in_process_bot_s_prints_stderr_and_logging_are_its_seat_s_log_and_nothing_else(bots, capsys):
    before = sys.stdout, sys.stderr
    print("the arena's own words")
    outcome = run_match("tron", ["talky", "wallhugger"], game_map="empty_room", seed=5, registry=registry_of(bots))
    assert (sys.stdout, sys.stderr) == before
    assert outcome.ranks == (1, 1) and outcome.turns == 11
    assert outcome.stderr == {0: talky_log(11, 0, (1, 1))}  # the other seat printed nothing
    assert outcome.record()["stderr"] == {"0": talky_log(11, 0, (1, 1))}
    assert capsys.readouterr().out == "the arena's own words\n"  # nothing of the bot's leaked out


def test_a_bot_printing_ten_megabytes_a_move_keeps_64_kb_and_its_replay_page_shows_it_escaped(bots):
    registry = registry_of(bots)
    outcome = run_match("tron", ["flooder", "talky"], game_map="empty_room", seed=5, registry=registry)
    log = outcome.stderr[0]
    assert log.startswith("first words\nxxx") and log.endswith("x\n</script><script>alert(1)</script>\n")
    dropped = int(re.search(r"\[(\d+) bytes of output dropped here\]", log)[1])
    assert len(log.encode()) - len(f"\n[{dropped} bytes of output dropped here]\n") == LOG_CAP
    assert dropped + LOG_CAP == outcome.turns * (len("first words\n") + (10 << 20) + 1 + 35)
    page = build_replay_html(outcome.record(), registry)
    assert "<script>alert(1)" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'id="log-1"' in page and "Log of player 1 (flooder)" in page and 'id="log-2"' in page


@pytest.mark.slow
def test_isolated_bots_logs_are_stored_and_arena_show_and_replay_print_them(bots, tmp_path):
    db = str(tmp_path / "arena.db")
    runner = CliRunner()
    played = runner.invoke(app, ["tournament", "empty_room", "-b", "talky,wallhugger", "-n", "2", "-w", "1",
                                 "--isolate", "--seed", "3", "--db", db, "--bots-dir", str(bots)])
    assert played.exit_code == 0, played.output
    for game in (0, 1):
        shown = runner.invoke(app, ["show", "1", str(game), "--db", db])
        with Store(db, read_only=True) as store:
            record = store.game(1, game).record
        seat = next(p["seat"] for p in record["players"] if p["bot"] == "talky")
        turns = len(record["turns"])
        expected = (f"built\nstart, seat {seat}\n" + "move\nto stderr\nWARNING:talky:warned\n" * turns
                    + f"ranks {tuple(record['result']['ranks'])}\n")
        assert record["stderr"] == {str(seat): expected}
        assert f"log of player {seat + 1} (talky):\n  built\n  start, seat {seat}\n  move\n" in shown.output
        replayed = runner.invoke(app, ["replay", "1", str(game), "--turn", "0", "--db", db])
        assert replayed.exit_code == 0, replayed.output
        assert f"log of player {seat + 1} (talky):\n  built\n" in replayed.output


ALICE_MARK = "alice-log-Rt93"
BOB_MARK = "bob-log-Hn27"
ALICE = f"""
    import logging

    from arena import bot


    @bot(game="tron")
    def chatty(obs, rng):
        \"\"\"Prints, logs and tries to close the page's script.\"\"\"
        print("{ALICE_MARK} </script><b>bold</b>")
        logging.getLogger("chatty").warning("{ALICE_MARK} logged")
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """
BOB = f"""
    from arena import bot


    @bot(game="tron")
    def quiet(obs, rng):
        \"\"\"A word a move.\"\"\"
        print("{BOB_MARK}")
        moves = obs.safe_moves()
        return max(moves, key=obs.walls_around) if moves else "N"
    """


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("logs")
    setup = new_league(tmp_path)
    submit_bots(setup, tmp_path, bots=(("alice", "chatty.py", ALICE), ("bob", "quiet.py", BOB)))
    play_games(setup.folder, 2)
    live = LiveServer(setup.folder)
    yield setup, live
    live.stop()


def sign_in(live, token):
    live.jar.clear()
    page = live.get("/sign-in").text
    form_token = re.search(r'name="form_token" value="([^"]+)"', page).group(1)
    assert live.post_form("/sign-in", {"token": token, "form_token": form_token}).status == 303


def seat_of(record, bot):
    return next(p["seat"] for p in record["players"] if p["bot"] == bot)


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_league_team_reads_its_own_bots_logs_and_never_another_team_s(league):
    setup, live = league
    games = [0, 1]
    alice_line = f"{ALICE_MARK} </script><b>bold</b>\nWARNING:chatty:{ALICE_MARK} logged\n"
    for game in games:
        full = live.get(f"/api/games/{game}/record", token=setup.organiser).json()
        alice, bob = seat_of(full, "alice/chatty"), seat_of(full, "bob/quiet")
        turns = len(full["turns"])
        assert full["stderr"][str(alice)].startswith(alice_line * min(turns, 1))
        assert full["stderr"][str(bob)].startswith(f"{BOB_MARK}\n")

        mine = live.get(f"/api/games/{game}/record", token=setup.tokens["alice"]).json()
        assert mine["stderr"] == {str(alice): full["stderr"][str(alice)]}
        theirs = live.get(f"/api/games/{game}/record", token=setup.tokens["bob"])
        assert theirs.json()["stderr"] == {str(bob): full["stderr"][str(bob)]} and ALICE_MARK not in theirs.text
        anyone = live.get(f"/api/games/{game}/record")
        assert "stderr" not in anyone.json() and ALICE_MARK not in anyone.text and BOB_MARK not in anyone.text

    team = live.get("/api/team", token=setup.tokens["bob"]).json()
    assert sorted(log["game"] for log in team["logs"]) == games
    assert {log["label"] for log in team["logs"]} == {"bob/quiet"} and ALICE_MARK not in json.dumps(team)
    assert live.get("/api/team").status == 401

    sign_in(live, setup.tokens["alice"])
    page = live.get("/team").text
    assert "Your bots&#39; logs" in page or "Your bots' logs" in page
    assert page.count('class="bot-log"') == 2 and "&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in page
    assert "</script><b>bold" not in page and BOB_MARK not in page
    game_page = live.get("/games/0").text
    assert "&lt;/script&gt;&lt;b&gt;bold" in game_page and BOB_MARK not in game_page

    sign_in(live, setup.tokens["bob"])
    for path in ["/team", "/games/0", "/games/1", "/api/games/0", "/api/games/1/record", "/api/team", "/",
                 "/bots/alice/chatty", "/api/bots/alice/chatty", "/games?bot=alice/chatty"]:
        answer = live.get(path)
        assert answer.status < 500 and ALICE_MARK not in answer.text, path
        assert ALICE_MARK not in live.get(path, token=setup.tokens["bob"]).text, path
    assert BOB_MARK in live.get("/team").text
    live.jar.clear()
    for path in ["/games/0", "/api/games/0", "/api/games/0/record", "/team"]:
        assert ALICE_MARK not in live.get(path).text and BOB_MARK not in live.get(path).text, path
