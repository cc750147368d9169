"""Bots in any language: program bots built and played for real (gcc, node, python3), and programs that
misbehave in every way lose only their own games and leave no process behind."""

import json
import os
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from arena.cli.main import app
from arena.core.maps import parse_map, resolve_map
from arena.play.ray_executor import bot_bundle, unpack_bundle
from arena.play.referee import run_match
from arena.plugins.programs.manifest import directory_hash, directory_version
from arena.plugins.programs.protocols import Aic2010
from arena.plugins.registry import PluginConfig, load_registry
from arena.storage.store import Store
from arena.tournament.persistent_ladder import current_entries
from tests.cli_runner import CliRunner

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "bots"
PROGRAMS = Path(__file__).parent / "programs"
runner = CliRunner()

# bot -> (failure kind, the reason's wording after "player N (bot) ")
EXPECTED = {
    "sleeper": ("timeout", "did not answer within 0.25 s (the time limit and its grace), and was killed on move 1"),
    "flooder": ("illegal", "wrote more than 1048576 bytes without a newline on move 1"),
    "quitter": ("crash", "exited (exit status 3) in start()"),
    "garbage": ("illegal", "answered 'hello', which is not JSON on move 1"),
    "mute": ("timeout", "did not say ready within 0.5 s of starting, and was killed in start()"),
}


@pytest.fixture
def examples(tmp_path):
    """A copy of the example bots, so building them leaves the repository as it was."""
    return Path(shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns("bot", ".arena-*")))


@pytest.fixture
def programs(tmp_path):
    return Path(shutil.copytree(PROGRAMS, tmp_path / "programs"))


def registry_of(directory):
    return load_registry(PluginConfig(bot_dirs=(str(directory),), use_cwd_bots=False, use_env_path=False))


