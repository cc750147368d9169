"""Every query the ladder runs for a game, and every query behind the pages, reads through an index: its cost
does not grow with the games the league has stored.

The queries are not listed by hand: the test records every statement a small league runs while it queues,
hands out, stores and rates games, takes a challenge and serves its pages (SQLite's trace of the league's own
connection), and checks the plan SQLite chooses for each (``EXPLAIN QUERY PLAN``). A new query that walks the
league's history fails it, wherever it is written. The plans do not depend on the rows there are (the league's
database keeps no statistics), so a league of 18 games shows the plans of one of a million.
"""

import contextlib
import re
import sqlite3
from dataclasses import replace

import pytest

from arena.core.failure import Failure
from arena.league import league_schema
from arena.league.facade import PLAN_AHEAD, RANKED, League
from arena.league.web import data
from arena.play.referee import play
from arena.plugins.registry import load_registry
from tests.league_helpers import built_leagues, copy_of

GROWING = {"league_queue", "league_queue_players", "league_played", "league_history", "games"}
"""The tables that grow with every game stored (the others grow with teams and versions, or are the games
waiting now)."""
SINGLE_ROW = {
    "league_queue": {"rowid=?"},
    "league_queue_players": {"version_id=? AND idx=?"},
    "league_played": {"version_id=? AND game_id=?"},
    "league_history": {"version_id=? AND role=? AND idx=?"},
    "games": {"rowid=?", "run_id=? AND idx=?"},
}
"""Each growing table's keys: a search by one reads one row."""
BOUNDED = {
    ("league_queue", "kind=? AND run_id=? AND match=?"): "one match's games",
    ("league_queue", "kind=? AND idx>?"): "the ranked games from the first one not rated yet: the ones in hand",
}
"""Searches of a growing table by part of a key, which read only a few rows whatever the league's history."""
TABLE = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(?!ON\b|WHERE\b|JOIN\b|LEFT\b|INDEXED\b|ORDER\b|GROUP\b|"
                   r"LIMIT\b|USING\b)(\w+))?", re.IGNORECASE)
READS = re.compile(r"^(SCAN|SEARCH) (\w+)(?: USING .*?(?:\((.*)\))?)?$")


def unbounded(sql: str, plan: list[str]) -> list[str]:
    """The lines of ``plan`` (of statement ``sql``) that read a growing table beyond a few rows: a scan or a
    search by part of a key (unless the statement stops at a ``LIMIT`` in the index's order, with no sort of
    its own), or a sort of what it read."""
    tables = {alias or table: table for table, alias in TABLE.findall(sql)}
    tables.update({table: table for table, _ in TABLE.findall(sql)})
    if not any(table in GROWING for table in tables.values()):
        return []
    sorts = any("TEMP B-TREE" in line for line in plan)
    limited = re.search(r"\bLIMIT\b", sql, re.IGNORECASE) is not None and not sorts
    found = []
    for line in plan:
        if "TEMP B-TREE" in line:
            found.append(line)
            continue
        read = READS.match(line)
        if read is None or tables.get(read.group(2)) not in GROWING:
            continue
        table, constraint = tables[read.group(2)], read.group(3)
        if read.group(1) == "SEARCH" and ((constraint is None and "USING" not in line)  # min() or max() of a key
                                          or constraint in SINGLE_ROW[table] or (table, constraint) in BOUNDED):
            continue
        if not limited:
            found.append(line)
    return found


def test_the_rule_flags_walks_through_the_history_and_passes_look_ups():
    assert unbounded("SELECT idx FROM league_queue q WHERE kind IN ('ranked') ORDER BY idx",
                     ["SEARCH q USING INDEX league_queue_kind (kind=?)"]) == [
        "SEARCH q USING INDEX league_queue_kind (kind=?)"]
    assert unbounded("SELECT q.idx FROM games g JOIN league_queue q ON q.idx = g.idx ORDER BY g.id DESC LIMIT 50",
                     ["SCAN g", "SEARCH q USING INTEGER PRIMARY KEY (rowid=?)"]) == []
    assert unbounded("SELECT p.idx FROM league_played p WHERE version_id = 1 ORDER BY kind LIMIT 5",
                     ["SEARCH p USING PRIMARY KEY (version_id=?)", "USE TEMP B-TREE FOR ORDER BY"]) == [
        "SEARCH p USING PRIMARY KEY (version_id=?)", "USE TEMP B-TREE FOR ORDER BY"]
    assert unbounded("SELECT max(id) FROM games", ["SEARCH games"]) == []
    assert unbounded("SELECT * FROM league_ratings", ["SCAN league_ratings"]) == []


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    """A copy of the league that played its first 16 ranked games (alice and bob, three bots)."""
    folder = copy_of(built_leagues(tmp_path_factory).played, tmp_path_factory.mktemp("plans") / "league")
    with League.open(folder) as opened:
        yield opened


