"""The league library and its ``arena league`` commands: tokens, submissions and builds, ranked play rated in
queue order, a new version's rating carried over, challenges that never touch ratings, the final, and the
organiser's operations. Games are played for real (in the test's process, or on worker processes)."""

import contextlib
import json
import math
import sqlite3

import pytest

from arena.cli.main import app
from arena.league.facade import CHALLENGE, FINAL, RANKED, League
from arena.league.game_queue import FIRST_OF_MATCH
from arena.league.models import Organiser, Team
from arena.stats.ladder_rule import CARRY_SIGMA
from arena.stats.ratings import SIGMA
from tests.cli_runner import CliRunner
from tests.helpers import VERSIONED_HUGGER, write_module
from tests.league_helpers import (
    BEYOND,
    MAPS,
    QUARTER,
    SEED,
    SHIPPED,
    built_leagues,
    copy_of,
    play_in_process,
    ratings,
    results,
    shipped_bot,
    submitted_league,
    two_teams,
)

runner = CliRunner()
# Submissions are checked and built in the sandbox: a test that submits a bot is marked as needing bubblewrap.


@pytest.fixture
def league(tmp_path):
    league, _ = League.create(tmp_path / "league", "tron", ["center_block", "empty_room"], seed=11)
    yield league
    league.close()


@pytest.fixture
def submitted(tmp_path_factory, tmp_path):
    """A copy of the league of alice (the wallhugger) and bob (random, floodfill), their bots submitted."""
    league = League.open(copy_of(submitted_league(tmp_path_factory), tmp_path / "copy"))
    yield league
    league.close()


@pytest.fixture
def played(tmp_path_factory, tmp_path):
    """A copy of that league after its first 16 ranked games (every match planned so far)."""
    league = League.open(copy_of(built_leagues(tmp_path_factory).played, tmp_path / "copy"))
    yield league
    league.close()


def teams(league):
    return league.team("alice"), league.team("bob")


# --- the commands ------------------------------------------------------------------------------------


def test_new_and_add_team_print_tokens_alone_and_the_league_keeps_only_their_hashes(tmp_path):
    folder = tmp_path / "myleague"
    made = runner.invoke(app, ["league", "new", str(folder), "--game", "tron", "--map", "center_block",
                               "--map", "empty_room", "--seed", "5"])
    assert made.exit_code == 0, made.output
    organiser = made.stdout.strip()
    assert made.stdout == organiser + "\n" and organiser.startswith("org_") and len(organiser) > 40
    assert sorted(p.name for p in folder.iterdir()) == ["arena.db", "league.toml", "maps"]
    assert sorted(p.name for p in (folder / "maps").iterdir()) == ["center_block.txt", "empty_room.txt"]
    settings = (folder / "league.toml").read_text()
    assert 'game = "tron"' in settings and 'maps = ["center_block.txt", "empty_room.txt"]' in settings
    assert "seed = 5" in settings
    added = runner.invoke(app, ["league", "add-team", str(folder), "alice"])
    assert added.exit_code == 0, added.output
    token = added.stdout.strip()
    assert added.stdout == token + "\n" and token.startswith("team_")
    with League.open(folder) as league:
        assert league.authenticate(organiser) == Organiser()
        assert league.authenticate(token) == Team(1, "alice")
        assert league.authenticate(token + "x") is None and league.authenticate("") is None
    database = (folder / "arena.db").read_bytes() + (folder / "arena.db-wal").read_bytes() \
        if (folder / "arena.db-wal").exists() else (folder / "arena.db").read_bytes()
    assert token.encode() not in database and organiser.encode() not in database


@pytest.mark.parametrize(("args", "message"), [
    (["new", "{folder}", "--game", "tron", "--map", "nowhere"], "nowhere: no such map file"),
    (["new", "{folder}", "--game", "catmouse", "--map", "center_block"], "the maps are for tron, not catmouse"),
    (["new", "{full}", "--game", "tron", "--map", "center_block"], "is not an empty folder"),
    (["add-team", "{full}", "alice"], "not a league (no league.toml)"),
    (["add-team", "{league}", "no/slash"], "team name 'no/slash'"),
    (["add-team", "{league}", "alice"], "team 'alice' exists already"),
    (["rotate-token", "{league}", "carol"], "no team 'carol' in this league (teams: alice)"),
    (["disable", "{league}", "alice", "1"], "name a bot as team/bot"),
    (["final-table", "{league}"], "this league has had no final"),
    (["workers", "{league}"], "no ladder has run on"),
])
def test_bad_input_is_one_line_and_changes_nothing(tmp_path, args, message):
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine")
    league_folder = tmp_path / "league"
    runner.invoke(app, ["league", "new", str(league_folder), "--game", "tron", "--map", "center_block"])
    runner.invoke(app, ["league", "add-team", str(league_folder), "alice"])
    paths = {"folder": tmp_path / "new", "full": full, "league": league_folder}
    result = runner.invoke(app, ["league", *[arg.format(**paths) for arg in args]])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "new").exists() and sorted(p.name for p in full.iterdir()) == ["notes.txt"]
    with sqlite3.connect(league_folder / "arena.db") as conn:
        assert conn.execute("SELECT name FROM league_teams").fetchall() == [("alice",)]


