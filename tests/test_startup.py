"""What a command's start-up loads: a worker process started from the ``arena`` script, and a tournament, which
renders no page, load no more than they use."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    found = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"],
                           check=True, capture_output=True, text=True).stdout
    return set(found.split())


def test_the_arena_script_loads_the_command_line_only_when_it_runs():
    # spawn runs the main script again in every worker process: the script's module must import no command
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, function = scripts["arena"].partition(":")
    loaded = modules_after(f"import {module}\nassert callable({module}.{function})")
    assert module in loaded
    assert "arena.cli.main" not in loaded and "typer" not in loaded


def test_the_command_line_does_not_load_the_page_templates_until_a_page_is_made():
    assert "jinja2" not in modules_after("import arena.cli.main")
    assert "jinja2" in modules_after("from arena.report.pages import render\nrender('base.html', title='t')")
