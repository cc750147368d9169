"""A class league's roster and grade sheets: ``arena league add-teams`` from a roster CSV (all or nothing, tokens
written to a private CSV for a mail merge), tokens said to be shown once, and the standings and final table
as CSV, JSON and Markdown from the command line and the API, CSV safe to open in a spreadsheet."""

import csv
import io
import json
import sqlite3
import stat

import pytest

from arena.cli.main import app
from arena.league.facade import League
from arena.league.models import Team
from arena.report.row_export import csv_text, md_text, spreadsheet_safe
from tests.cli_runner import CliRunner
from tests.web_server import HUGGER, LiveServer, new_league, play_games, submit_bots

runner = CliRunner()

HOSTILE = ["=HYPERLINK(\"http://evil\",\"x\")", "+SUM(A1:A9)", "-2+3", "@cmd", "\tTAB", "a, b", 'say "hi"',
           "two\nlines", "Zoë 山田 🙂", "-1.5", ""]
"""Roster values a student's form could hold: formulas, separators, quotes, new lines, unicode, a number."""
NEUTRALISED = ["'=HYPERLINK(\"http://evil\",\"x\")", "'+SUM(A1:A9)", "'-2+3", "'@cmd", "'\tTAB", "a, b", 'say "hi"',
               "two\nlines", "Zoë 山田 🙂", "-1.5", ""]


def roster_file(path, header, rows):
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([header, *rows])
    return path


def team_names(folder):
    with sqlite3.connect(folder / "arena.db") as conn:
        return [row[0] for row in conn.execute("SELECT name FROM league_teams ORDER BY id")]


def test_new_add_team_and_rotate_token_say_on_stderr_that_the_token_is_shown_once(tmp_path):
    folder = tmp_path / "league"
    made = runner.invoke(app, ["league", "new", str(folder), "--game", "tron", "--map", "center_block"])
    added = runner.invoke(app, ["league", "add-team", str(folder), "alice"])
    rotated = runner.invoke(app, ["league", "rotate-token", str(folder), "alice"])
    for result, whose in ((made, "the organiser's"), (added, "team alice's"), (rotated, "team alice's new")):
        assert result.exit_code == 0, result.output
        assert result.stdout.count("\n") == 1 and result.stdout.strip().startswith(("org_", "team_"))
        assert result.stderr == f"keep {whose} token: it is shown only now\n"