def test_tokens_rotate_and_revoke(league):
    token = league.add_team("alice")
    fresh = league.rotate_token("alice")
    assert league.authenticate(token) is None and league.authenticate(fresh) == Team(1, "alice")
    league.revoke_token("alice")
    assert league.authenticate(fresh) is None
    organiser = league.rotate_token()
    assert league.authenticate(organiser) == Organiser()


# --- submissions -------------------------------------------------------------------------------------


@pytest.mark.needs("bwrap")
def test_a_submission_becomes_the_next_version_and_the_active_one_and_a_failed_build_never_plays(league, tmp_path):
    alice = league.authenticate(league.add_team("alice"))
    first = league.submit(alice, write_module(tmp_path / "v1", "hugger.py", VERSIONED_HUGGER.format(version=1)))
    assert (first.label, first.number, first.status, first.active) == ("alice/hugger", 1, "ready", True)
    again = league.submit(alice, write_module(tmp_path / "v1b", "hugger.py", VERSIONED_HUGGER.format(version=1)))
    assert again.id == first.id  # the same source is the same version
    second = league.submit(alice, write_module(tmp_path / "v2", "hugger.py", VERSIONED_HUGGER.format(version=2)))
    assert (second.number, second.active) == (2, True)
    broken = write_module(tmp_path / "v3", "hugger.py", """
        from arena import bot
        raise RuntimeError("no luck today")
    """)
    failed = league.submit(alice, broken)
    assert (failed.bot, failed.number, failed.status, failed.active) == ("hugger", 3, "failed", False)
    assert "RuntimeError: no luck today" in failed.build_log
    assert [v.number for v in league.versions(alice, "hugger") if v.active] == [2]
    chosen = league.set_active(alice, "hugger", 1)
    assert chosen.active and not league.versions(alice, "hugger")[1].active
    third = league.submit(alice, write_module(tmp_path / "v4", "hugger.py", VERSIONED_HUGGER.format(version=4)))
    assert not third.active  # the team chose version 1: a new version does not replace it
    assert league.set_active(alice, "hugger", None).number == 4
    with pytest.raises(Exception, match="version 3 cannot play: it is failed"):
        league.set_active(alice, "hugger", 3)


@pytest.mark.needs("bwrap")
def test_a_slow_build_fails_with_its_log_and_a_program_build_that_fails_is_kept(tmp_path):
    league, _ = League.create(tmp_path / "slow", "tron", ["center_block"], seed=1)
    (tmp_path / "slow" / "league.toml").write_text(
        (tmp_path / "slow" / "league.toml").read_text().replace("build_timeout = 60.0", "build_timeout = 1.0"))
    league.close()
    league = League.open(tmp_path / "slow")
    alice = league.authenticate(league.add_team("alice"))
    sleeper = write_module(tmp_path / "s", "sleepy.py", """
        import time
        time.sleep(30)
    """)
    slow = league.submit(alice, sleeper)
    assert slow.status == "failed" and "1 s" in slow.build_log, slow.build_log
    program = tmp_path / "prog"
    write_module(program, "arena-bot.toml", """
        name = "maker"
        games = ["tron"]
        command = ["python3", "bot.py"]
        build = ["sh", "-c", "echo compiling; echo 'error: missing semicolon' >&2; exit 3"]
    """)
    write_module(program, "bot.py", "print('hello')\n")
    built = league.submit(alice, program)
    assert (built.bot, built.kind, built.status, built.active) == ("maker", "program", "failed", False)
    assert "exit status 3" in built.build_log and "missing semicolon" in built.build_log
    league.close()


