"""Game records: every game stored, exported, replayed and re-adjudicated under the current rules."""

import json
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.cli.players import with_bot_names
from arena.core.records import RECORD_FORMAT
from tests.cli_runner import CliRunner

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def play_small_run():
    result = invoke("tournament", "center_block", "-b", "floodfill,chaser,random", "-n", "2", "-w", "1", "-f", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.slow
def test_records_round_trip_through_export_and_check(tmp_path):
    play_small_run()
    exported = invoke("export", "1", "--records", str(tmp_path / "records"))
    assert exported.exit_code == 0 and "6 records written to" in exported.stderr
    files = sorted((tmp_path / "records").glob("*.json"))
    assert [f.name for f in files] == [f"run1-game{i:05d}.json" for i in range(6)]
    record = json.loads(files[0].read_text())
    assert record["format"] == RECORD_FORMAT and record["game"] == "tron"
    assert record["options"] == {"moves": "simultaneous"}
    assert record["map"]["name"] == "center_block" and record["map"]["text"].startswith("; title = Center block")
    assert [p["bot"] for p in record["players"]] == ["floodfill", "chaser"]
    assert all(set(turn) == {"0", "1"} for turn in record["turns"])

    checked = invoke("replay", str(tmp_path / "records"), "--check")
    assert checked.exit_code == 0 and checked.stdout.strip() == "6 agree, 0 differ"
    lines = invoke("export", "1", "--jsonl", str(tmp_path / "all.jsonl"))
    assert lines.exit_code == 0 and len((tmp_path / "all.jsonl").read_text().splitlines()) == 6
    checked = invoke("replay", str(tmp_path / "all.jsonl"), "--check")
    assert checked.stdout.strip() == "6 agree, 0 differ"
    stdout_lines = invoke("export", "1", "--jsonl", "-")
    assert [json.loads(line)["seed"] for line in stdout_lines.stdout.splitlines()] == \
        [json.loads(f.read_text())["seed"] for f in files]


def test_check_reports_differences_and_malformed_records_and_keeps_going(tmp_path):
    play_small_run()
    invoke("export", "1", "--records", str(tmp_path / "r"))
    tampered = tmp_path / "r" / "run1-game00002.json"
    record = json.loads(tampered.read_text())
    record["result"]["ranks"] = record["result"]["ranks"][::-1]
    tampered.write_text(json.dumps(record))
    missing = tmp_path / "r" / "run1-game00003.json"
    record = json.loads(missing.read_text())
    del record["turns"]
    missing.write_text(json.dumps(record))
    (tmp_path / "r" / "zz.json").write_text("{not json")
    result = invoke("replay", str(tmp_path / "r"), "--check")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "4 agree, 1 differ, 2 malformed"
    assert result.stdout.splitlines()[0].startswith(f"differs: {tampered}: ranks ")
    assert f"malformed: {missing}: field 'turns' is missing" in result.stderr
    assert f"malformed: {tmp_path / 'r' / 'zz.json'}: not JSON" in result.stderr


@pytest.mark.slow
def test_records_of_games_lost_by_a_failing_bot_agree(tmp_path, bot_dir):
    result = invoke("tournament", "empty_room", "--bots-dir", str(bot_dir), "-b", "crasher,illegal,steady", "-n", "2",
                    "-w", "1", "--time-limit", "0.5", "-f", "json")
    assert result.exit_code == 0
    invoke("export", "1", "--records", str(tmp_path / "r"))
    records = [json.loads(p.read_text()) for p in sorted((tmp_path / "r").glob("*.json"))]
    assert sum(1 for r in records if r["failures"]) == 6
    assert invoke("replay", str(tmp_path / "r"), "--check").stdout.strip() == "6 agree, 0 differ"


AIC_MAP = "7 3\n#######\n#1   2#\n#######\n"


def test_ai_challenge_games_import_and_check_against_the_rules(tmp_path):
    games = {
        "headon.txt": AIC_MAP + "E W\nE W\ndraw\n",            # both enter the middle cell together
        "wall.txt": AIC_MAP + "N W\nwinner 2\n",                # player 1 turns into the wall
        "columns.txt": AIC_MAP + "EN\nWW\nwinner 2\n",          # moves as two lines; 1 turns into the wall
        "wrong.txt": AIC_MAP + "E W\nE W\nwinner 1\n",         # the verdict disagrees with the rules
    }
    for name, text in games.items():
        (tmp_path / name).write_text(text)
    result = invoke("import-aic", *(str(tmp_path / n) for n in games), "--records", str(tmp_path / "aic"))
    assert result.exit_code == 0, result.output
    assert "4 imported into" in result.stderr
    checked = invoke("replay", str(tmp_path / "aic"), "--check")
    assert checked.exit_code == 1
    assert checked.stdout.splitlines()[-1] == "3 agree, 1 differ"
    assert checked.stdout.splitlines()[0] == (
        f"differs: {tmp_path / 'aic' / 'wrong.json'}: ranks [1, 2] recorded, [1, 1] by the rules "
        "(players 1 and 2 moved into the same cell; draw)")
    imported = json.loads((tmp_path / "aic" / "columns.json").read_text())
    assert imported["turns"] == [{"0": "E", "1": "W"}, {"0": "N", "1": "W"}]


def test_ai_challenge_import_without_verdict_uses_the_rules_and_errors_are_one_line(tmp_path):
    (tmp_path / "plain.txt").write_text(AIC_MAP + "N S\n")
    (tmp_path / "bad.txt").write_text(AIC_MAP + "N X\n")
    result = invoke("import-aic", str(tmp_path / "plain.txt"), str(tmp_path / "bad.txt"),
                    "--records", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert f"error: {tmp_path / 'bad.txt'}:5: expected two moves among N, E, S, W (like 'N S'), got 'N X'" \
        in result.stderr
    record = json.loads((tmp_path / "out" / "plain.json").read_text())
    assert record["result"] == {"ranks": [1, 1],
                                "reason": "player 1 moved into a wall; player 2 moved into a wall; draw"}


@pytest.mark.slow
def test_replay_plays_a_record_back_turn_by_turn(tmp_path):
    play_small_run()
    invoke("export", "1", "--records", str(tmp_path / "r"))
    path = tmp_path / "r" / "run1-game00000.json"
    record = json.loads(path.read_text())
    result = invoke("replay", str(path), "--delay", "0")
    assert result.exit_code == 0
    frames = [line for line in result.stdout.splitlines() if line.startswith("turn ")]
    assert len(frames) == len(record["turns"]) + 1
    labels = [player["bot"] for player in record["players"]]
    assert result.stdout.splitlines()[-1] == f"Reason: {with_bot_names(record['result']['reason'], labels)}"
    only = invoke("replay", str(path), "--turn", "3")
    assert [line for line in only.stdout.splitlines() if line.startswith("turn ")] == [
        f"turn 3/{len(record['turns'])}  " + " ".join(f"{int(s) + 1}:{a}" for s, a in record["turns"][2].items())]
    assert invoke("replay", str(tmp_path / "r"), "--delay", "0").stdout == ""
    assert invoke("replay", str(tmp_path / "r")).stderr.startswith("error: playing back takes one record; 6")


@pytest.mark.slow
def test_export_needs_one_destination_and_a_known_run(tmp_path):
    assert invoke("export", "1").stderr.startswith("error: give exactly one of --records DIR or --jsonl FILE")
    play_small_run()
    assert invoke("export", "7", "--jsonl", "-").stderr.strip() == "error: no run 7; runs in arena.db: 1"
    assert Path("arena.db").exists()


@pytest.mark.slow
def test_stored_games_replay_by_run_and_number_and_show_defaults_to_the_latest_run(tmp_path):
    assert invoke("show").stderr.strip() == "error: arena.db has no runs yet: run a tournament first"
    play_small_run()
    invoke("export", "1", "--records", str(tmp_path / "r"))
    from_file = invoke("replay", str(tmp_path / "r" / "run1-game00003.json"), "--delay", "0")
    assert from_file.exit_code == 0
    assert invoke("replay", "1", "3", "--delay", "0").stdout == from_file.stdout
    assert invoke("replay", "1:3", "--delay", "0").stdout == from_file.stdout
    assert invoke("replay", "1", "9").stderr.strip() == "error: no game 9 in run 1 (games 0-5 are stored)"
    assert invoke("replay", "4:0").stderr.strip() == "error: no run 4; runs in arena.db: 1"
    checked = invoke("replay", "1:3", "--check")
    assert (checked.exit_code, checked.stdout.strip()) == (0, "1 agree, 0 differ")

    play_small_run()  # the same tournament again is shown as stored: still one run
    invoke("tournament", "center_block", "-b", "floodfill,random", "-n", "2", "-w", "1")
    assert invoke("show", "-f", "json").stdout == invoke("show", "2", "-f", "json").stdout
    assert invoke("show", "-f", "json").stdout != invoke("show", "1", "-f", "json").stdout
    assert invoke("report", "-f", "md").stdout == invoke("report", "2", "-f", "md").stdout
