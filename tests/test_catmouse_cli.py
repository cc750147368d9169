import csv
import io
import json
import re
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.engines.catmouse.policies import load_policy
from arena.games.catmouse import solver
from tests.cli_runner import CliRunner

runner = CliRunner()


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "cache"))
    solver.clear_memory()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_catmouse_is_listed_with_its_roles_and_options():
    result = invoke("games", "--format", "csv")
    rows = {row[0]: row for row in csv.reader(io.StringIO(result.output))}
    assert rows["catmouse"][1:4] == ["2", "cat, mouse", "first (cat|mouse), max_moves (auto|100000), repeat (off|on)"]


def test_play_and_tournament_with_roles():
    result = invoke("play", "greedy", "wary", "--map", "catmouse_5x5", "--quiet", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "Reason: the cat caught the mouse at (4, 1) after 14 moves" in result.output
    result = invoke("tournament", "catmouse_5x5", "-b", "greedy,wary,cm_random", "-n", "2", "-w", "1", "-f", "md")
    assert result.exit_code == 0, result.output
    assert "## Standings, cat (catmouse: 6 games)" in result.output
    assert "## Standings, mouse (catmouse: 6 games)" in result.output
    assert "## Head to head (cat rows, mouse columns)" in result.output


def without_thinking_times(output):
    return [line for line in output.splitlines() if not line.startswith("Thinking time:")]


def test_play_seats_each_bot_in_a_role_it_plays_and_finds_the_game_from_the_bots():
    cat_first = invoke("play", "greedy", "wary", "--quiet", "--seed", "2")
    mouse_first = invoke("play", "wary", "greedy", "--quiet", "--seed", "2")
    assert cat_first.exit_code == 0 and mouse_first.exit_code == 0, mouse_first.output
    assert cat_first.output.splitlines()[0] == "catmouse on catmouse_8x7, seed 2: 1=greedy (cat)  2=wary (mouse)"
    # the same game whichever order the bots are named in; only the measured thinking times may differ
    assert without_thinking_times(mouse_first.output) == without_thinking_times(cat_first.output)
    assert re.fullmatch(r"Thinking time: 1=greedy \(cat\) \d+\.\d{3} s, 2=wary \(mouse\) \d+\.\d{3} s",
                        mouse_first.output.splitlines()[-1])
    both_mice = invoke("play", "wary", "cm_random", "--map", "catmouse_5x5")
    assert both_mice.exit_code == 0 and "1=cm_random (cat)  2=wary (mouse)" in both_mice.output
    cannot = invoke("play", "wary", "wary")
    assert cannot.exit_code == 2
    assert cannot.stderr == "error: these bots cannot be seated as cat, mouse (wary plays mouse; wary plays mouse)\n"
    mixed = invoke("play", "greedy", "chaser")
    assert mixed.exit_code == 2
    assert mixed.stderr == ("error: no game is played by all these bots "
                            "(greedy plays catmouse; chaser plays tron, snafu)\n")


def test_the_report_has_one_standings_table_per_role_and_no_infinite_elo():
    played = invoke("tournament", "catmouse_5x5", "-n", "2", "-w", "1", "-f", "md")
    assert played.exit_code == 0, played.output
    report = invoke("report", "-f", "md").stdout
    assert "## Standings, cat: catmouse, 26 games" in report and "## Standings, mouse: catmouse, 26 games" in report
    assert "inf" not in report
    cats = report.split("## Standings, cat")[1].split("## Standings, mouse")[0]
    assert "(mouse)" not in cats and "| greedy (cat)    |" in cats and "all won" in cats
    assert "| catmouse_5x5 | wary (mouse)      |" in report  # maps table rows name the role too


def test_parity_command_prints_the_tables():
    result = invoke("solve", "catmouse-parity", "--max", "4", "--format", "md")
    assert result.exit_code == 0, result.output
    assert "| 3 | cat 3 | mouse* | cat 7 |" in result.output
    assert "| 2 | cat 2 | mouse* | cat 6 |" in result.output
    assert "The article's claim holds on 13 of 18 boards" in result.output
    result = invoke("solve", "catmouse", "catmouse_8x7", "catmouse_barn")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "catmouse_" in line]
    assert [line.split("│")[1:7] for line in lines] == [
        [" catmouse_8x7  ", " 8x7   ", " cat   ", " cat    ", " 23    ", " 30                  "],
        [" catmouse_barn ", " 9x11  ", " mouse ", " mouse  ", " -     ", " 40                  "],
    ]


@pytest.mark.slow
def test_full_training_writes_policies_and_resumes_where_it_stopped(tmp_path):
    result = invoke("train", "catmouse-full", "--iterations", "3000", "--seed", "9", "--out", "a.json", "-q")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == ("writing the policy to a.json and the checkpoint to a.checkpoint.json "
                                             "(kept, so --resume can continue or extend the run)")
    assert result.stdout.startswith("3,000 iterations (arena rules, seed 9): the mouse won")
    assert Path("a.checkpoint.json").exists()
    result = invoke("train", "catmouse-full", "--resume", "--out", "a.json", "--iterations", "6000", "-q")
    assert result.exit_code == 0, result.output
    result = invoke("train", "catmouse-full", "--iterations", "6000", "--seed", "9", "--out", "b.json", "-q")
    resumed, straight = load_policy("a.json"), load_policy("b.json")
    assert resumed.moves == straight.moves
    assert resumed.training["iteration_wins"] == straight.training["iteration_wins"]
    assert sum(straight.training["iteration_wins"].values()) == 6000
    log = invoke("train", "catmouse-full", "--iterations", "2000", "--every", "1000", "--out", "c.json")
    assert "iteration   1,000: wins cat" in log.output and "iteration   2,000: wins cat" in log.output