@pytest.mark.needs("bwrap")
def test_a_submission_is_imported_in_the_sandbox_and_cannot_touch_the_machine(league, tmp_path):
    alice = league.authenticate(league.add_team("alice"))
    target = tmp_path / "written-by-the-bot"
    sneaky = write_module(tmp_path / "s", "sneaky.py", f"""
        from pathlib import Path
        from arena import bot
        try:
            Path({str(target)!r}).write_text("escaped")
        except OSError:
            pass
        @bot(name="sneaky", game="tron")
        def sneaky(obs, rng):
            return "N"
    """)
    version = league.submit(alice, sneaky)
    assert version.status == "ready" and version.bot == "sneaky"
    assert not target.exists()


@pytest.mark.needs("bwrap")
def test_a_submission_that_is_no_bot_of_the_game_is_refused(league, tmp_path):
    alice = league.authenticate(league.add_team("alice"))
    with pytest.raises(Exception, match="defines exactly one bot that plays tron; it defines 0"):
        league.submit(alice, shipped_bot(tmp_path, "greedy.py"))
    with pytest.raises(Exception, match="submit a Python module"):
        league.submit(alice, tmp_path / "nothing.txt")
    assert league.versions(alice) == []


# --- ranked play, ratings ------------------------------------------------------------------------------


@pytest.mark.needs("bwrap")
@pytest.mark.slow  # its games are played in the sandbox, as the ladder plays them
def test_ranked_games_are_rated_in_queue_order_and_recompute_gives_the_same_numbers(tmp_path_factory, tmp_path):
    built = built_leagues(tmp_path_factory)
    # 2 games more than the played league: into the second plan, scheduled from the ratings of the first 16
    assert built.stored == list(range(BEYOND)) == list(range(18))
    with League.open(copy_of(built.beyond, tmp_path / "copy")) as played:
        assert [game_id for game_id, *_ in results(played)] == built.stored
        board = played.leaderboard()
        assert [(r.label, r.games, r.wins + r.draws + r.losses) for r in board] == [
            (r.label, r.games, r.games) for r in board]
        assert sum(r.games for r in board) == 2 * 18
        before = [(r.label, r.mu, r.sigma, r.wins, r.draws, r.losses) for r in board]
        assert played.recompute() == 18
        assert [(r.label, r.mu, r.sigma, r.wins, r.draws, r.losses) for r in played.leaderboard()] == before
        games = {g.id: g for g in played.games(limit=100)}
    # seats are rotated within each match, and maps in rotation between matches
    for first in range(0, 18, 2):
        a, b = games[first], games[first + 1]
        assert [s.label for s in a.seats] == [s.label for s in reversed(b.seats)]
        assert a.seed == b.seed and a.map == b.map
    assert [games[i].map for i in (0, 2, 4)] == ["center_block", "empty_room", "center_block"]


@pytest.mark.needs("bwrap")
@pytest.mark.slow  # its games are played in the sandbox, as the ladder plays them
def test_the_same_seed_plays_the_same_games(tmp_path_factory, tmp_path):
    league, _ = League.create(tmp_path / "again", "tron", list(MAPS), seed=SEED)  # made and played anew
    with league:
        two_teams(league, tmp_path)
        assert play_in_process(league, QUARTER) == [0, 1, 2, 3]  # two matches: both maps, both seat orders
        again = results(league), ratings(league)
    built = built_leagues(tmp_path_factory)
    assert again == built.quarter
    assert [(label, round(mu, 4), round(sigma, 4)) for label, mu, sigma, *_ in again[1]] == [
        ("alice/wallhugger", 29.3506, 4.6559), ("bob/floodfill", 28.7127, 4.9291), ("bob/random", 18.2877, 6.4712)]
    halfway = built.halfway  # the same league 4 games later
    assert halfway[0][:4] == again[0]
    assert halfway[0][:6] == [
        (0, "ranked", ("alice/wallhugger#1", "bob/random#1"), (1, 2)),
        (1, "ranked", ("bob/random#1", "alice/wallhugger#1"), (2, 1)),
        (2, "ranked", ("bob/floodfill#1", "alice/wallhugger#1"), (1, 1)),
        (3, "ranked", ("alice/wallhugger#1", "bob/floodfill#1"), (1, 1)),
        (4, "ranked", ("bob/random#1", "bob/floodfill#1"), (1, 2)),
        (5, "ranked", ("bob/floodfill#1", "bob/random#1"), (1, 2))]
    assert [(label, round(mu, 4), round(sigma, 4)) for label, mu, sigma, *_ in halfway[1]] == [
        ("alice/wallhugger", 31.3846, 4.0639), ("bob/floodfill", 26.7398, 4.0012), ("bob/random", 20.5231, 3.9884)]
    _, after_16 = built_leagues(tmp_path_factory).at_the_end  # and 8 games later
    assert [(label, round(mu, 4), round(sigma, 4)) for label, mu, sigma, *_ in after_16] == [
        ("bob/floodfill", 27.399, 2.4093), ("alice/wallhugger", 25.7232, 2.4318), ("bob/random", 26.163, 2.6535)]


