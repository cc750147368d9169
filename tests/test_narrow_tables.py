"""Tables on a narrow console (80 columns is what rich assumes when output is piped): a bot name appears
whole or cut with an ellipsis, never split across lines."""

import re

import pytest
from rich.cells import cell_len
from rich.console import Console

from arena.cli.main import app
from arena.report.fitted_table import FOLD, NAME, PROSE, FittedTable, narrow
from tests.cli_runner import CliRunner

runner = CliRunner()
BOTS = ["minimax:depth=1,nodes=900", "minimax:depth=2,nodes=900", "wallhugger", "floodfill", "chaser", "random"]


def tokens(text: str) -> list[str]:
    return re.findall(r"[^\s│┃|]+", text)


def name_problems(output: str, names: list[str], width: int, words: frozenset[str] = frozenset()) -> list[str]:
    """What is wrong with how ``output`` shows ``names``: a line wider than ``width``, a piece of a name
    without an ellipsis (a name split across lines; ``words``, such as "all" in the legend, are no pieces),
    or a name that does not appear at all."""
    problems = [f"line wider than {width}: {line!r}" for line in output.splitlines() if cell_len(line) > width]
    seen = dict.fromkeys(names, 0)
    for token in tokens(output):
        token = token.rstrip(",") if token.rstrip(",") in names else token
        for name in names:
            if token == name or (token.endswith("…") and len(token) > 1 and name.startswith(token[:-1])):
                seen[name] += 1
            elif (re.search("[a-z]{2}", token) and token in name and token not in {*names, *words}
                  and not token.endswith("…")):
                problems.append(f"{token!r} is a piece of {name!r}")
    return problems + [f"{name!r} does not appear" for name, count in seen.items() if count == 0]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A database holding one run of ``BOTS``, played once for every test here."""
    folder = tmp_path_factory.mktemp("narrow")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        patch.delenv("ARENA_BOTS_PATH", raising=False)
        result = runner.invoke(app, ["tournament", "empty_room", "-b", ",".join(BOTS), "-n", "2", "-w", "1",
                                     "--seed", "3", "--db", str(folder / "arena.db"), "-f", "json"])
    assert result.exit_code == 0, result.output
    return folder / "arena.db"


@pytest.mark.parametrize("width", [80])
@pytest.mark.parametrize("command", [["show", "1"], ["report", "1"], ["runs"], ["ratings"]])
def test_names_are_never_split_on_a_narrow_console(db, command, width):
    result = runner.invoke(app, [*command, "--db", str(db)], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    # the words of the text (legend, titles), none of them split, are no pieces of names
    words = {*tokens(runner.invoke(app, [*command, "--db", str(db), "-f", "md"]).stdout), "all"} - set(BOTS)
    names = BOTS[:4] if command == ["runs"] else BOTS  # a run's name lists four bots, then "and 2 more"
    assert name_problems(result.stdout, names, width, frozenset(words)) == []


def test_the_check_finds_a_split_name():
    """The check above, on the folding it guards against."""
    assert name_problems("| floodfi |\n| ll      |\n", ["floodfill"], 80) == ["'floodfi' is a piece of 'floodfill'",
                                                                         "'ll' is a piece of 'floodfill'",
                                                                         "'floodfill' does not appear"]
    assert name_problems("| floodf… |", ["floodfill"], 80) == []


def test_text_columns_narrow_first_and_names_last():
    table = FittedTable(["bot", "runs", "description", "found in"],
                        [["wallhugger", "3", "Among the safe moves, take the one touching the most walls",
                          "/home/user/bots/wallhugger.py"]],
                        [NAME, FOLD, PROSE, FOLD])
    assert table.widths(200) is None  # it fits: rich sizes it
    # 13 cells of frame; the text narrows to its longest word ("description"), then the path breaks
    assert table.widths(13 + 10 + 4 + 11 + 29) == [10, 4, 11, 29]
    assert table.widths(13 + 10 + 4 + 11 + 17) == [10, 4, 11, 17]
    assert table.widths(13 + 10 + 4 + 11 + 4) == [10, 4, 11, 4]
    assert table.widths(13 + 20) == [6, 4, 6, 4]  # at last everything is cut alike
    console = Console(width=13 + 20, record=True)
    console.print(table)
    text = console.export_text()
    assert "wallh…" in text and "wallhugger" not in text and max(map(len, text.splitlines())) == 33


def test_narrow_takes_from_the_widest_first():
    assert narrow([10, 4, 30], [0, 0, 0], 30) == [10, 4, 16]
    assert narrow([10, 4, 30], [0, 0, 0], 20) == [8, 4, 8]
    assert narrow([10, 4, 30], [9, 4, 25], 20) == [9, 4, 25]
    assert narrow([10, 4, 30], [0, 0, 0], 60) == [10, 4, 30]
