"""``arena --help`` lists its commands in panels by what a user is doing, as typer's ``rich_help_panel`` does, and
the command-line reference's overview keeps the same panels."""

import os
import re
import subprocess
import sys

from arena.cli.main import app
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

HELP_ENV = {"COLUMNS": "100"}

PANELS = {
    "Play": ["play", "tournament", "ladder"],
    "Results": ["runs", "show", "ratings", "compare", "report", "export", "replay"],
    "League": ["serve", "submit", "league"],
    "Research": ["playability", "train", "experiment", "solve"],
    "Tools": ["games", "maps", "bots", "plugins", "import-aic", "check", "openspiel"],
}


def panels_of(page: str) -> dict[str, list[str]]:
    """The sections of a help page after its options, each with the command names it lists, in order."""
    found: dict[str, list[str]] = {}
    section = None
    for line in page.splitlines():
        if heading := re.fullmatch(r"(\S.*):", line):
            section = heading.group(1)
            found[section] = []
        elif section is not None and (command := re.match(r"  (\S+)", line)):
            found[section].append(command.group(1))
    found.pop("Usage", None)
    found.pop("Options", None)
    return found


def test_arena_help_lists_every_command_under_its_panel_in_order():
    result = CliRunner().invoke(app, ["--help"], env=HELP_ENV, prog_name="arena")
    assert result.exit_code == 0, result.output
    assert panels_of(result.stdout) == PANELS
    # one column of names across the panels
    assert "\n  play         Play one game" in result.stdout
    assert "\n  import-aic   Turn AI Challenge" in result.stdout


def test_a_group_lists_its_commands_in_one_section_as_before():
    result = CliRunner().invoke(app, ["check", "--help"], env=HELP_ENV, prog_name="arena")
    assert panels_of(result.stdout) == {"Commands": ["game", "bot"]}


def test_the_reference_overview_has_the_same_panels_and_commands():
    text = (REPO / "docs" / "reference" / "cli.md").read_text()
    overview = text.split("## Overview\n", 1)[1].split("\n## ", 1)[0]
    documented: dict[str, list[str]] = {}
    for section in re.split(r"^### ", overview, flags=re.MULTILINE)[1:]:
        title, _, body = section.partition("\n")
        names = re.findall(r"^\| `arena ([a-z][\w-]*)", body, re.MULTILINE)
        documented[title] = list(dict.fromkeys(names))
    assert {title: sorted(names) for title, names in documented.items()} == {
        title: sorted(names) for title, names in PANELS.items()}


def test_a_plugins_commands_go_under_the_panel_they_name_or_plugins_last(tmp_path):
    site = tmp_path / "site"
    write_module(site, "arena_panel_plugin.py", """
        import typer

        from arena import hookimpl


        @hookimpl
        def register_commands(app):
            app.command("unplaced", help="Names no panel.")(lambda: None)
            app.command("fit", help="Names a built-in panel in its own case.", rich_help_panel="research")(
                lambda: None)
            app.command("brew", help="Names a panel of its own.", rich_help_panel="Coffee")(lambda: None)
        """)
    dist = site / "arena_panel_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-panel-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[arena]\npanels = arena_panel_plugin\n")
    env = {**os.environ, **HELP_ENV,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "arena", "--help"], capture_output=True, text=True, timeout=120,
                          env=env, check=True)
    assert done.stderr == ""
    # typer lists a panel's commands before its groups (train, experiment, solve)
    assert panels_of(done.stdout) == {
        **PANELS, "Research": ["playability", "fit", "train", "experiment", "solve"], "Coffee": ["brew"],
        "Plugins": ["unplaced"]}