@pytest.mark.needs("bwrap")
@pytest.mark.slow  # its games are played in the sandbox, as the ladder plays them
def test_a_new_version_starts_from_its_predecessors_mean_with_more_uncertainty(played, tmp_path):
    league = played
    alice, _ = teams(league)
    old = next(r for r in league.leaderboard() if r.label == "alice/wallhugger")
    newer = league.submit(alice, write_module(tmp_path / "w2", "wallhugger.py",
                                              (SHIPPED / "wallhugger.py").read_text() + "\n# v2\n"))
    assert newer.number == 2 and newer.games == 0
    assert newer.mu == pytest.approx(old.mu) and newer.sigma == pytest.approx(math.hypot(old.sigma, CARRY_SIGMA))
    assert old.sigma < newer.sigma < SIGMA
    # it plays the very next match
    assert league.schedule_ranked(1) == 2
    assert [e.players[0] for e in league.queue()] == ["alice/wallhugger#2", league.queue()[1].players[0]]
    assert all("alice/wallhugger#2" in e.players for e in league.queue())


@pytest.mark.needs("bwrap")
@pytest.mark.slow  # its games are played in the sandbox, as the ladder plays them
def test_challenge_games_are_played_beside_the_ladder_and_never_touch_ratings(played):
    league = played  # every ranked match planned so far is played
    alice, bob = teams(league)
    before = ratings(league)
    ids = league.challenge(alice, "wallhugger", "bob/floodfill", 2)
    assert ids == [16, 17] and [e.kind for e in league.queue()] == [CHALLENGE] * 2
    assert play_in_process(league, 2) == ids  # played before the ranked matches queued after them
    assert ratings(league) == before
    challenge_games = league.games(kind=CHALLENGE)
    assert sorted(g.id for g in challenge_games) == ids
    assert {tuple(s.label for s in g.seats) for g in challenge_games} == {
        ("alice/wallhugger", "bob/floodfill"), ("bob/floodfill", "alice/wallhugger")}
    with pytest.raises(Exception, match="a challenge is 1 to 10 games"):
        league.challenge(alice, "wallhugger", "bob/floodfill", 11)
    league.challenge(alice, "wallhugger", "bob/floodfill", 10)
    league.challenge(alice, "wallhugger", "bob/random", 10)
    with pytest.raises(Exception, match="has 20 challenge games waiting; at most 20"):
        league.challenge(alice, "wallhugger", "bob/random", 1)
    with pytest.raises(Exception, match="a bot cannot challenge itself"):
        league.challenge(bob, "random", "bob/random", 1)


@pytest.mark.needs("bwrap")
@pytest.mark.slow  # its games are played in the sandbox, as the ladder plays them
def test_the_final_closes_submissions_and_plays_a_round_robin_of_its_own(played, tmp_path):
    league = played
    alice, _ = teams(league)
    queued = league.start_final()
    assert queued == 3 * 2 * 2  # 3 pairs, 2 maps, both seat orders
    with pytest.raises(Exception, match="submissions are closed"):
        league.submit(alice, shipped_bot(tmp_path / "late", "chaser.py"))
    ids = league.waiting((FINAL,))
    play_in_process(league, len(league.waiting()))
    table = league.final_table()
    assert [r.games for r in table] == [8, 8, 8]
    assert sum(r.points for r in table) == 12
    assert [r.points for r in table] == sorted((r.points for r in table), reverse=True)
    assert sorted(g.id for g in league.games(kind=FINAL, limit=100)) == ids
    with pytest.raises(Exception, match="the final has been played or queued already"):
        league.start_final()


