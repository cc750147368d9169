"""A user's bot modules are tried in a child process first: one that loops, exits, crashes or raises at its
top level is reported in one line and skipped, the others load and play, and what was found is cached."""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from textwrap import dedent

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.plugins.registry import PluginConfig, load_registry
from tests.cli_runner import CliRunner
from tests.helpers import write_module

GOOD = dedent("""
    from arena import bot

    @bot(name={name!r}, game="tron")
    def first_safe(obs, rng):
        \"\"\"The first safe move.\"\"\"
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """)

COUNTED = dedent("""
    with open({counter!r}, "a") as counter:
        counter.write("imported\\n")
    """) + GOOD

MISBEHAVING = {
    "loops.py": "with open({counter!r}, 'a') as counter:\n    counter.write('imported\\n')\nwhile True:\n    pass\n",
    "exits.py": "import os\nos._exit(0)\n",
    "quits.py": "import sys\nsys.exit(3)\n",
    "segfaults.py": "import ctypes\nctypes.string_at(0)\n",
    "raises.py": "raise RuntimeError('module-level failure')\n",
    "interrupts.py": "raise KeyboardInterrupt\n",
    "forks.py": ("import os, time\npid = os.fork()\nif pid == 0:\n    time.sleep(1000)\n"
                 "with open({pids!r}, 'a') as pids:\n    pids.write(f'{{pid}}\\n')\n"),
    "floods.py": "import sys\nsys.stdout.write('x' * 10_000_000)\nsys.stderr.write('y' * 10_000_000)\n" + GOOD,
}


def arena(*args, cache, limit="2"):
    """Run the arena command line in a process of its own; bot modules get ``limit`` seconds to import (the
    looping one waits it out twice, and the modules that share a check with it import in well under half a
    second)."""
    env = {**os.environ, "ARENA_CACHE": str(cache), "ARENA_IMPORT_TIMEOUT": limit}
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.slow
def test_misbehaving_modules_are_reported_in_one_line_each_while_the_good_bot_lists_and_plays(tmp_path):
    bots, cache, counter, pids = Path.cwd() / "bots", tmp_path / "cache", tmp_path / "counter", tmp_path / "pids"
    write_module(bots, "good.py", GOOD.format(name="good"))
    for name, source in MISBEHAVING.items():
        write_module(bots, name, source.format(counter=str(counter), pids=str(pids), name="floods"))

    listed = arena("bots", "-f", "json", cache=cache)
    assert listed.returncode == 0, listed.stderr
    problems = [
        ("loops.py", "still importing after 2 s (does its top level loop or wait?)"),
        ("exits.py", "ended the Python process importing it (exit status 0)"),
        ("quits.py", "SystemExit: 3"),
        ("segfaults.py", "crashed the Python process importing it (signal SIGSEGV)"),
        ("raises.py", "RuntimeError: module-level failure"),
        ("interrupts.py", "KeyboardInterrupt"),
    ]
    assert sorted(listed.stderr.splitlines()) == sorted(
        f"warning: {bots / name}: {problem}; skipped" for name, problem in problems)
    found = {row["bot"]: row["found in"] for row in json.loads(listed.stdout)}
    assert found["good"] == "bots/good.py" and found["floods"] == "bots/floods.py"
    assert "forks" not in found  # it defines no bot, and the child it forked is gone with the check
    [forked] = lines_of(pids)
    assert not alive(int(forked))
    checks_of_the_looping_module = lines_of(counter)
    assert checks_of_the_looping_module  # (twice: first it shared its time limit with the modules before it)

    played = arena("tournament", "empty_room", "-b", "good,random", "-n", "2", "--db", str(tmp_path / "t.db"),
                   "-f", "json", cache=cache)
    assert played.returncode == 0, played.stderr
    assert {row["bot"] for row in json.loads(played.stdout)["standings"]} == {"good", "random"}
    assert sum("; skipped" in line for line in played.stderr.splitlines()) == 6
    assert lines_of(counter) == checks_of_the_looping_module  # the second command asked the cache


def counted_registry(bots: Path):
    return load_registry(PluginConfig(bot_dirs=(str(bots),), use_cwd_bots=False, use_env_path=False))


def test_what_a_check_found_is_reused_until_the_module_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "cache"))
    bots, counter = tmp_path / "bots", tmp_path / "counter"
    module = write_module(bots, "counted.py", COUNTED.format(counter=str(counter), name="counted"))

    registry = counted_registry(bots)
    assert registry.bot("counted").description == "The first safe move."
    assert lines_of(counter) == ["imported"]  # by the check; listing the bot did not import it here
    [cached] = (tmp_path / "cache" / "bot-modules").glob("*.json")
    assert json.loads(cached.read_text())["bots"][0]["name"] == "counted"

    registry = counted_registry(bots)
    assert registry.bot("counted").games == ("tron",)
    assert lines_of(counter) == ["imported"]  # the second load asked the cache

    assert registry.bot("counted").cls.name == "counted"
    assert lines_of(counter) == ["imported"] * 2  # used: imported in this process now

    module.write_text(module.read_text() + "# edited\n")
    counted_registry(bots)
    assert lines_of(counter) == ["imported"] * 3  # the edited module was checked again
    counted_registry(bots)
    assert lines_of(counter) == ["imported"] * 3


