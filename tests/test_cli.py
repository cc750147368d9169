import csv
import importlib.metadata
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pytest

import arena
from arena.cli.main import app
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_games_bots_and_plugins_list_what_was_found():
    games = invoke("games", "--format", "csv")
    assert games.exit_code == 0
    rows = list(csv.reader(io.StringIO(games.output)))
    assert rows[0] == ["game", "players", "roles", "options", "default maps", "description"]
    tron = next(row for row in rows[1:] if row[0] == "tron")
    assert tron[:5] == ["tron", "2-4", "-", "moves (simultaneous|alternating), starts (map|mirrored), "
                                            "powerups (off|on), rules (aichallenge|brown)",
                        "empty_room center_block diagonal_blocks"]
    snafu = next(row for row in rows[1:] if row[0] == "snafu")
    assert snafu[4] == "snafu_15x15"

    bots = json.loads(invoke("bots", "--format", "json").stdout)
    tron_bots = [b for b in bots if "tron" in b["games"].split(", ")]
    assert [b["bot"] for b in tron_bots] == ["chamber", "chaser", "floodfill", "minimax", "npz", "random", "voronoi",
                                             "wallhugger"]
    assert all(len(b["version"]) == 8 and b["found in"].endswith(".py") for b in bots)
    roles = {b["bot"]: b["roles"] for b in bots}
    assert (roles["greedy"], roles["wary"], roles["hillclimb"], roles["floodfill"]) == ("cat", "mouse", "cat, mouse",
                                                                                        "any")

    plugins = invoke("plugins", "--format", "md")
    assert plugins.exit_code == 0
    assert "| arena.builtin.tron" in plugins.output and "register_bots" in plugins.output