@pytest.mark.needs("bwrap")
def test_a_final_at_a_deadline_waits_for_it_and_a_bad_deadline_is_refused(submitted, tmp_path):
    league = submitted
    alice, _ = teams(league)
    assert league.start_final("2999-01-01T00:00") == 0
    assert not league.final_due() and league.waiting(("final",)) == []
    league.submit(alice, shipped_bot(tmp_path / "early", "chaser.py"))  # before the deadline: still open
    with pytest.raises(Exception, match="deadline 'soon': expected an ISO time"):
        league.start_final("soon")
    league.conn.execute("UPDATE league_state SET value = '\"2000-01-01T00:00:00+00:00\"' WHERE key = 'deadline'")
    assert league.final_due()
    with pytest.raises(Exception, match="submissions are closed"):
        league.submit(alice, shipped_bot(tmp_path / "late", "voronoi.py"))
    assert league.start_final() == 6 * 2 * 2  # 4 bots: 6 pairs, 2 maps, both seat orders
    assert not league.final_due()


@pytest.mark.needs("bwrap")
@pytest.mark.slow  # its games are played in the sandbox, as the ladder plays them
def test_disable_drops_waiting_games_and_recompute_leaves_the_disabled_versions_games_out(played):
    league = played
    league.schedule_ranked(4)
    league.disable("bob", "random", 1)
    assert all("bob/random#1" not in e.players for e in league.queue())
    assert "bob/random" not in [r.label for r in league.leaderboard()]
    rated = league.recompute()
    random_games = sum("bob/random" in [s.label for s in g.seats] for g in league.games(kind=RANKED, limit=100))
    assert rated == 16 - random_games and random_games > 0


@pytest.mark.needs("bwrap")
def test_the_change_stamp_moves_with_what_the_pages_show_and_only_with_it(submitted):
    with League.create(submitted.folder.parent / "empty", "tron", list(MAPS), seed=SEED)[0] as empty_league:
        empty = empty_league.change_stamp()
    league = submitted  # the same league with its bots submitted
    submitted = league.change_stamp()
    league.pause()
    paused = league.change_stamp()
    league.resume()
    league.schedule_ranked(1)
    assert league.change_stamp() == submitted  # as before the pause; a queued game shows on no cached page
    play_in_process(league, 1)
    played = league.change_stamp()
    assert empty == (None, None, None, "false", None, "0/0")
    assert submitted == (None, 3, "1,3,2", "false", None, "0/0")
    assert paused == (None, 3, "1,3,2", "true", None, "0/0")
    assert played == (1, 3, "1,3,2", "false", None, "0/0")
    league.start_final(games=1, fmt="double-elimination")  # a bracket's queued matches show on its page
    assert league.change_stamp()[4:] == ("2", "1/0")


@pytest.mark.needs("bwrap")
def test_pause_stops_ranked_scheduling_and_the_queue_and_standings_commands_show_the_league(submitted):
    league = submitted
    league.pause()
    assert league.schedule_ranked(3) == 0 and league.queue() == []
    league.resume()
    assert league.schedule_ranked(1) == 2
    folder = str(league.folder)
    queue = runner.invoke(app, ["league", "queue", folder, "--format", "json"])
    assert queue.exit_code == 0, queue.output
    assert [row["kind"] for row in json.loads(queue.stdout)] == ["ranked", "ranked"]
    standings = runner.invoke(app, ["league", "standings", folder, "--format", "csv"])
    assert standings.exit_code == 0 and standings.stdout.startswith("rank,team,bot,version,rating,mu,sigma,games,wins,")
    assert standings.stdout.count("\n") == 4


def test_maps_are_added_to_the_rotation_and_must_seat_as_many_players(league, tmp_path):
    added = runner.invoke(app, ["league", "add-map", str(league.folder), "diagonal_blocks"])
    assert added.exit_code == 0, added.output
    with League.open(league.folder) as reopened:
        assert reopened.settings.maps == ("center_block.txt", "empty_room.txt", "diagonal_blocks.txt")
        assert (league.folder / "maps" / "diagonal_blocks.txt").is_file()
    refused = runner.invoke(app, ["league", "add-map", str(league.folder), "four_corners"])
    assert refused.exit_code == 2 and "must all seat the same number of players; these seat 2, 4" in refused.stderr
    assert "four_corners" not in (league.folder / "league.toml").read_text()


@pytest.mark.needs("bwrap")
def test_teams_are_renamed_and_removed(submitted):
    league = submitted
    league.rename_team("alice", "alicia")
    assert "alicia/wallhugger" in [r.label for r in league.leaderboard()]
    token = league.rotate_token("alicia")
    league.remove_team("alicia")
    assert league.authenticate(token) is None
    assert "alicia/wallhugger" not in [r.label for r in league.leaderboard()]
    assert [t.name for t in league.teams()] == ["bob", "removed-1-alicia"]


