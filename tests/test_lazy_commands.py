"""The ``arena`` script loads only the built-in command it runs, and that command behaves as in the whole
command line: the same help page, the same one-line usage errors. Everything else (no command, ``--help``,
``--version``, a plugin's command, a typo) still gets the whole command line, plugin commands included."""

import json
import os
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest
import typer

from arena.cli.launch import COMMAND_MODULES, assemble, command_module
from arena.cli.main import app
from arena.cli.placeholders import fill_placeholders
from tests.cli_runner import CliRunner
from tests.helpers import write_module

HELP_ENV = {"COLUMNS": "100"}

SCRIPT = """
import atexit, json, sys

out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from arena.__main__ import main

main()
"""


def run_script(tmp_path, *args, env=None):
    """``arena ARGS`` through the console script's entry point in a fresh interpreter: its exit status, stdout,
    stderr, and the modules it had loaded when it exited."""
    out = tmp_path / "modules.json"
    environment = {**os.environ, **HELP_ENV, **(env or {})}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(out), *args], capture_output=True, text=True,
                          timeout=120, env=environment)
    return done.returncode, done.stdout, done.stderr, set(json.loads(out.read_text()))


def command_modules(loaded):
    """The built-in command modules among the modules ``loaded``."""
    return {name for name in loaded if name in COMMAND_MODULES}


def registered_built_in_commands(typer_app):
    """Each ``arena.cli`` module's commands in ``typer_app``, a group's as ``group command``, in order."""
    found = {}

    def add(info, prefix):
        module = info.callback.__module__
        if module.startswith("arena.cli."):
            name = info.name or typer.main.get_command_name(info.callback.__name__)
            found.setdefault(module, []).append(prefix + name)

    for info in typer_app.registered_commands:
        add(info, "")
    for group in typer_app.registered_groups:
        for info in group.typer_instance.registered_commands:
            add(info, f"{group.name} ")
    return {module: tuple(names) for module, names in found.items()}


def full_help(*path):
    """The help page of ``arena PATH`` in the whole command line."""
    result = CliRunner().invoke(app, [*path, "--help"], env=HELP_ENV, prog_name="arena")
    assert result.exit_code == 0, result.output
    return result.stdout


def whole_script_help(*path):
    """The help page of ``arena PATH`` as the whole command line's own entry point prints it."""
    done = subprocess.run([sys.executable, "-c", "from arena.cli.main import main; main()", *path, "--help"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, **HELP_ENV}, check=True)
    return done.stdout


def test_the_table_of_command_modules_is_every_built_in_command_of_the_whole_command_line():
    assert registered_built_in_commands(app) == COMMAND_MODULES


def test_each_command_module_alone_adds_exactly_the_commands_the_table_gives_it():
    # in a fresh interpreter, the modules imported one after another, each one's new commands noted
    program = dedent("""
        import importlib, json
        from arena.cli.app import app
        from arena.cli.launch import COMMAND_MODULES

        def paths():
            return [info.name or info.callback.__name__ for info in app.registered_commands] + [
                f"{group.name} {info.name}" for group in app.registered_groups
                for info in group.typer_instance.registered_commands]

        added = {}
        for module in COMMAND_MODULES:
            before = paths()
            importlib.import_module(module)
            added[module] = [path for path in paths() if path not in before]
        print(json.dumps(added))
        """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120)
    assert {module: tuple(paths) for module, paths in json.loads(done.stdout).items()} == COMMAND_MODULES


def test_the_command_line_names_the_module_of_a_built_in_command_or_asks_for_the_whole_one():
    assert command_module(["tournament", "maps/empty_room.txt", "-n", "2"]) == "arena.cli.tournament"
    assert command_module(["submit", "--help"]) == "arena.cli.serve"
    assert command_module(["check", "bot", "floodfill"]) == "arena.cli.check"
    assert command_module(["league", "rename-team", "x"]) == "arena.cli.league"
    for whole in ([], ["--help"], ["--version"], ["--version", "tournament"], ["check"], ["check", "--help"],
                  ["league", "nope"], ["train", "tron-eval"], ["tournamnet"], ["bot"], ["-n", "2"]):
        assert command_module(whole) is None, whole


@pytest.mark.parametrize(("args", "module"), [
    (("tournament", "--help"), "arena.cli.tournament"),
    (("check", "bot", "--help"), "arena.cli.check"),
    (("league", "rename-team", "--help"), "arena.cli.league"),
], ids=lambda value: " ".join(value) if isinstance(value, tuple) else value)
def test_a_built_in_command_loads_its_module_alone_and_shows_the_same_help(tmp_path, args, module):
    code, out, err, loaded = run_script(tmp_path, *args)
    assert (code, err) == (0, "")
    assert command_modules(loaded) == {module}
    assert not {"arena.cli.main", "arena.cli.serve", "arena.league.web.client"} & loaded
    assert out == whole_script_help(*args[:-1])


def test_a_built_in_command_runs_without_the_others_or_any_plugin_command(tmp_path):
    code, out, err, loaded = run_script(tmp_path, "maps")
    assert (code, err) == (0, "") and "empty_room" in out
    assert command_modules(loaded) == {"arena.cli.catalog"}
    assert "arena.builtin.tron.commands" not in loaded  # the plugin commands were not asked for


def test_a_tournament_of_another_game_registers_chess_without_importing_python_chess(tmp_path):
    db = tmp_path / "t.db"
    code, _, err, loaded = run_script(tmp_path, "tournament", "empty_room", "-b", "random,wallhugger", "--games",
                                      "2", "--db", str(db))
    assert code == 0, err
    assert "arena.games.chess.game" in loaded  # the game is registered, as every command's registry has it
    assert sorted(name for name in loaded if name.partition(".")[0] == "chess") == []


