"""Every help page reads cleanly: placeholders instead of Python types, defaults shown as values."""

import re

import pytest
import typer

from arena.cli.main import app
from arena.cli.placeholders import placeholder
from tests.cli_runner import CliRunner
from tests.helpers import REPO

runner = CliRunner()


def command_paths(command=None, prefix=()):
    """The argument lists that reach every command and command group of the ``arena`` application."""
    command = command or typer.main.get_command(app)
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from command_paths(sub, (*prefix, name))


PATHS = list(command_paths())


def test_every_command_is_reached():
    names = {" ".join(path) for path in PATHS}
    assert {"tournament", "play", "maps", "replay", "train catmouse-window", "solve catmouse-parity",
            "train tron-eval"} <= names


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "arena")
def test_help_names_values_not_python_types(path):
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    page = result.stdout
    assert not re.search(r"<(int|float|str|bool|path|list)", page, re.IGNORECASE), page
    assert not re.search(r" \.($|\s)", page, re.MULTILINE), page
    assert not re.search(r"\((default|defaults)\b", page), page


def test_tournament_help_shows_placeholders_and_defaults():
    page = runner.invoke(app, ["tournament", "--help"], env={"COLUMNS": "100"}).stdout
    assert "-n, --games N" in page and "--time-limit NUMBER" in page and "--db PATH" in page
    assert "--isolate  " in page  # a flag takes no value
    flat = " ".join(page.split())
    assert "[default: 10; with --openings, 2: one in each seat]" in flat and "[default: 0.1]" in page
    assert "TARGETS  A tournament file" in page


def test_placeholders_follow_the_type():
    assert placeholder(int | None, "games", argument=False) == "N"
    assert placeholder(list[str] | None, "bots", argument=False) == "TEXT"
    assert placeholder(bool, "isolate", argument=False) == ""
    assert placeholder(list[str], "targets", argument=True) == "TARGETS"


def run_arena(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_command_line_mistakes_are_one_line_and_exit_2():
    bad_value = run_arena("tournament", "--games", "x", "center_block")
    assert bad_value.returncode == 2 and bad_value.stdout == ""
    assert bad_value.stderr.splitlines() == [
        "error: Invalid value for '--games' / '-n': Input should be a valid integer, unable to parse string as an "
        "integer (see 'arena tournament --help')"]
    unknown = run_arena("nope")
    assert (unknown.returncode, unknown.stderr) == (2, "error: No such command 'nope' (see 'arena --help')\n")
    missing = run_arena("compare")
    assert (missing.returncode, missing.stderr) == (2, "error: Missing argument 'NEW' (see 'arena compare --help')\n")
    typo = run_arena("play", "flodfill", "random")
    assert (typo.returncode, typo.stderr) == (2, "error: unknown bot 'flodfill'; did you mean: floodfill?\n")


def documented_pages():
    """The README and every page of the documentation site."""
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def shell_commands(text):
    """Every ``arena ...`` command of a page's shell examples, without its comment, as its words."""
    import shlex

    commands = []
    for block in re.findall(r"```(?:sh|bash)\n(.*?)```", text, re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():  # a command continued over lines is one line
            line = line.split("  #")[0].strip()
            for part in re.split(r"\s*(?:&&|\|)\s*", line):
                if part.startswith("arena "):
                    words = shlex.split(part.split(" > ")[0])
                    commands.append(words[1:])
    return commands


DOCUMENTED_COMMANDS = [(page.relative_to(REPO).as_posix(), args)
                       for page in documented_pages() for args in shell_commands(page.read_text())]


def test_the_docs_show_many_commands_and_the_readme_some():
    pages = {page for page, _ in DOCUMENTED_COMMANDS}
    assert len(DOCUMENTED_COMMANDS) > 60
    assert {"README.md", "docs/guide/quickstart.md", "docs/games/tron.md", "docs/research/tron-search.md"} <= pages


def test_shell_examples_are_found_in_sh_and_bash_blocks_only():
    text = "```sh\narena runs  # every run\nls && arena show 1 | less\n```\n```bash\narena bots > out\n```\n" \
           "```\narena maps\n```\n"
    assert shell_commands(text) == [["runs"], ["show", "1"], ["bots"]]


@pytest.mark.parametrize(("page", "args"), DOCUMENTED_COMMANDS, ids=lambda value: value if isinstance(value, str)
                         else " ".join(value)[:60])
def test_every_documented_example_parses(page, args):
    """The command exists and every option and argument it is given is one the command takes."""
    command, words, path = typer.main.get_command(app), list(args), ["arena"]
    while hasattr(command, "commands") and words and not words[0].startswith("-"):
        assert words[0] in command.commands, f"{page}: no command {' '.join([*path, words[0]])!r}"
        path.append(words[0])
        command = command.commands[words.pop(0)]
    command.make_context(" ".join(path), words, resilient_parsing=False)