def test_maps_lists_each_games_maps_with_size_players_and_title(tmp_path, monkeypatch):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "mine.txt").write_text("; title = Mine\n#####\n#1.2#\n#####\n")
    (tmp_path / "maps" / "broken.txt").write_text("#x#\n")
    monkeypatch.chdir(tmp_path)
    result = invoke("maps", "--game", "tron", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["map", "game", "size (WxH)", "players", "title", "from"]
    assert rows[1:] == [
        ["center_block", "tron", "13x13", "2", "Center block", "shipped"],
        ["diagonal_blocks", "tron", "13x13", "2", "Diagonal blocks", "shipped"],
        ["empty_room", "tron", "13x13", "2", "Empty room", "shipped"],
        ["four_corners", "tron", "17x17", "4", "Four corners (4 players)", "shipped"],
        ["mine", "tron", "5x3", "2", "Mine", "maps/mine.txt"],
        ["open_30", "tron", "30x30", "2", "Open 30x30", "shipped"],
        ["pillars_30", "tron", "30x30", "2", "Pillars 30x30", "shipped"],
        ["powerup_room", "tron", "13x13", "2", "Powerup room", "shipped"],
    ]
    assert result.stderr.startswith("warning: broken: ") and "unknown character 'x'" in result.stderr
    catmouse = json.loads(invoke("maps", "--game", "catmouse", "--format", "json").stdout)
    assert [(m["map"], m["size (WxH)"]) for m in catmouse] == [("catmouse_15x15", "15x15"), ("catmouse_5x5", "5x5"),
                                                         ("catmouse_8x7", "7x8"), ("catmouse_8x8", "8x8"),
                                                         ("catmouse_barn", "11x9")]
    unknown = invoke("maps", "--game", "torn")
    assert unknown.exit_code != 0 and "unknown game 'torn'; did you mean: tron?" in unknown.output


def test_the_default_tournament_field_is_every_bot_that_plays_the_game(shipped_registry):
    from arena.tournament.definition import TournamentDefinition
    from arena.tournament.plan import plan_tournament

    tournament = plan_tournament(TournamentDefinition(maps=("center_block",)), shipped_registry)
    assert [spec.label for spec in tournament.bots] == ["chamber", "chaser", "floodfill", "minimax", "random",
                                                        "voronoi", "wallhugger"]


@pytest.mark.slow
def test_tournament_json_has_standings_and_head_to_head():
    # The four quick bots: the search bots think 0.1 s a move, too slow for a test.
    result = invoke("tournament", "center_block", "--games", "2", "--workers", "1", "--format", "json",
                    "-b", "chaser,floodfill,random,wallhugger")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games_played"] == data["games_scheduled"] == 12
    assert sorted(row["bot"] for row in data["standings"]) == ["chaser", "floodfill", "random", "wallhugger"]
    assert [row["rank"] for row in data["standings"]] == [1, 2, 3, 4]
    conservative = [row["conservative"] for row in data["standings"]]
    assert conservative == sorted(conservative, reverse=True)
    assert all(row["wins"] + row["draws"] + row["losses"] == row["games"] == 6 for row in data["standings"])
    assert len(data["head_to_head"]) == 12
    assert all(pair["games"] == 2 for pair in data["head_to_head"])
    first = data["head_to_head"][0]
    mirror = next(p for p in data["head_to_head"] if (p["bot"], p["opponent"]) == (first["opponent"], first["bot"]))
    assert first["points"] + mirror["points"] == 2


@pytest.mark.slow
def test_tournament_markdown_csv_and_table_output():
    md = invoke("tournament", "empty_room", "-n", "2", "-w", "1", "-b", "random,floodfill", "-f", "md")
    assert md.exit_code == 0
    assert md.stdout.startswith("## Standings (tron: 2 games)")
    assert "|   # | bot" in md.stdout and "## Head to head" in md.stdout
    table = invoke("tournament", "empty_room", "-n", "2", "-w", "1", "-b", "random,floodfill", "--new")
    assert "Standings" in table.stdout and "mu-3σ" in table.stdout and "floodfill" in table.stdout
    rows = invoke("tournament", "empty_room", "-n", "2", "-w", "1", "-b", "random,floodfill", "-f", "csv").stdout
    header = rows.splitlines()[0]
    assert header == "rank,bot,conservative,mu,sigma,games,wins,draws,losses,score,timeout,crash,illegal,memory"


@pytest.mark.slow
def test_same_seed_same_standings_across_worker_counts():
    # Bots that don't read the clock: a search bot's moves depend on how far it got in its time.
    args = ["tournament", "diagonal_blocks", "-n", "2", "--seed", "3", "-f", "json", "--new",
            "-b", "chaser,floodfill,random,wallhugger"]
    one, two = invoke(*args, "-w", "1"), invoke(*args, "-w", "2")
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_user_errors_are_one_line_and_exit_2(tmp_path):
    bad_map = tmp_path / "bad.txt"
    bad_map.write_text("#####\n#1.2#\n#.Z.#\n#####\n")
    cases = {
        ("tournament", str(bad_map)): f"error: {bad_map}:3:3: unknown character 'Z'",
        ("tournament", "empty_rom"): "error: empty_rom: no such map file; did you mean: empty_room?",
        ("tournament", "empty_room", "-b", "random,flodfill"):
            "error: unknown bot 'flodfill'; did you mean: floodfill?",
        ("tournament", "empty_room", "-f", "xml"): "error: --format 'xml' is not a tournament format "
                                                   "(round-robin, gauntlet, swiss) or an output format",
        ("tournament", "empty_room", "--workers", "0"): "error: --workers must be at least 1",
        ("tournament", "empty_room", "--bots-dir", str(tmp_path / "none")): "error: --bots-dir",
        ("play", "random"): "error: maps/empty_room.txt has 2 seats: give 2 bots, not 1",
        ("play", "random", "chaser:speed=2"): "error: bot spec 'chaser:speed=2': bot 'chaser' has no parameter",
        ("bots", "--game", "checkers"): "error: unknown game 'checkers'",
    }
    for args, expected in cases.items():
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1, (args, result.output)
        assert lines[0].replace(str(REPO) + "/", "").startswith(expected), (args, lines[0])
        assert "Traceback" not in result.output


def test_map_header_with_unknown_option_names_the_line(tmp_path):
    game_map = tmp_path / "odd.txt"
    game_map.write_text("; title = odd\n; speed = fast\n#####\n#1.2#\n#####\n")
    result = invoke("tournament", str(game_map))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: {game_map}:2:1: game 'tron' has no option 'speed' (known options: moves, powerups, rules, starts)")


def test_broken_bot_module_is_a_warning_and_the_rest_play(tmp_path):
    bots = tmp_path / "extra"
    write_module(bots, "broken.py", "def (:\n")
    write_module(bots, "north.py", "from arena import bot\n\n@bot(name='north', game='tron')\n"
                                   "def north(obs, rng):\n    return 'N'\n")
    result = invoke("tournament", "empty_room", "--bots-dir", str(bots), "-b", "north,random", "-n", "2", "-w", "1",
                    "-f", "json")
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0] == f"warning: {bots / 'broken.py'}:1: syntax error: invalid syntax; skipped"
    assert {row["bot"] for row in json.loads(result.stdout)["standings"]} == {"north", "random"}


def test_play_shows_every_turn_then_result_and_reason():
    result = invoke("play", "floodfill", "wallhugger", "--map", "empty_room", "--seed", "2")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "tron on empty_room, seed 2: 1=floodfill  2=wallhugger"
    assert lines[1] == "start" or lines[1].startswith("turn 1  1:")
    turns = [line for line in lines if line.startswith("turn ")]
    assert len(turns) == 52
    result_line = next(line for line in lines if line.startswith("Result after"))
    assert result_line == "Result after 52 turns: 1=floodfill rank 1, 2=wallhugger rank 1 (rank 1 is best)"
    assert "Reason: players 1 (floodfill) and 2 (wallhugger) moved into the same cell; draw" in lines
    quiet = invoke("play", "floodfill", "wallhugger", "--map", "empty_room", "--seed", "2", "--quiet")
    assert [line for line in quiet.output.splitlines() if line.startswith("Result")] == [result_line]
    assert not any(line.startswith("turn ") for line in quiet.output.splitlines())