def test_window_training_writes_a_policy_and_keeps_the_other_role(tmp_path):
    result = invoke("train", "catmouse-window", "--iterations", "3", "--games", "30", "--candidates", "2",
                    "--out", "w.json")
    assert result.exit_code == 0, result.output
    assert "iteration    1 (vs random #1): wins " in result.output
    assert "iteration 0: starts against random with wins " in result.output
    result = invoke("train", "catmouse-window", "--role", "mouse", "--iterations", "2", "--games", "30",
                    "--out", "w.json", "--checkpoint", "m.checkpoint.json", "-q")
    assert result.exit_code == 0, result.output
    assert "(kept the cat policy already there)" in result.output
    policy = load_policy("w.json")
    assert policy.kind == "window" and set(policy.moves) == {"cat", "mouse"}
    assert set(policy.training) == {"cat", "mouse"}
    data = json.loads(Path("m.checkpoint.json").read_text())
    assert data["settings"]["opponents"] == ["random", "greedy"] and data["iteration"] == 2


@pytest.mark.parametrize(("args", "message"), [
    (["train", "catmouse-full", "--cells", "0"], "--cells 0-0: give a range like 1-10, from at least 1"),
    (["train", "catmouse-full", "--candidates", "x"], "--candidates 'x': give a number or a range such as 1-10"),
    (["train", "catmouse-full", "--map", "empty_room"], "is a tron map, not a catmouse map"),
    (["train", "catmouse-full", "--resume"], "runs/catmouse-full/checkpoint.json: no checkpoint to resume from"),
    (["train", "catmouse-full", "--notebook", "--cells", "2"], "the notebook variant plays the notebook's own"),
    (["train", "catmouse-full", "--first", "dog"], "--first 'dog' is not one of: cat, mouse"),
    (["train", "catmouse-window", "--opponents", "random,dog"], "opponent 'dog' cannot play the mouse"),
    (["train", "catmouse-window", "--games", "0"], "--games must be at least 1"),
    (["train", "catmouse-window", "--map", "catmouse_8x7", "--max-moves", "0"], "--max-moves must be at least 1"),
    (["solve", "catmouse-parity", "--max", "40"], "give 1 <= --min <= --max <= 30"),
    (["solve", "catmouse", "no_such_map"], "no_such_map: no such map file"),
])
def test_bad_arguments_are_one_line_errors(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def test_resuming_with_different_settings_is_refused():
    assert invoke("train", "catmouse-window", "--iterations", "1", "--games", "20", "-q").exit_code == 0
    result = invoke("train", "catmouse-window", "--resume", "--games", "30")
    assert result.exit_code == 2
    assert result.output.strip() == ("error: --games 30 differs from the checkpoint's 1000; leave it out to resume, "
                                     "or start afresh without --resume").replace("1000", "20")
    result = invoke("train", "catmouse-window", "--resume", "--map", "catmouse_8x7")
    assert result.output.strip() == "error: --map catmouse_8x7 is not the board of the checkpoint; leave it out to " \
                                    "resume"


def test_a_damaged_checkpoint_is_a_one_line_error():
    Path("runs/catmouse-window").mkdir(parents=True)
    Path("runs/catmouse-window/checkpoint.json").write_text(json.dumps(
        {"format": "arena-catmouse-training/1", "kind": "window", "iteration": 3}))
    result = invoke("train", "catmouse-window", "--resume")
    assert result.exit_code == 2
    assert result.output.strip() == ("error: runs/catmouse-window/checkpoint.json: the checkpoint is damaged "
                                     "(KeyError: 'settings')")
    result = invoke("train", "catmouse-full", "--resume", "--checkpoint", "runs/catmouse-window/checkpoint.json")
    assert result.output.strip() == ("error: runs/catmouse-window/checkpoint.json: a checkpoint of a window run, "
                                     "not a full run")


def test_without_out_a_run_writes_into_its_run_folder_and_says_where():
    result = invoke("train", "catmouse-window", "--iterations", "1", "--games", "20", "-q")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (
        "writing the policy to runs/catmouse-window/policy.json and the checkpoint to "
        "runs/catmouse-window/checkpoint.json (kept, so --resume can continue or extend the run)")
    assert sorted(p.name for p in Path("runs/catmouse-window").iterdir()) == ["checkpoint.json", "policy.json"]
    assert not list(Path().glob("*.json"))  # nothing in the working directory itself
    assert invoke("train", "catmouse-window", "--resume", "--iterations", "2", "-q").exit_code == 0