def test_anything_but_a_built_in_command_loads_the_whole_command_line(tmp_path):
    code, out, err, loaded = run_script(tmp_path, "--version")
    assert (code, err) == (0, "") and out.startswith("arena ")
    assert command_modules(loaded) == set(COMMAND_MODULES) and "arena.cli.main" in loaded
    code, out, err, loaded = run_script(tmp_path, "tournamnet")
    assert (code, out, err) == (
        2, "", "error: No such command 'tournamnet'. Did you mean 'tournament'? (see 'arena --help')\n")
    assert command_modules(loaded) == set(COMMAND_MODULES)
    code, out, err, loaded = run_script(tmp_path, "check", "--help")
    assert (code, err) == (0, "") and out == whole_script_help("check")
    assert command_modules(loaded) == set(COMMAND_MODULES)


@pytest.mark.parametrize(("args", "message"), [
    (("tournament", "--time-limit", "nan", "empty_room"),
     "Invalid value for '--time-limit': 'nan' is not a finite number (see 'arena tournament --help')"),
    (("tournament", "--seed", "-5", "empty_room"),
     "Invalid value for '--seed': a seed is a whole number from 0 to 4294967295, not -5 "
     "(see 'arena tournament --help')"),
    (("report", "--html"), "--html needs a value (FILE): write a self-contained HTML report here "
                           "(see 'arena report --help')"),
    (("compare",), "Missing argument 'NEW' (see 'arena compare --help')"),
    (("league", "teams"), "Missing argument 'FOLDER' (see 'arena league teams --help')"),
], ids=lambda value: " ".join(value) if isinstance(value, tuple) else "")
def test_usage_mistakes_through_a_lone_command_are_the_same_one_line(tmp_path, args, message):
    code, out, err, loaded = run_script(tmp_path, *args)
    assert (code, out, err) == (2, "", f"error: {message}\n")
    assert len(command_modules(loaded)) == 1
    assert list(Path.cwd().iterdir()) == []  # nothing written


@pytest.fixture
def plugin_site(tmp_path):
    """A package on the path whose ``arena`` plugin adds a command and a command to the built-in group check."""
    site = tmp_path / "site"
    write_module(site, "arena_lazy_plugin.py", """
        import typer

        from arena import hookimpl
        from arena.cli.common import command_group


        @hookimpl
        def register_commands(app):
            @app.command("hello")
            def hello(times: int = 1):
                typer.echo("hello from a plugin\\n" * times, nl=False)

            check = command_group(app, "check", "Check a game plugin or a bot against the arena's contracts.")

            @check.command("mine")
            def mine():
                \"\"\"The plugin's own check.\"\"\"
                typer.echo("the plugin's own check")
        """)
    dist = site / "arena_lazy_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-lazy-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[arena]\nlazy = arena_lazy_plugin\n")
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}


def test_plugin_commands_still_run_beside_lone_built_in_commands(tmp_path, plugin_site):
    assert run_script(tmp_path, "hello", "--times", "2", env=plugin_site)[:3] == (
        0, "hello from a plugin\nhello from a plugin\n", "")
    assert run_script(tmp_path, "check", "mine", env=plugin_site)[:3] == (0, "the plugin's own check\n", "")
    code, out, _, _ = run_script(tmp_path, "check", "--help", env=plugin_site)
    assert code == 0 and "\n  mine " in out and "\n  bot " in out
    code, out, err, loaded = run_script(tmp_path, "hello", "--times", "x", env=plugin_site)
    assert (code, out) == (2, "")
    assert err.startswith("error: Invalid value for '--times': ") and err.endswith(" (see 'arena hello --help')\n")
    code, out, err, loaded = run_script(tmp_path, "tournament", "--help", env=plugin_site)
    assert (code, err) == (0, "") and "arena_lazy_plugin" not in loaded


def test_filling_the_placeholders_again_changes_no_help_page():
    before = full_help("league", "rename-team")
    fill_placeholders(app)
    assemble(COMMAND_MODULES)
    assert full_help("league", "rename-team") == before
    assert before.count("Arguments:") == 1


def test_an_argument_type_shared_by_commands_is_described_in_each_ones_help():
    for path in (("league", "add-team"), ("league", "rename-team"), ("league", "teams")):
        assert "  FOLDER  The league's folder" in full_help(*path), path
    assert "  NAME  The team's name." in full_help("league", "rename-team")


@pytest.mark.slow
@pytest.mark.parametrize("module", list(COMMAND_MODULES))
def test_every_lone_command_module_gives_the_help_pages_of_the_whole_command_line(module):
    program = dedent(f"""
        import json, sys
        from tests.cli_runner import CliRunner
        from arena.cli.launch import COMMAND_MODULES, assemble

        app = assemble([{module!r}])
        pages = {{}}
        for path in COMMAND_MODULES[{module!r}]:
            result = CliRunner().invoke(app, [*path.split(), "--help"], env={HELP_ENV!r}, prog_name="arena")
            pages[path] = (result.exit_code, result.stdout)
        loaded = sorted(name for name in COMMAND_MODULES if name in sys.modules)
        print(json.dumps({{"pages": pages, "loaded": loaded}}))
        """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120)
    found = json.loads(done.stdout)
    assert found["loaded"] == [module]
    for path in COMMAND_MODULES[module]:
        assert found["pages"][path] == [0, full_help(*path.split())], path