def processes_in(directory):
    """The processes running with their working directory inside ``directory``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if cwd == str(directory) or cwd.startswith(f"{directory}/"):
            found.append(int(pid))
    return found


@pytest.mark.needs("gcc", "node")
def test_the_c_bot_builds_and_plays_the_node_bot_over_aic2010_and_arena_json(examples):
    registry = registry_of(examples)
    before = registry.bot("aic2010-c").version
    assert before == directory_hash(examples / "aic2010-c")[:8]  # not built yet: the hash of its sources
    outcome = run_match("tron", ["aic2010-c", "floodfill-js"], game_map="center_block", seed=1, registry=registry)
    assert (examples / "aic2010-c" / "bot").is_file()
    assert outcome.failures == {}
    # the same flood fill in C and in JavaScript: point-symmetric moves on a symmetric map, until they meet
    assert (outcome.ranks, outcome.turns) == ((1, 1), 15)
    assert outcome.reason == "players 1 and 2 moved into the same cell; draw"
    assert outcome.stderr == {1: "floodfill-js: seat 1 of tron on center_block\n"}
    assert outcome.record()["stderr"] == {"1": "floodfill-js: seat 1 of tron on center_block\n"}
    # one version per source: the build's executable is not part of it
    built = registry_of(examples).bot("aic2010-c").version
    assert outcome.versions[0] == built == directory_version(examples / "aic2010-c") == before
    executable = examples / "aic2010-c" / "bot"
    executable.write_bytes(executable.read_bytes() + b"\0")  # the same sources, another executable
    assert registry_of(examples).bot("aic2010-c").version == before
    source = examples / "aic2010-c" / "bot.c"
    source.write_text(source.read_text() + "\n/* changed */\n")
    assert registry_of(examples).bot("aic2010-c").version != before


@pytest.mark.needs("node")
def test_an_exec_spec_names_a_program_directly(examples):
    registry = registry_of(examples)
    program = f"exec:command=node bot.js,dir={examples / 'floodfill-js'},name=fjs"
    outcome = run_match("tron", [program, "floodfill-js"], game_map="center_block", seed=1, registry=registry)
    assert outcome.failures == {}
    assert outcome.turns > 10
    assert outcome.versions[0] == registry.version_of(registry.spec(program)) != registry.bot("exec").version


def test_the_cat_and_mouse_script_plays_both_roles(examples):
    registry = registry_of(examples)
    for bots in (["chaser-py", "cm_random"], ["cm_random", "chaser-py"]):
        outcome = run_match("catmouse", bots, seed=2, registry=registry)
        assert outcome.failures == {}
    assert outcome.ranks in ((1, 2), (2, 1))


def play_gauntlet(directory, bots, *extra):
    result = runner.invoke(app, [
        "tournament", "empty_room", "--bots-dir", str(directory), "--gauntlet", "forker", "-b", ",".join(bots),
        "-n", "2", "--time-limit", "0.2", "-w", "2", "-f", "json", "--db", "programs.db", *extra])
    with sqlite3.connect("programs.db") as conn:
        games = [(json.loads(seats), reason, json.loads(failures))
                 for seats, reason, failures in conn.execute("SELECT seats, reason, failures FROM games")]
    return result, games


@pytest.mark.slow
def test_misbehaving_programs_lose_their_own_games_and_leave_no_process_behind(programs):
    assert processes_in(programs) == []
    result, games = play_gauntlet(programs, list(EXPECTED))
    assert result.exit_code == 0, result.output
    assert len(games) == 2 * len(EXPECTED)
    standings = {row["bot"]: row for row in json.loads(result.stdout)["standings"]}
    for bot, (kind, _) in EXPECTED.items():
        row = standings[bot]
        assert (row["wins"], row["losses"], row[kind]) == (0, 2, 2), bot
    for seats, reason, failures in games:
        bad = next(seat["label"] for seat in seats if seat["label"] != "forker")
        seat = next(i for i, s in enumerate(seats) if s["label"] == bad)
        assert reason == f"player {seat + 1} ({bad}) {EXPECTED[bad][1]}"
        assert failures == {str(seat): EXPECTED[bad][0]}
    assert processes_in(programs) == []  # forker's sleeping children and every stuck program were killed


@pytest.mark.slow
def test_a_program_whose_build_fails_is_left_out_in_one_line(programs):
    result, games = play_gauntlet(programs, ["broken", "garbage"])
    assert result.exit_code == 0, result.output
    warning = ("warning: bot broken left out: its build failed: sh -c echo 'bot.c:1: error: expected declaration' "
               ">&2; exit 2 ended with exit status 2: bot.c:1: error: expected declaration")
    assert result.stderr.count("bot broken left out") == 1
    assert warning in result.stderr.replace("\n", " ")
    assert {seat["label"] for seats, _, _ in games for seat in seats} == {"forker", "garbage"}


def test_a_game_the_aic2010_protocol_cannot_express_is_refused_before_any_game(examples):
    result = runner.invoke(app, ["tournament", "empty_room", "--bots-dir", str(examples), "-b",
                                 "aic2010-c,floodfill", "-o", "moves=alternating", "--db", "refused.db"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: bot aic2010-c: the aic2010 protocol plays tron with moves = "
                                     "simultaneous, not alternating")
    assert not (examples / "aic2010-c" / "bot").exists()


def test_a_manifest_with_a_mistake_is_skipped_in_one_line(tmp_path):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "arena-bot.toml").write_text('name = "bad"\ngames = ["tron"]\ncommand = ["./x"]\n'
                                                     'protocol = "xboard"\n')
    registry = registry_of(tmp_path)
    assert "bad" not in registry.bots
    assert [p for p in registry.problems if "bad" in p] == [
        f"{tmp_path / 'bad' / 'arena-bot.toml'}: unknown protocol 'xboard'; known: arena-json, aic2010, uci; skipped"]


def test_program_failures_read_precisely_in_a_single_game(programs):
    registry = registry_of(programs)
    outcome = run_match("tron", ["forker", "garbage"], game_map="empty_room", time_limit=0.5, registry=registry)
    assert outcome.failure_kinds == {1: "illegal"}
    assert outcome.reason == "player 2 (garbage) answered 'hello', which is not JSON on move 1"
    assert outcome.stderr == {1: "about to answer garbage\n"}
    assert processes_in(programs) == []


@pytest.mark.slow
def test_show_prints_a_game_with_the_stderr_of_its_program_bots(programs):
    result, _ = play_gauntlet(programs, ["garbage"], "-n", "1")
    assert result.exit_code == 0, result.output
    shown = runner.invoke(app, ["show", "1", "0", "--db", "programs.db"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[1:] == [
        f"  player 1: forker (version {directory_version(programs / 'forker')})",
        f"  player 2: garbage (version {directory_version(programs / 'garbage')})",
        "result: player 2 (garbage) answered 'hello', which is not JSON on move 1",
        "failure: player 2 illegal: answered 'hello', which is not JSON on move 1",
        "log of player 2 (garbage):",
        "  about to answer garbage",
    ]


@pytest.mark.slow
def test_check_bot_shows_the_lines_exchanged_and_says_what_went_wrong(programs):
    checked = runner.invoke(app, ["check", "bot", "garbage", "--bots-dir", str(programs), "-m", "empty_room",
                                  "--games", "1", "--opponent", "forker", "--verbose"])
    assert checked.exit_code == 1
    lines = checked.stdout.splitlines()
    assert lines[0] == "game on empty_room, player 1 against forker, seed 0:"
    assert lines[1].startswith('  > {"type":"start","game":"tron","seat":0,')
    assert lines[2:3] == ['  < {"type": "ready"}']
    assert lines[3].startswith('  > {"type":"turn","turn":1,"observation":{"width":13,')
    assert lines[4] == "  < hello"
    assert ("FAIL  illegal: empty_room, player 1 against forker, seed 0: illegal: answered 'hello', which is not "
            "JSON on move 1") in lines
    assert lines.count("about to answer garbage") == 1  # the second game only repeated the failure
    assert lines[-1] == ("FAIL  stopped: empty_room, player 2 against forker, seed 0: the same illegal again, so the "
                         "other games were not played")


@pytest.mark.needs("node")
def test_check_bot_passes_a_well_behaved_program(examples):
    checked = runner.invoke(app, ["check", "bot", "floodfill-js", "--bots-dir", str(examples), "-m", "empty_room",
                                  "--games", "1"])
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.splitlines()[-1] == (
        "ok    play: 2 games without a crash, timeout or illegal answer (1 s a move)")


@pytest.mark.slow
def test_isolated_tournaments_run_program_bots_in_their_own_processes_as_they_are(programs):
    # no bot here runs out of time: a second a move keeps a loaded machine from making forker one that does
    result, games = play_gauntlet(programs, ["garbage"], "-n", "1", "--isolate", "--time-limit", "1")
    assert result.exit_code == 0, result.output
    assert sorted(reason for _, reason, _ in games) == [
        f"player {seat} (garbage) answered 'hello', which is not JSON on move 1" for seat in (1, 2)]
    assert processes_in(programs) == []


def tournament(directory, bots, db, *extra):
    """A round robin on empty_room in two worker processes: the result, and the standings by bot."""
    result = runner.invoke(app, [
        "tournament", "empty_room", "--bots-dir", str(directory), "-b", ",".join(bots), "-n", "2",
        "--time-limit", "0.2", "-w", "2", "-f", "json", "--db", db, "--new", *extra])
    assert result.exit_code == 0, result.output
    return result, {row["bot"]: row for row in json.loads(result.stdout)["standings"]}


def failures_of(db):
    with sqlite3.connect(db) as conn:
        return sorted(reason for (reason,) in conn.execute("SELECT reason FROM games"))


@pytest.mark.slow
def test_the_start_up_budget_is_the_manifests_unless_the_command_line_gives_one(programs):
    # slowstart says ready after 0.7 s; its manifest gives it 0.3 s
    _, standings = tournament(programs, ["slowstart", "floodfill"], "manifest.db")
    assert (standings["slowstart"]["losses"], standings["slowstart"]["timeout"]) == (2, 2)
    assert failures_of("manifest.db") == [
        f"player {seat} (slowstart) did not say ready within 0.3 s of starting, and was killed in start()"
        for seat in (1, 2)]
    _, standings = tournament(programs, ["slowstart", "floodfill"], "short.db", "--startup-timeout", "0.5")
    assert failures_of("short.db") == [
        f"player {seat} (slowstart) did not say ready within 0.5 s of starting, and was killed in start()"
        for seat in (1, 2)]
    _, standings = tournament(programs, ["slowstart", "floodfill"], "long.db", "--startup-timeout", "3")
    assert (standings["slowstart"]["timeout"], standings["slowstart"]["losses"]) == (0, 0)
    assert failures_of("long.db") == ["players 1 and 2 moved into the same cell; draw"] * 2


@pytest.mark.slow
def test_the_start_up_budget_reaches_play_check_bot_and_exec_specs(programs):
    played = runner.invoke(app, ["play", "slowstart", "floodfill", "--bots-dir", str(programs), "-q"])
    assert played.exit_code == 0, played.output
    assert ("Reason: player 1 (slowstart) did not say ready within 0.3 s of starting, and was killed in start()"
            in played.stdout)
    played = runner.invoke(app, ["play", "slowstart", "floodfill", "--bots-dir", str(programs), "-q",
                                 "--startup-timeout", "3"])
    assert "Reason: players 1 (slowstart) and 2 (floodfill) moved into the same cell; draw" in played.stdout

    checked = runner.invoke(app, ["check", "bot", "slowstart", "--bots-dir", str(programs), "-m", "empty_room",
                                  "--games", "1", "--opponent", "floodfill"])
    assert checked.exit_code == 1
    checked = runner.invoke(app, ["check", "bot", "slowstart", "--bots-dir", str(programs), "-m", "empty_room",
                                  "--games", "1", "--opponent", "floodfill", "--startup-timeout", "3"])
    assert checked.exit_code == 0, checked.output

    # an exec: spec's own startup_timeout= wins over the flag, which wins over the default of 10 s (under which
    # slowstart would be ready: the first pair fails only if the flag counts)
    slow = f"exec:command=python3 bot.py,dir={programs / 'slowstart'},name=slow"
    for flag, own, ready in (("0.4", "", False), ("0.4", ",startup_timeout=3", True)):
        played = runner.invoke(app, ["play", slow + own, "floodfill", "-q", "--startup-timeout", flag])
        assert played.exit_code == 0, played.output
        assert ("did not say ready within 0.4 s" not in played.stdout) == ready, (flag, own)


@pytest.mark.slow
def test_a_build_over_its_budget_is_left_out_in_one_line_and_tried_again_under_a_bigger_one(programs):
    # slowbuild's build takes 1 s; its manifest gives it 0.3 s
    result, standings = tournament(programs, ["slowbuild", "floodfill", "random"], "short.db")
    lines = result.stderr.splitlines()
    assert [line for line in lines if "slowbuild" in line] == [
        "warning: bot slowbuild left out: its build failed: sh -c sleep 1; cp play.py bot.py took more than its "
        "0.3 s budget"]
    assert set(standings) == {"floodfill", "random"} and len(failures_of("short.db")) == 2
    assert not (programs / "slowbuild" / "bot.py").exists()

    result, standings = tournament(programs, ["slowbuild", "floodfill", "random"], "long.db", "--build-timeout", "5")
    assert "slowbuild" not in result.stderr
    assert set(standings) == {"slowbuild", "floodfill", "random"} and len(failures_of("long.db")) == 6
    assert (programs / "slowbuild" / "bot.py").is_file()

    result, _ = tournament(programs, ["slowbuild", "floodfill"], "again.db", "--build-timeout", "0.3")
    assert "slowbuild" not in result.stderr  # built already: a build runs only when the sources change


def test_budgets_that_are_not_positive_are_refused_in_one_line(programs):
    for flag, value in (("--build-timeout", "0"), ("--startup-timeout", "-1")):
        result = runner.invoke(app, ["tournament", "empty_room", "-b", "floodfill,random", flag, value])
        assert result.exit_code == 2
        assert result.stderr.strip() == f"error: {flag} must be a positive number of seconds, not {float(value):g}"
    result = runner.invoke(app, ["play", "exec:command=./x,startup_timeout=0", "floodfill"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: bot spec 'exec:command=./x,startup_timeout=0': startup_timeout must "
                                     "be a positive number of seconds")


@pytest.mark.slow
def test_an_exec_spec_with_a_name_is_that_name_in_standings_records_and_the_database(examples):
    fjs = f"exec:command=node bot.js,dir={examples / 'floodfill-js'},name=fjs"
    _, standings = tournament(examples, [fjs, "floodfill"], "named.db")
    assert sorted(standings) == ["fjs", "floodfill"]
    with sqlite3.connect("named.db") as conn:
        assert sorted(conn.execute("SELECT label, name FROM bots")) == [("fjs", "exec"), ("floodfill", "floodfill")]
    exported = runner.invoke(app, ["export", "1", "--records", "records", "--db", "named.db"])
    assert exported.exit_code == 0, exported.output
    players = [[p["bot"] for p in json.loads(path.read_text())["players"]]
               for path in sorted(Path("records").glob("*.json"))]
    assert sorted(players) == [["fjs", "floodfill"], ["floodfill", "fjs"]]

    taken = runner.invoke(app, ["tournament", "empty_room", "-b", "exec:command=node bot.js,name=floodfill,random"])
    assert taken.exit_code == 2
    assert taken.stderr.strip() == ("error: bot spec 'exec:command=node bot.js,name=floodfill': name=floodfill is "
                                    "the name of a registered bot; choose another")
    twice = runner.invoke(app, ["tournament", "empty_room", "-b", "exec:command=a,name=x", "-b",
                                "exec:command=b,name=x"])
    assert twice.exit_code == 2
    assert twice.stderr.strip() == "error: a bot is listed twice; give each bot (with its parameters) once"


@pytest.mark.slow
@pytest.mark.needs("gcc", "node")
def test_records_of_games_with_program_bots_replay_and_check_like_any_other(examples):
    tournament(examples, ["aic2010-c", "floodfill-js"], "programs.db")
    exported = runner.invoke(app, ["export", "1", "--records", "records", "--db", "programs.db"])
    assert exported.exit_code == 0, exported.output
    checked = runner.invoke(app, ["replay", "records", "--check"])
    assert (checked.exit_code, checked.stdout.strip()) == (0, "2 agree, 0 differ")
    for target in (["1:0"], ["1", "1"]):
        stored = runner.invoke(app, ["replay", *target, "--check", "--db", "programs.db"])
        assert (stored.exit_code, stored.stdout.strip()) == (0, "1 agree, 0 differ")
    shown = runner.invoke(app, ["replay", "1", "0", "--delay", "0", "--db", "programs.db"])
    file_shown = runner.invoke(app, ["replay", "records/run1-game00000.json", "--delay", "0"])
    assert shown.exit_code == 0 and shown.stdout == file_shown.stdout
    assert "players 1 (aic2010-c) and 2 (floodfill-js) moved into the same cell; draw" in shown.stdout

    path = Path("records/run1-game00000.json")
    record = json.loads(path.read_text())
    record["turns"][3] = {seat: "N" if move != "N" else "S" for seat, move in record["turns"][3].items()}
    path.write_text(json.dumps(record))
    checked = runner.invoke(app, ["replay", "records", "--check"])
    assert checked.exit_code == 1
    assert checked.stdout.splitlines()[-1] == "1 agree, 1 differ"


OPEN_MAP = "; title = Open\n..........\n..1.......\n..........\n..........\n..........\n.......2..\n..........\n"


def aic2010_turn(map_text, seat):
    game_class = registry_of(PROGRAMS).game("tron")
    game = game_class(parse_map(map_text, "m"), game_class.resolve_options({}), np.random.default_rng(0))
    return Aic2010().turn(game.observe(seat), 1, 1.0).decode()


def test_aic2010_sends_a_borderless_map_walled_in_as_the_challenges_maps_were():
    assert aic2010_turn(OPEN_MAP, 1).splitlines() == [
        "12 9", "############", "#          #", "#  2       #", "#          #", "#          #", "#          #",
        "#       1  #", "#          #", "############"]
    walled = (REPO / "maps" / "empty_room.txt").read_text()
    assert aic2010_turn(walled, 0).splitlines()[:4] == ["13 13", "#############", "#           #", "# 1         #"]


@pytest.mark.needs("gcc")
def test_a_bot_that_reads_the_board_as_the_starter_packages_did_plays_on_a_borderless_map(programs, tmp_path):
    (tmp_path / "open.txt").write_text(OPEN_MAP)
    registry = registry_of(programs)
    for bots in (["scanner", "floodfill"], ["floodfill", "scanner"]):
        outcome = run_match("tron", bots, game_map=str(tmp_path / "open.txt"), seed=3, registry=registry)
        assert outcome.failures == {} and outcome.stderr == {}
        assert outcome.turns > 5


def test_the_budgets_travel_with_the_configuration_to_ray_nodes(programs):
    config = PluginConfig(bot_dirs=(str(programs),), use_cwd_bots=False, use_env_path=False, build_timeout=7.0,
                          startup_timeout=0.4)
    unpacked, originals = unpack_bundle(bot_bundle(config), config)
    assert (unpacked.build_timeout, unpacked.startup_timeout) == (7.0, 0.4)
    registry = load_registry(unpacked)
    program = registry.bot("slowstart").cls.program
    assert (program.build_timeout, program.startup_timeout) == (7.0, 0.4)
    assert registry.bot("exec").cls(command="./x").running.startup_timeout == 0.4
    shutil.rmtree(Path(next(iter(originals))).parent)


@pytest.mark.needs("gcc")
def test_the_ladder_builds_program_bots_first_and_leaves_out_one_whose_build_fails(programs, tmp_path):
    directory = tmp_path / "ladder"
    directory.mkdir()
    for name in ("scanner", "broken"):
        shutil.copytree(programs / name, directory / name)
    registry = registry_of(directory)
    unbuilt = registry.bot("scanner").version
    left_out = []
    with Store(tmp_path / "ladder.db") as store:
        entries = current_entries(store, registry, registry.game("tron"), [resolve_map("empty_room")], left_out)
        versions = {row["label"]: row["version"] for row in store.bot_rows()}
    assert "scanner" in {entry.label for entry in entries} and "broken" not in {entry.label for entry in entries}
    assert left_out == ["bot broken left out: its build failed: sh -c echo 'bot.c:1: error: expected declaration' "
                        ">&2; exit 2 ended with exit status 2: bot.c:1: error: expected declaration"]
    assert versions["scanner"] == directory_version(directory / "scanner") == unbuilt
    assert (directory / "scanner" / "bot").is_file()