def test_add_teams_adds_a_roster_and_writes_its_tokens_for_a_mail_merge(tmp_path):
    setup = new_league(tmp_path, teams=("alice",))
    names = [f"t{i}" for i in range(len(HOSTILE))]
    roster = roster_file(tmp_path / "roster.csv", ["Email", " name ", "note"],
                         [[f"{n}@school.example", n, value] for n, value in zip(names, HOSTILE, strict=True)])
    tokens = tmp_path / "tokens.csv"
    result = runner.invoke(app, ["league", "add-teams", str(setup.folder), str(roster), "--tokens", str(tokens)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr == f"added {len(names)} teams; keep {tokens}: their tokens are shown only now\n"
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
    with tokens.open(encoding="utf-8", newline="") as handle:
        written = list(csv.reader(handle))
    assert written[0] == ["name", "token", "Email", "note"]
    assert [row[0] for row in written[1:]] == names
    assert [row[2] for row in written[1:]] == [f"{n}@school.example" for n in names]
    assert [row[3] for row in written[1:]] == NEUTRALISED
    with League.open(setup.folder) as league:
        for number, row in enumerate(written[1:], 2):
            assert league.authenticate(row[1]) == Team(number, row[0])
        kept = league.team_info()
    assert kept == {n: {"Email": f"{n}@school.example", "note": value} for n, value in zip(names, HOSTILE,
                                                                                          strict=True)}
    listed = runner.invoke(app, ["league", "teams", str(setup.folder), "-f", "json"])
    assert json.loads(listed.stdout)[-1] == {"team": "t9", "bots": "", "Email": "t9@school.example", "note": "-1.5"}
    listed_csv = runner.invoke(app, ["league", "teams", str(setup.folder), "-f", "csv"])
    assert list(csv.reader(io.StringIO(listed_csv.stdout)))[2] == ["t0", "", "t0@school.example", NEUTRALISED[0]]


def test_a_roster_of_500_teams_is_added_in_one_go(tmp_path):
    setup = new_league(tmp_path, teams=())
    roster = roster_file(tmp_path / "class.csv", ["name", "student"], [[f"team-{i:03}", f"Student {i}"]
                                                                      for i in range(500)])
    tokens = tmp_path / "tokens.csv"
    result = runner.invoke(app, ["league", "add-teams", str(setup.folder), str(roster), "--tokens", str(tokens)])
    assert result.exit_code == 0, result.output
    assert team_names(setup.folder) == [f"team-{i:03}" for i in range(500)]
    rows = list(csv.DictReader(tokens.open(encoding="utf-8")))
    assert len({row["token"] for row in rows}) == 500 and rows[499]["student"] == "Student 499"


@pytest.mark.parametrize(("content", "message"), [
    (b"team,email\nbob,b@x\n", "the roster has no 'name' column (its columns: 'team', 'email')"),
    (b"name,email\nbob,b@x\n,c@x\n", "roster.csv line 3: the team's name is empty"),
    (b"name\nbob\ncarol\nbob\n", "roster.csv line 4: team 'bob' is on line 2 already"),
    (b"name\nbob\nalice\n", "the league has a team named 'alice' already; no team was added"),
    (b"name\nbob\nno way\n", "roster.csv line 3: team name 'no way': use 1 to 32 letters"),
    ("name\nbob\nZoë\n".encode(), "roster.csv line 3: team name 'Zoë'"),
    (b"name\nbob\n" + b"x" * 33 + b"\n", "roster.csv line 3: team name 'xxx"),
    ("name\nbob\nZo\u00eb\n".encode("latin-1"), "roster.csv: not UTF-8 text (byte 11)"),
    (b"PK\x03\x04\x00\x00name\n", "roster.csv: not a CSV file (it holds NUL bytes)"),
    (b"name,email\nbob,b@x,extra\n", "roster.csv line 2: 3 fields, more than the 2 columns"),
    (b"name,Name\nbob,b\n", "the roster has two columns named 'Name'"),
    (b"", "the roster is empty"),
    (b"name\n\n", "the roster names no team"),
    (b'name\nbob\n"carol\n', "not a valid CSV file"),
])
def test_a_bad_roster_is_one_line_and_adds_no_team(tmp_path, content, message):
    setup = new_league(tmp_path, teams=("alice",))
    roster = tmp_path / "roster.csv"
    roster.write_bytes(content)
    tokens = tmp_path / "tokens.csv"
    result = runner.invoke(app, ["league", "add-teams", str(setup.folder), str(roster), "--tokens", str(tokens)])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert team_names(setup.folder) == ["alice"] and not tokens.exists()


def test_an_existing_tokens_file_is_kept_unless_forced(tmp_path):
    setup = new_league(tmp_path, teams=())
    roster = roster_file(tmp_path / "roster.csv", ["name"], [["bob"]])
    tokens = tmp_path / "tokens.csv"
    tokens.write_text("name,token\ncarol,team_secret\n")
    tokens.chmod(0o644)
    refused = runner.invoke(app, ["league", "add-teams", str(setup.folder), str(roster), "--tokens", str(tokens)])
    assert refused.exit_code == 2 and "tokens.csv: exists already" in refused.stderr
    assert tokens.read_text() == "name,token\ncarol,team_secret\n" and team_names(setup.folder) == []
    forced = runner.invoke(app, ["league", "add-teams", str(setup.folder), str(roster), "--tokens", str(tokens),
                                 "--force"])
    assert forced.exit_code == 0, forced.output
    assert tokens.read_text().startswith("name,token\nbob,team_") and stat.S_IMODE(tokens.stat().st_mode) == 0o600
    assert team_names(setup.folder) == ["bob"]


@pytest.mark.parametrize(("roster_name", "tokens_name"), [("arena.db", None), (None, "arena.db"),
                                                          (None, "arena.db-wal"), ("arena.db-shm", None)])
def test_the_leagues_own_database_is_neither_read_as_a_roster_nor_replaced_by_the_tokens(tmp_path, roster_name,
                                                                                          tokens_name):
    setup = new_league(tmp_path, teams=("alice",))
    roster = setup.folder / roster_name if roster_name else roster_file(tmp_path / "roster.csv", ["name"], [["bob"]])
    tokens = setup.folder / tokens_name if tokens_name else tmp_path / "tokens.csv"
    before = (setup.folder / "arena.db").read_bytes()
    result = runner.invoke(app, ["league", "add-teams", str(setup.folder), str(roster), "--tokens", str(tokens),
                                 "--force"])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "is the league's database" in result.stderr, result.stderr
    assert (setup.folder / "arena.db").read_bytes() == before and team_names(setup.folder) == ["alice"]


def test_hostile_cells_round_trip_through_csv_and_markdown_keeps_one_row_a_line():
    rows = [[i, value, -0.5] for i, value in enumerate(HOSTILE)]
    read = list(csv.reader(io.StringIO(csv_text(["n", "text", "x"], rows), newline="")))
    assert read == [["n", "text", "x"], *[[str(i), value, "-0.5"] for i, value in enumerate(NEUTRALISED)]]
    assert md_text(["a|b", "n"], [["x|y\\", 1], ["two\nlines", 2]]) == (
        "| a\\|b | n |\n|---|---:|\n| x\\|y\\\\ | 1 |\n| two lines | 2 |\n")


CRASHER = """
    from arena import bot


    @bot(game="tron")
    def crasher(obs, rng):
        \"\"\"Raises on its first move.\"\"\"
        raise RuntimeError("boom")
    """


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_standings_and_final_export_the_same_from_the_cli_and_the_api(tmp_path):
    setup = new_league(tmp_path)
    submit_bots(setup, tmp_path, (("alice", "hugger.py", HUGGER), ("bob", "crasher.py", CRASHER)))
    play_games(setup.folder, 2)
    with League.open(setup.folder) as league:
        league.pause()  # drops the ranked games planned ahead
        league.start_final()
        waiting = len(league.waiting())
    play_games(setup.folder, waiting)
    with League.open(setup.folder) as league:
        board = {row.team: row for row in league.leaderboard()}
        final = {row.team: row for row in league.final_table()}
        assert league.waiting() == []

    def three(value):
        return f"{round(value, 3) + 0.0!r}"

    a, b = board["alice"], board["bob"]
    n = a.games
    assert n >= 2 and (a.wins, a.losses, b.games, b.wins, b.losses) == (n, 0, n, 0, n)
    folder = str(setup.folder)
    standings = runner.invoke(app, ["league", "standings", folder, "-f", "csv"])
    assert standings.exit_code == 0, standings.output
    assert standings.stdout == (
        "rank,team,bot,version,rating,mu,sigma,games,wins,draws,losses,crashes,timeouts,illegal,memory\n"
        f"1,alice,hugger,1,{three(a.rating)},{three(a.mu)},{three(a.sigma)},{n},{n},0,0,0,0,0,0\n"
        f"2,bob,crasher,1,{three(b.rating)},{three(b.mu)},{three(b.sigma)},{n},0,0,{n},{n},0,0,0\n")
    table = runner.invoke(app, ["league", "final-table", folder, "-f", "csv"])
    fa, fb = final["alice"], final["bob"]
    assert table.stdout == (
        "rank,team,bot,version,seed,points,games,wins,draws,losses,mu,sigma,rating,tiebreak\n"
        f"1,alice,hugger,1,1,2.0,2,2,0,0,{three(fa.mu)},{three(fa.sigma)},{three(fa.mu - 3 * fa.sigma)},score\n"
        f"2,bob,crasher,1,2,0.0,2,0,0,2,{three(fb.mu)},{three(fb.sigma)},{three(fb.mu - 3 * fb.sigma)},\n")
    cli = {(command, fmt): runner.invoke(app, ["league", command, folder, "-f", fmt]).stdout
           for command in ("standings", "final-table") for fmt in ("csv", "json", "md")}
    assert json.loads(cli["standings", "json"])[1]["crashes"] == n
    assert cli["final-table", "md"].splitlines()[2] == f"| 1 | alice | hugger | 1 | 1 | 2.0 | 2 | 2 | 0 | 0 | " \
                                                      f"{three(fa.mu)} | {three(fa.sigma)} | " \
                                                      f"{three(fa.mu - 3 * fa.sigma)} | score |"

    server = LiveServer(setup.folder)
    try:
        for route, command, name in (("/api/leaderboard", "standings", "standings"),
                                     ("/api/final", "final-table", "final")):
            for fmt, media in (("csv", "text/csv; charset=utf-8"), ("json", "application/json"),
                               ("md", "text/markdown; charset=utf-8")):
                answer = server.get(f"{route}?format={fmt}")
                assert answer.status == 200 and answer.headers["Content-Type"] == media
                assert answer.headers["Content-Disposition"] == f'attachment; filename="{name}.{fmt}"'
                assert answer.text == cli[command, fmt]
        plain = server.get("/api/final").json()
        assert [(r["label"], r["points"]) for r in plain["table"]] == [("alice/hugger", 2.0), ("bob/crasher", 0.0)]
        assert plain["waiting"] == 0
        assert server.get("/api/leaderboard?format=xlsx").status == 422
        assert "rows" in server.get("/api/leaderboard").json()
        assert "/api/final" in server.get("/openapi.json").json()["paths"]
    finally:
        server.stop()


def test_the_api_says_404_for_a_final_not_played(tmp_path):
    setup = new_league(tmp_path)
    server = LiveServer(setup.folder)
    try:
        answer = server.get("/api/final?format=csv")
        assert answer.status == 404 and answer.json() == {
            "detail": "this league has had no final (start one with `arena league final`)"}
    finally:
        server.stop()


def test_only_cells_a_spreadsheet_could_run_are_neutralised():
    assert [spreadsheet_safe(cell) for cell in ("=1+2", "-2+3", "@SUM(A1)", "+x", "\tx", "-1.5", "+3", "-", "=", 7)] \
        == ["'=1+2", "'-2+3", "'@SUM(A1)", "'+x", "'\tx", "-1.5", "+3", "-", "=", 7]