def ladder_turn(league: League, failures: dict[int, Failure] | None = None) -> None:
    """One turn of the ladder (:meth:`arena.league.ladder_loop.LeagueLadder._turn`) over two games, played in this
    process (what they cost the database is what matters here, not the sandbox); with ``failures``, each game is
    stored with those seats failed."""
    league.advance_final()
    if not league.waiting((RANKED,)):
        league.schedule_ranked(PLAN_AHEAD)
    batch = league.waiting()[:2]
    league.play_bots(batch)
    registry = load_registry(league.play_config_for(batch))
    for setup in league.setups(batch):
        if setup.index in league.waiting():
            outcome = play(setup, registry)
            league.record_outcome(setup, outcome if failures is None else replace(outcome, failures=failures))


def read_every_page(league: League) -> None:
    """What the pages and the JSON API read (:mod:`arena.league.web.data`), for the first bot and the newest game."""
    league.change_stamp()
    board = data.leaderboard(league)
    data.sparklines(league, board)
    first = board["rows"][0]
    data.bot_page(league, first["team"], first["bot"])
    data.games(league, None, 50)
    data.games(league, first["label"], 50)
    newest = league.games(limit=1)[0].id
    data.game(league, newest)
    data.record(league, newest)
    data.organiser(league)
    league.standings_export()


@pytest.mark.needs("bwrap")  # the league's bots were submitted and its first games played in the sandbox
def test_every_query_of_a_ladder_game_and_of_the_pages_reads_through_an_index(league):
    statements: list[str] = []
    league.conn.set_trace_callback(statements.append)
    try:
        league.challenge(league.team("alice"), "wallhugger", "bob/floodfill", 2)
        ladder_turn(league)
        ladder_turn(league)  # the challenge's games, then ranked ones queued by the matchmaking rule
        read_every_page(league)
        league.failure_counts()
    finally:
        league.conn.set_trace_callback(None)
    checked, offending = set(), {}
    for sql in statements:
        if sql in checked or re.match(r"\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b", sql):
            continue
        checked.add(sql)
        plan = [row[3] for row in league.conn.execute("EXPLAIN QUERY PLAN " + sql)]
        if found := unbounded(sql, plan):
            offending[sql] = found
    assert len(checked) > 50  # the ladder's and the pages' queries were all seen
    assert offending == {}


def test_a_league_made_before_the_waiting_and_played_tables_gets_them_filled_when_opened(tmp_path_factory, tmp_path):
    folder = copy_of(built_leagues(tmp_path_factory).played, tmp_path / "league")
    with League.open(folder) as league:
        ladder_turn(league, {1: Failure("timeout", "no move in time")})  # two ranked games: seat 2 ran out of time
        league.challenge(league.team("alice"), "wallhugger", "bob/floodfill", 2)
        before = (league.waiting(), [g.id for g in league.games("alice/wallhugger", 100)],
                  league.head_to_head("bob", "floodfill"), league.failure_counts(), league.queue())
    with contextlib.closing(sqlite3.connect(folder / "arena.db")) as conn, conn:
        for table in ("league_waiting", "league_played", "league_failures", "league_meetings"):  # as in version 2
            conn.execute(f"DROP TABLE {table}")
        conn.execute("UPDATE league_meta SET value = '2' WHERE key = 'schema_version'")
    with League.open(folder) as league:
        assert league_schema.schema_version(league.conn) == league_schema.LEAGUE_SCHEMA_VERSION == 3
        after = (league.waiting(), [g.id for g in league.games("alice/wallhugger", 100)],
                 league.head_to_head("bob", "floodfill"), league.failure_counts(), league.queue())
        filled = [league.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                  for table in ("league_waiting", "league_played")]
    assert filled == [16, 2 * 18]  # 14 ranked games and the challenge's two wait; 18 played, two versions each
    assert after == before
    assert before[0] == list(range(18, 34))
    assert before[3] == {("alice", "wallhugger", 1): {"timeout": 1}, ("bob", "random", 1): {"timeout": 1}}


def test_opening_a_league_to_read_writes_nothing_and_checks_the_whole_file_only_before_a_write(tmp_path_factory,
                                                                                               monkeypatch):
    folder = copy_of(built_leagues(tmp_path_factory).played, tmp_path_factory.mktemp("opened") / "league")
    statements: list[str] = []
    connect = sqlite3.connect

    def traced(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(sqlite3, "connect", traced)
    with League.open(folder) as league:  # as each of the web server's threads opens it
        read_every_page(league)
        read = list(statements)
        ladder_turn(league)  # the ladder's first write
    whole_file = [sql for sql in statements if re.fullmatch(r"PRAGMA quick_check", sql.strip())]
    checked = {table for sql in read for table in re.findall(r'PRAGMA quick_check\("(\w+)"\)', sql)}
    # opening checks the tables that do not grow with the games (a reader's check of the others took seconds
    # at a million games); the whole file's check runs once, before the first write, never for a reader
    assert "league_teams" in checked and checked & GROWING == set()
    assert [sql for sql in read if sql.startswith("BEGIN") or sql in whole_file] == []
    assert len(whole_file) == 1 and statements.index(whole_file[0]) < statements.index("BEGIN IMMEDIATE")