def test_a_corrupt_or_unwritable_cache_is_checked_again_never_fatal(tmp_path, monkeypatch):
    bots, counter, cache = tmp_path / "bots", tmp_path / "counter", tmp_path / "cache"
    write_module(bots, "counted.py", COUNTED.format(counter=str(counter), name="counted"))
    monkeypatch.setenv("ARENA_CACHE", str(cache))
    counted_registry(bots)
    for entry in (cache / "bot-modules").glob("*.json"):
        entry.write_text('{"bots": [{"name": ')
    registry = counted_registry(bots)
    assert "counted" in registry.bots and registry.problems == []
    assert lines_of(counter) == ["imported"] * 2
    counted_registry(bots)
    assert lines_of(counter) == ["imported"] * 2  # the corrupt entry was written afresh

    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    monkeypatch.setenv("ARENA_CACHE", str(not_a_directory))
    for _ in range(2):
        registry = counted_registry(bots)
        assert "counted" in registry.bots and registry.problems == []
    assert lines_of(counter) == ["imported"] * 4


def test_a_module_over_the_time_limit_is_checked_again_under_a_longer_one(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "cache"))
    bots, counter, flag = tmp_path / "bots", tmp_path / "counter", tmp_path / "wait"
    flag.write_text("")
    write_module(bots, "waits.py", f"import os, time\nwhile os.path.exists({str(flag)!r}):\n    time.sleep(0.01)\n"
                 + COUNTED.format(counter=str(counter), name="waits"))
    monkeypatch.setenv("ARENA_IMPORT_TIMEOUT", "1")
    assert counted_registry(bots).problems == [
        f"{bots / 'waits.py'}: still importing after 1 s (does its top level loop or wait?); skipped"]
    flag.unlink()
    assert len(counted_registry(bots).problems) == 1  # cached: the same limit is not tried again
    assert lines_of(counter) == []
    monkeypatch.setenv("ARENA_IMPORT_TIMEOUT", "30")
    registry = counted_registry(bots)
    assert registry.problems == [] and "waits" in registry.bots
    assert lines_of(counter) == ["imported"]


def test_a_module_that_changes_after_its_check_fails_in_one_line_when_used(tmp_path):
    module = write_module(tmp_path / "bots", "fickle.py", GOOD.format(name="fickle"))
    registry = counted_registry(tmp_path / "bots")
    module.write_text("raise RuntimeError('changed since')\n")
    with pytest.raises(ArenaError, match=r"^bot 'fickle': .*fickle\.py: RuntimeError: changed since$"):
        registry.bot("fickle").cls  # noqa: B018 - loading the class is what fails


@pytest.mark.parametrize("value", ["nan", "-1", "0", "soon", "inf"])
def test_a_bad_import_time_limit_is_a_one_line_error(value, monkeypatch):
    write_module(Path.cwd() / "bots", "good.py", GOOD.format(name="good"))
    monkeypatch.setenv("ARENA_IMPORT_TIMEOUT", value)
    result = CliRunner().invoke(app, ["bots"])
    assert result.exit_code != 0
    assert result.stderr == f"error: ARENA_IMPORT_TIMEOUT={value}: expected a number of seconds above 0\n"


def test_a_process_with_threads_checks_in_a_fresh_python(tmp_path, monkeypatch):
    # forking a process that runs other threads is not safe, so the check starts a new interpreter then
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "cache"))
    write_module(tmp_path / "bots", "good.py", GOOD.format(name="good"))
    write_module(tmp_path / "bots", "exits.py", MISBEHAVING["exits.py"])
    write_module(tmp_path / "bots", "segfaults.py", MISBEHAVING["segfaults.py"])
    argv = tmp_path / "argv"
    write_module(tmp_path / "bots", "argv.py", f"import sys\nopen({str(argv)!r}, 'w').write(sys.argv[0])\n")
    release = threading.Event()
    waiting = threading.Thread(target=release.wait)
    waiting.start()
    try:
        registry = counted_registry(tmp_path / "bots")
    finally:
        release.set()
        waiting.join()
    assert sorted(registry.problems) == [
        f"{tmp_path / 'bots' / 'exits.py'}: ended the Python process importing it (exit status 0); skipped",
        f"{tmp_path / 'bots' / 'segfaults.py'}: crashed the Python process importing it (signal SIGSEGV); skipped"]
    assert registry.bot("good").cls.name == "good"
    assert argv.read_text() == "-c"  # run by `python -c`, not a fork of this process
