"""A crashing bot says where it crashed: after a tournament or a game, in the report, the HTML report
and the exported records."""

import html
import json

import pytest

from arena.cli.main import app
from tests.cli_runner import CliRunner
from tests.helpers import write_module

runner = CliRunner()

CRASHER = """\
    from arena import Bot


    def lookup(table, key):
        return table[key]


    class Crasher(Bot):
        \"\"\"Crashes on its third move.\"\"\"

        name = "crasher"
        games = ("tron",)

        def act(self, obs):
            if obs.turn >= 2:
                return lookup({}, "nope")
            return obs.safe_moves()[0]
    """

TRACEBACK = [
    '  File "bots/crasher.py", line 16, in act',
    '    return lookup({}, "nope")',
    '  File "bots/crasher.py", line 5, in lookup',
    "    return table[key]",
    "KeyError: 'nope'",
]
DETAIL = "raised KeyError on move 3: 'nope' (bots/crasher.py:5, in lookup)"


def invoke(*args):
    return runner.invoke(app, list(args))


@pytest.mark.slow
def test_tournament_report_and_records_show_the_bots_file_line_and_traceback(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_module(tmp_path / "bots", "crasher.py", CRASHER)
    played = invoke("tournament", "center_block", "-b", "crasher,floodfill", "-n", "2", "-w", "1")
    assert played.exit_code == 0, played.output
    section = played.stdout.splitlines()
    start = section.index("Failures")
    assert section[start + 1:start + 7] == [f"  crasher: 2 crash; first in game 0: {DETAIL}",
                                           *(f"      {line}" for line in TRACEBACK)]

    assert invoke("show").stdout.splitlines()[start:start + 7] == section[start:start + 7]
    report = json.loads(invoke("report", "-f", "json").stdout)
    assert report["failures"] == [{"bot": "crasher", "counts": {"crash": 2},
                                   "first": {"game": 0, "kind": "crash", "detail": DETAIL,
                                             "traceback": "\n".join(TRACEBACK)}}]
    markdown = invoke("report", "-f", "md").stdout
    assert "## Failures" in markdown and "\n".join(f"      {line}" for line in TRACEBACK) in markdown

    assert invoke("report", "--html", "r.html").exit_code == 0
    page = html.unescape((tmp_path / "r.html").read_text())
    assert '<pre class="traceback">  File "bots/crasher.py", line 16, in act' in page

    invoke("export", "1", "--records", "records")
    record = json.loads((tmp_path / "records" / "run1-game00000.json").read_text())
    [failure] = record["failures"]
    assert failure == {"seat": 0, "kind": "crash", "detail": DETAIL, "traceback": "\n".join(TRACEBACK)}
    assert invoke("replay", "records", "--check").stdout.strip() == "2 agree, 0 differ"


def test_play_prints_the_traceback_of_the_bots_own_code(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_module(tmp_path / "bots", "crasher.py", CRASHER)
    result = invoke("play", "crasher", "floodfill", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert f"Reason: player 1 (crasher) {DETAIL}" in lines
    start = lines.index("Traceback of player 1 (crasher), its own code:")
    assert lines[start + 1:] == TRACEBACK


def test_a_clean_run_has_no_failures_section():
    played = invoke("tournament", "center_block", "-b", "floodfill,wallhugger", "-n", "2", "-w", "1")
    assert played.exit_code == 0 and "Failures" not in played.stdout