def test_version_option_shows_the_installed_version():
    result = invoke("--version")
    installed = importlib.metadata.version("bot-arena")  # set in pyproject.toml, and nowhere else
    assert result.exit_code == 0 and result.output == f"arena {installed}\n"
    assert arena.__version__ == installed


def stored_games(db):
    """How many games ``db`` holds, read without writing (0 while it or its tables don't exist yet)."""
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_with_standings_so_far(tmp_path):
    write_module(tmp_path / "bots", "slow.py", "import time\nfrom arena import bot\n\n"
                 "@bot(name='slow', game='tron')\ndef slow(obs, rng):\n    time.sleep(0.01)\n"
                 "    moves = obs.safe_moves()\n    return moves[0] if moves else 'N'\n")
    env = {k: v for k, v in os.environ.items() if k != "ARENA_BOTS_PATH"}
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", "open_30", "-b", "slow,random", "-n", "400", "-w", "2",
         "-f", "json"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120  # a guard against a hang only: Ctrl-C comes once a game is stored
    while stored_games(tmp_path / "arena.db") == 0:
        assert process.poll() is None and time.monotonic() < deadline, "no game was stored"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    data = json.loads(stdout)
    assert 0 < data["games_played"] < data["games_scheduled"] == 400
    assert stderr.strip().splitlines()[-1] == (
        f"interrupted: {data['games_played']} of 400 games played; continue with: arena tournament --resume 1")
    assert "Traceback" not in stderr


def test_size_plays_snafu_on_an_open_board_without_a_map():
    result = invoke("play", "mindless", "floodfill", "--size", "12x8", "--seed", "3", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "snafu on snafu_15x15, seed 3: 1=mindless  2=floodfill"
    assert [len(line) for line in lines[1:9]] == [12] * 8  # the final position, 12 wide and 8 high
    assert lines[-3] == "Result after 37 turns: 1=mindless rank 2, 2=floodfill rank 1 (rank 1 is best)"
    wrong = invoke("play", "random", "chaser", "--size", "9x9", "--map", "empty_room")
    assert wrong.exit_code == 2
    assert wrong.stderr.strip() == (
        "error: --size: game 'tron' is played on its map's board and takes no size")


def test_a_resumed_task_counts_only_the_work_done_since_in_its_rate():
    from rich.console import Console

    from arena.cli.progress import GamesProgress

    now = [100.0]
    lines = io.StringIO()
    progress = GamesProgress(Console(file=lines, width=200))
    progress.get_time = lambda: now[0]
    with progress:
        task = progress.add_task("snafu-scaling", total=100, completed=60, unit="repetitions")
        now[0] += 10.0
        progress.advance(task, 10)  # a tenth of the total: a line is due
    assert lines.getvalue().splitlines() == [
        "snafu-scaling: 60/100 repetitions (60%)",
        "snafu-scaling: 70/100 repetitions (70%), 1.0 repetitions/s, ETA 0:00:30"]


def test_on_a_terminal_the_bar_is_redrawn_as_work_is_counted_by_no_thread_of_its_own():
    import threading

    from rich.console import Console

    from arena.cli import progress as progress_module

    screen = io.StringIO()
    progress = progress_module.GamesProgress(Console(file=screen, width=100, force_terminal=True))
    threads = threading.active_count()
    with progress:
        task = progress.add_task("run 1", total=50)
        assert threading.active_count() == threads  # so a tournament's workers can be forked
        assert "0/50" in screen.getvalue()  # drawn at once
        progress._drawn -= progress_module.REDRAW_SECONDS
        progress.advance(task, 7)
        assert "7/50" in screen.getvalue()
        progress.advance(task, 1)  # sooner than REDRAW_SECONDS after the last drawing: not drawn yet
        assert "8/50" not in screen.getvalue()


@pytest.mark.slow
def test_without_a_terminal_progress_is_a_plain_line_at_the_start_and_every_tenth():
    import re

    result = invoke("tournament", "center_block", "-b", "floodfill,random", "-n", "20", "-w", "1", "-f", "json")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("run 1: ")]
    assert lines[0] == "run 1: 0/20 games (0%)"  # at once, before any game has finished
    done = [int(re.match(r"run 1: (\d+)/20 games \((\d+)%\), [\d.]+ games/s, ETA \d:\d\d:\d\d$", line)[1])
            for line in lines[1:]]
    assert done == list(range(2, 21, 2))  # every tenth of the games, the last at the end
