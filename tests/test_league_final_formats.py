"""The league's final in its formats, played for real: a double elimination of 3 and of 5 bots with 4 games a
pairing (exact results from the league's seed), the round robin's games spread over seats and maps, the table's
tiebreak column, and a bracket final killed mid-wave that resumes without replaying or repeating a game."""

import os
import re
import sqlite3
import subprocess
import sys

import pytest

from arena.core.errors import ArenaError
from arena.league.facade import FINAL, League
from tests.league_helpers import built_leagues, copy_of, kill_when, play_final
from tests.web_server import LiveServer

MAPS_FILES = ("center_block.txt", "empty_room.txt")

pytestmark = [pytest.mark.needs("bwrap"), pytest.mark.slow]  # every game is played in the sandbox


def bracket(league):
    found = league.final_bracket()
    return [(m["id"], m["a"] if not isinstance(m["a"], dict) else m["a"]["label"],
             m["b"] if not isinstance(m["b"], dict) else m["b"]["label"], m["status"], m["score_a"], m["score_b"],
             m["winner"]["label"] if m["winner"] else None, m["decided_by"], len(m["games"]))
            for m in found["matches"]]


def finals(league):
    return sorted((g.id, tuple(s.label for s in g.seats), tuple(s.rank for s in g.seats))
                  for g in league.games(kind=FINAL, limit=1000))


@pytest.fixture
def three(tmp_path_factory, tmp_path):
    """The played league (alice/wallhugger, bob/random, bob/floodfill after 16 ranked games), paused."""
    league = League.open(copy_of(built_leagues(tmp_path_factory).played, tmp_path / "copy"))
    league.pause()
    yield league
    league.close()


EXPECTED = [  # seeds by the ladder: floodfill 1, wallhugger 2, random 3; the top seed has a bye
    ("W1-1", "bob/floodfill", "bye", "bye", None, None, "bob/floodfill", None, 0),
    ("W1-2", "alice/wallhugger", "bob/random", "decided", 3.0, 1.0, "alice/wallhugger", "score", 4),
    ("W2-1", "bob/floodfill", "alice/wallhugger", "decided", 2.5, 1.5, "bob/floodfill", "score", 4),
    ("L1-1", "bye", "bob/random", "bye", None, None, "bob/random", None, 0),
    ("L2-1", "bob/random", "alice/wallhugger", "decided", 1.0, 3.0, "alice/wallhugger", "score", 4),
    ("GF", "bob/floodfill", "alice/wallhugger", "decided", 3.0, 1.0, "bob/floodfill", "score", 4),
    ("GF2", None, None, "not needed", None, None, None, None, 0),
]
TABLE = [(1, "bob/floodfill", 1, "bracket"), (2, "alice/wallhugger", 2, "bracket"), (3, "bob/random", 3, "")]


def table(league):
    return [(r["rank"], r["label"], r["seed"], r["tiebreak"]) for r in league.final_table_rows()]


def test_three_bots_double_elimination_four_games_a_pairing(three):
    league = three
    assert league.start_final(games=4, fmt="double-elimination") == 4  # the first wave: W1-2 alone
    play_final(league)
    assert bracket(league) == EXPECTED
    assert table(league) == TABLE
    assert league.final_bracket()["champion"]["label"] == "bob/floodfill"
    assert len(finals(league)) == 16


def test_a_round_robin_spreads_each_pairing_over_seat_orders_and_maps(three):
    league = three
    assert league.start_final(games=3) == 3 * 3
    rows = league.conn.execute("SELECT versions, map FROM league_queue WHERE kind = 'final' ORDER BY idx").fetchall()
    pairings = [rows[i:i + 3] for i in range(0, 9, 3)]
    for number, games in enumerate(pairings):
        first = games[0][0]
        assert [v == first for v, _ in games] == [True, False, True]  # seat orders in turn
        assert [m for _, m in games] == [MAPS_FILES[number % 2]] * 2 + [MAPS_FILES[(number + 1) % 2]]
    with pytest.raises(ArenaError, match="the final has been played or queued already"):
        league.start_final()


@pytest.mark.parametrize(("games", "fmt", "message"), [
    (0, "round-robin", "a final plays 1 to 100 games a pairing, not 0"),
    (4, "swiss", "final format 'swiss': expected one of round-robin, single-elimination, double-elimination"),
])
def test_a_bad_final_is_refused_and_nothing_is_queued(three, games, fmt, message):
    with pytest.raises(ArenaError, match=message):
        three.start_final(games=games, fmt=fmt)
    assert not three.final_started() and three.waiting((FINAL,)) == []


def stored_finals(folder):
    conn = sqlite3.connect(f"file:{folder / 'arena.db'}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM games WHERE run_id = (SELECT value FROM league_state "
                            "WHERE key = 'final_run')").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def test_a_bracket_final_killed_mid_wave_resumes_without_replaying_or_repeating_a_game(tmp_path_factory, tmp_path):
    folder = copy_of(built_leagues(tmp_path_factory).played, tmp_path / "victim")
    with League.open(folder) as league:
        league.pause()
        league.start_final(games=4, fmt="double-elimination")
    env = {k: v for k, v in os.environ.items() if k not in ("ARENA_BOTS_PATH", "ARENA_DB")}
    victim = subprocess.Popen([sys.executable, "-m", "arena", "league", "run", str(folder), "--workers", "1"],
                              cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    kill_when(victim, lambda: stored_finals(folder) >= 6)  # into the second wave (W2-1)
    with League.open(folder) as league:
        before = finals(league)
        assert 6 <= len(before) < 16
        play_final(league)
        after = finals(league)
        assert after[:len(before)] == before  # every game stored before the kill, unchanged
        queued = [row[0] for row in league.conn.execute("SELECT idx FROM league_queue WHERE kind = 'final' "
                                                        "ORDER BY idx")]
        assert [game_id for game_id, *_ in after] == queued and len(queued) == 16  # none lost, none twice
        assert bracket(league) == EXPECTED and table(league) == TABLE  # as the final never killed

    server = LiveServer(folder)  # a server started afterwards shows the final from the database alone
    try:
        final = server.get("/api/final").json()
        assert (final["format"], final["games_per_pairing"], final["waiting"]) == ("double-elimination", 4, 0)
        assert [(r["rank"], r["label"], r["seed"], r["tiebreak"]) for r in final["table"]] == TABLE
        assert [m["id"] for m in final["bracket"]["matches"]] == [m[0] for m in EXPECTED]
        page = server.get("/final/bracket").text
        assert sorted(int(i) for i in re.findall(r'<a href="/games/(\d+)"', page)) == queued  # every game linked
        assert "Champion: <b>bob/floodfill</b>" in page
        urls = re.findall(r'(?:href|src)="([^"#]+)"', page)
        assert all(url.startswith("/") and not url.startswith("//") for url in urls)  # nothing from another site
        assert "<th>tiebreak</th>" in server.get("/final").text and 'href="/final/bracket"' in server.get("/final").text
    finally:
        server.stop()


def test_a_league_made_before_bracket_finals_gets_their_table_when_opened(three):
    folder = three.folder
    three.conn.execute("DROP TABLE league_final_matches")
    three.conn.execute("UPDATE league_meta SET value = '1' WHERE key = 'schema_version'")
    three.close()
    with League.open(folder) as league:
        assert league.conn.execute("SELECT value FROM league_meta WHERE key = 'schema_version'").fetchone() == ("3",)
        assert league.start_final(games=2, fmt="single-elimination") == 2  # 1 has a bye; 2 v 3 plays
        assert [m["status"] for m in league.final_bracket()["matches"]] == ["bye", "playing", "pending"]
