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


def leave_with(code: str, thread: bool = False) -> subprocess.CompletedProcess[str]:
    """Run a program that registers an exit handler, keeps an object whose teardown prints, and leaves with
    ``code`` through the script's exit (beside a running thread with ``thread``)."""
    program = f"""
import atexit, sys, threading
from arena.__main__ import leave

class Noisy:
    def __del__(self):
        print("torn down")

kept = Noisy()
atexit.register(lambda: print("exit handler ran"))
if {thread}:
    stop = threading.Event()
    threading.Thread(target=stop.wait, daemon=True).start()
print("output", end=" ")
leave({code})
"""
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)


def test_the_script_exits_with_its_status_after_the_exit_handlers_without_tearing_down():
    left = leave_with("3")
    assert (left.returncode, left.stdout, left.stderr) == (3, "output exit handler ran\n", "")
    left = leave_with("None")
    assert (left.returncode, left.stdout) == (0, "output exit handler ran\n")
    left = leave_with("'error: a message'")
    assert (left.returncode, left.stderr) == (1, "error: a message\n")


def test_beside_another_thread_the_script_exits_the_usual_way():
    left = leave_with("4", thread=True)
    assert (left.returncode, left.stdout, left.stderr) == (4, "output exit handler ran\ntorn down\n", "")


def test_under_a_profiler_the_script_exits_once_the_profile_is_written(tmp_path):
    program = tmp_path / "program.py"
    program.write_text("from arena.__main__ import leave\nleave(4)\n")
    profile = tmp_path / "program.prof"
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), str(program)], capture_output=True,
                   timeout=60)
    assert profile.stat().st_size > 0  # cProfile itself ends with status 0 whatever the program's


def test_the_tournament_command_loads_no_markdown_tables_until_asked():
    assert "tabulate" not in modules_after("from arena.cli.launch import assemble\nassemble(['arena.cli.tournament'])")


def test_the_script_loads_the_command_line_without_collecting_and_sets_it_aside():
    program = """
import gc, sys
import arena.cli.launch as launch

collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
running = launch.run

def run(app, argv):
    print(len(collections), gc.get_freeze_count(), gc.isenabled(), flush=True)
    return running(app, argv)

launch.run = run
from arena.__main__ import run_command_line
run_command_line(sys.argv[1:])
"""
    for argv in (["maps"], ["--version"]):  # one command's module, and the whole command line
        shown = subprocess.run([sys.executable, "-c", program, *argv], capture_output=True, text=True, check=True)
        collected, frozen, enabled = shown.stdout.split()[:3]
        assert collected == "0"  # nothing was collected while the command line loaded
        assert int(frozen) > 20_000  # what it loaded is set aside for good
        assert enabled == "True"  # and the command itself runs with the collector on