@pytest.mark.needs("bwrap")
def test_cat_and_mouse_rotates_roles_and_rates_each_role(tmp_path):
    league, _ = League.create(tmp_path / "cm", "catmouse", ["catmouse_5x5"], seed=3)
    alice = league.authenticate(league.add_team("alice"))
    bob = league.authenticate(league.add_team("bob"))
    league.submit(alice, shipped_bot(tmp_path / "a", "catmouse_random.py"))
    second = write_module(tmp_path / "b", "cm2.py", (tmp_path / "a" / "catmouse_random.py").read_text()
                          .replace('name="cm_random"', 'name="cm_other"'))
    league.submit(bob, second)
    with pytest.raises(Exception, match=r"in every role \(cat, mouse\)"):
        league.submit(bob, shipped_bot(tmp_path / "c", "greedy.py"))
    play_in_process(league, 2)  # one match: both seat orders
    games = league.games(limit=10)
    assert {(g.seats[0].role, g.seats[1].role) for g in games} == {("cat", "mouse")}
    assert {(g.seats[0].label, g.seats[1].label) for g in games} == {
        ("alice/cm_random", "bob/cm_other"), ("bob/cm_other", "alice/cm_random")}
    roles = league.conn.execute("SELECT DISTINCT role FROM league_ratings ORDER BY role").fetchall()
    assert roles == [("cat",), ("mouse",)]
    league.close()


@pytest.mark.needs("bwrap")
@pytest.mark.slow  # its games are played in the sandbox, as the ladder plays them
def test_a_four_player_league_plays_free_for_all_with_every_rotation(tmp_path):
    league, _ = League.create(tmp_path / "ffa", "tron", ["four_corners"], seed=2)
    for team, bot in (("a", "wallhugger.py"), ("b", "random_bot.py"), ("c", "floodfill.py"), ("d", "chaser.py")):
        league.submit(league.authenticate(league.add_team(team)), shipped_bot(tmp_path / team, bot))
    assert league.players == 4
    play_in_process(league, 4)
    games = league.games(limit=10)
    assert len(games) == 4 and all(len(g.seats) == 4 for g in games)
    assert {g.seats[0].label for g in games} == {"a/wallhugger", "b/random", "c/floodfill", "d/chaser"}
    assert sum(r.games for r in league.leaderboard()) == 16
    league.close()


@pytest.mark.needs("bwrap")
def test_a_game_and_its_record_are_read_back(played):
    league = played
    info = league.game_info(1)
    record = league.game_record(1)
    assert record["seed"] == info.seed and [p["bot"] for p in record["players"]] == [s.label for s in info.seats]
    assert record["result"]["ranks"] == [s.rank for s in info.seats]
    with pytest.raises(Exception, match="no finished game 99 in this league"):
        league.game_info(99)
    bot = league.bot("alice", "wallhugger")
    assert bot.active is not None and bot.active.number == 1
    assert len(bot.games) == 12  # of the 16: alice plays 6 of the 8 matches


@pytest.mark.needs("bwrap")
def test_the_league_run_is_a_run_the_other_commands_read(played):
    league = played
    result = runner.invoke(app, ["runs", "--db", str(league.folder / "arena.db"), "--format", "json"])
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)
    assert [(run["name"], run["format"], run["status"], run["games"]) for run in runs] == [
        ("tron league", "league", "running", "16/16")]  # 16 queued: the first 8 matches


def test_a_matchs_first_place_is_looked_up_in_an_index_also_in_a_league_made_before_it(league):
    def plan(conn):
        return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + FIRST_OF_MATCH, ("ranked", 1, 0))]

    looked_up = ["SEARCH league_queue USING COVERING INDEX league_queue_match (kind=? AND run_id=? AND match=?)"]
    assert plan(league.conn) == looked_up
    league.conn.execute("DROP INDEX league_queue_match")  # a league made before the index
    folder = league.folder
    league.close()
    with contextlib.closing(sqlite3.connect(folder / "arena.db")) as conn:
        assert plan(conn) == ["SEARCH league_queue USING INDEX league_queue_kind (kind=?)"]  # every ranked game
    with League.open(folder) as reopened:
        assert plan(reopened.conn) == looked_up
