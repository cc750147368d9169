"""A build's cost is bounded: its output is read as it comes and capped (the head and the tail kept, the bytes
between counted), and a sandboxed build works in a folder of ``build_bytes`` in memory, so it writes nothing to
the host's disk but what fits, and only what it made comes back."""

import json
import os
import re
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from arena.cli.main import app
from arena.league.facade import League
from arena.league.settings import read_settings
from arena.play.sandbox import SandboxLimits, build_in_sandbox
from arena.play.sandbox.build import BUILD_FILES, ProductError, _receive_products
from arena.tournament.definition import load_definition
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

MB = 1 << 20
PRINTED = 200_000_000
"""What the loud build prints between its first and last words."""
LOUD = ("import sys; w = sys.stdout.buffer.write; w(b'BEGIN'); "
        f"[w(b'x' * 1_000_000) for _ in range({PRINTED // 1_000_000})]; w(b'END'); sys.exit(3)")
KEPT = 32 << 10


PEAK = "int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) * 1024"
"""The peak resident memory of this process's own memory: not ``ru_maxrss``, which keeps the peak of the
forked parent it was before it started Python (the test process, large after a whole suite)."""


def expected_log() -> str:
    total = len("BEGIN") + PRINTED + len("END")
    return ("BEGIN" + "x" * (KEPT - 5) + f"\n... {total - 2 * KEPT:,} bytes dropped ...\n"
            + "x" * (KEPT - 3) + "END")


def in_child(code: str) -> dict:
    """Run ``code`` in a fresh Python (which prints one JSON line) and return what it printed."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def loud_folder(folder: Path) -> Path:
    write_module(folder, "arena-bot.toml", f"""
        name = "loud"
        games = ["tron"]
        command = ["python3", "bot.py"]
        build = {json.dumps(["python3", "-c", LOUD])}
    """)
    return folder


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_sandboxed_build_printing_200_mb_keeps_its_head_and_tail_in_bounded_memory(tmp_path):
    folder = loud_folder(tmp_path / "loud")
    seen = in_child(f"""
        import json
        from arena.play.sandbox import build_in_sandbox
        log = build_in_sandbox({str(folder)!r})
        peak = {PEAK}
        print(json.dumps({{"ok": log.ok, "error": log.error, "output": log.output, "peak": peak}}))
    """)
    assert seen["peak"] < 120 * MB, seen["peak"]  # the output is 200 MB
    assert seen["ok"] is False and seen["output"] == expected_log()
    assert seen["error"] == f"python3 -c {LOUD} ended with exit status 3: " + " | ".join(expected_log().splitlines())


@pytest.mark.slow
def test_a_build_run_here_printing_200_mb_is_read_in_bounded_memory(tmp_path):
    folder = loud_folder(tmp_path / "loud")
    seen = in_child(f"""
        import json
        from pathlib import Path
        from arena.core.failure import BotFailure
        from arena.plugins.programs.build import ensure_built
        from arena.plugins.programs.manifest import read_manifest
        try:
            ensure_built(read_manifest(Path({str(folder)!r}) / "arena-bot.toml").program)
            error = ""
        except BotFailure as failure:
            error = failure.detail
        peak = {PEAK}
        print(json.dumps({{"error": error, "peak": peak}}))
    """)
    assert seen["peak"] < 120 * MB, seen["peak"]
    assert seen["error"] == (f"its build failed: python3 -c {LOUD} ended with exit status 3: "
                             + " | ".join(expected_log().splitlines()))


def filler_folder(folder: Path, files: int, size: int, stem: str = "blob") -> Path:
    """A bot whose build writes ``files`` files of ``size`` bytes each (``stem`` and a number), stopping at the
    first that fails."""
    fill = f"for i in range({files}): open(f'{stem}{{i}}', 'wb').write(b'z' * {size})"
    write_module(folder, "arena-bot.toml", f"""
        name = "filler"
        games = ["tron"]
        command = ["python3", "bot.py"]
        build = {json.dumps(["python3", "-c", fill])}
    """)
    write_module(folder, "bot.py", "print('not played')\n")
    return folder


def large_files(*roots: Path) -> list[Path]:
    """Files of a megabyte or more under ``roots`` (a file or folder another process removes meanwhile is
    passed over)."""
    found = []
    for root in roots:
        for directory, _, names in os.walk(root):
            for name in names:
                path = Path(directory) / name
                try:
                    status = path.lstat()
                except OSError:
                    continue
                if stat.S_ISREG(status.st_mode) and status.st_size >= MB:
                    found.append(path)
    return found


@pytest.mark.needs("bwrap")
def test_a_build_stops_at_build_bytes_and_leaves_nothing_large_on_the_host(tmp_path):
    # named after this test process, so that the large files other tests (and other test runs on the
    # machine) write into the temporary directory meanwhile are never taken for this build's
    stem = f"blob-{os.getpid()}-"
    folder = filler_folder(tmp_path / "filler", 20, 3 * MB, stem=stem)
    temp = Path(subprocess.check_output([sys.executable, "-c", "import tempfile; print(tempfile.gettempdir())"],
                                        text=True).strip())
    log = build_in_sandbox(folder, limits=SandboxLimits(build_bytes=8 * MB))
    assert not log.ok
    assert "No space left on device" in log.error and "at most 8,388,608 bytes: build_bytes" in log.error
    assert large_files(folder) == [] and [path for path in large_files(temp) if path.name.startswith(stem)] == []


@pytest.mark.needs("bwrap")
def test_what_fits_comes_back_and_files_left_as_they_were_are_not_rewritten(tmp_path):
    folder = filler_folder(tmp_path / "filler", 3, 2 * MB)
    source = folder / "bot.py"
    stamp = source.stat().st_mtime_ns
    log = build_in_sandbox(folder, limits=SandboxLimits(build_bytes=8 * MB))
    assert log.ok, log.error
    assert sorted(path.name for path in large_files(folder)) == ["blob0", "blob1", "blob2"]
    assert (folder / "blob2").read_bytes() == b"z" * 2 * MB and source.stat().st_mtime_ns == stamp


@pytest.mark.needs("bwrap")
def test_a_build_cannot_forge_the_stream_its_files_come_back_in(tmp_path):
    forge = ("import os\ntry:\n    out = open(f'/proc/{os.getppid()}/fd/1', 'wb')\nexcept OSError:\n    pass\n"
             "else:\n    out.write(b'99999999999 755 ./huge\\0' + b'y' * 4096)\n    out.close()\n")
    write_module(tmp_path / "forger", "arena-bot.toml", f"""
        name = "forger"
        games = ["tron"]
        command = ["python3", "bot.py"]
        build = {json.dumps(["python3", "-c", forge])}
    """)
    log = build_in_sandbox(tmp_path / "forger", limits=SandboxLimits(build_bytes=8 * MB))
    assert log.ok or log.error.endswith("its folder holds more than 8,388,608 bytes (build_bytes)"), log.error
    assert sorted(path.name for path in (tmp_path / "forger").iterdir()) == ["arena-bot.toml"]


@pytest.mark.parametrize(("stream", "problem", "written"), [
    (b"99999999999 644 ./huge\0\0", "its folder holds more than 1,048,576 bytes (build_bytes)", []),
    (b"5 644 ./a\0\0abc", "its files came back cut short", []),
    (b"3 644 ./a\0\0abcdef", "its files came back garbled", ["a"]),
    (b"x" * 9000, "its files came back garbled", []),
    (b"3 644 ./a\0", "its files came back cut short", []),
])
def test_the_stream_of_a_builds_files_is_read_within_bounds(tmp_path, stream, problem, written):
    read, write = os.pipe()
    feeder = threading.Thread(target=lambda: (os.write(write, stream), os.close(write)))
    feeder.start()
    with open(read, "rb") as raw, pytest.raises(ProductError, match=f"^{re.escape(problem)}$"):
        _receive_products(raw, tmp_path, MB)
    feeder.join()
    assert sorted(path.name for path in tmp_path.iterdir()) == written


def test_a_builds_files_come_back_only_inside_the_folder_and_never_through_a_link(tmp_path):
    folder = tmp_path / "bot"
    (folder / "sub").mkdir(parents=True)
    (folder / "out").symlink_to(tmp_path)
    (folder / "old").write_bytes(b"before")
    stream = (b"3 755 ./new\0" b"2 644 ../escape\0" b"2 644 ./out/x\0" b"6 644 ./old\0" b"1 600 sub/y\0\0"
              b"abc" b"no" b"no" b"beforE" b"y")
    read, write = os.pipe()
    feeder = threading.Thread(target=lambda: (os.write(write, stream), os.close(write)))
    feeder.start()
    with open(read, "rb") as raw:
        _receive_products(raw, folder, MB)
    feeder.join()
    assert (folder / "new").read_bytes() == b"abc" and (folder / "new").stat().st_mode & 0o777 == 0o755
    assert (folder / "old").read_bytes() == b"beforE" and (folder / "sub" / "y").read_bytes() == b"y"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bot"]
    assert sorted(path.name for path in folder.iterdir()) == ["new", "old", "out", "sub"]


@pytest.mark.needs("bwrap")
def test_a_build_making_too_many_files_is_stopped(tmp_path):
    make = f"for i in range({BUILD_FILES + 1}): open(f'f{{i}}', 'w').close()"
    write_module(tmp_path / "many", "arena-bot.toml", f"""
        name = "many"
        games = ["tron"]
        command = ["python3", "bot.py"]
        build = {json.dumps(["python3", "-c", make])}
    """)
    log = build_in_sandbox(tmp_path / "many")
    assert not log.ok and log.error.endswith(f"its folder holds more than {BUILD_FILES:,} files"), log.error
    assert sorted(path.name for path in (tmp_path / "many").iterdir()) == ["arena-bot.toml"]


@pytest.mark.needs("bwrap", "gcc")
def test_a_c_build_still_builds_and_its_program_runs(tmp_path):
    folder = tmp_path / "c"
    write_module(folder, "bot.c", '#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n')
    write_module(folder, "arena-bot.toml", """
        name = "c"
        games = ["tron"]
        command = ["./bot"]
        build = ["gcc", "-O2", "-o", "bot", "bot.c"]
    """)
    (folder / "src").mkdir()
    (folder / "src" / "link").symlink_to("../bot.c")
    log = build_in_sandbox(folder)
    assert log.ok, log.error
    assert subprocess.run([str(folder / "bot")], capture_output=True, text=True).stdout == "built\n"
    assert (folder / "src" / "link").is_symlink() and sorted(p.name for p in folder.iterdir()) == [
        "arena-bot.toml", "bot", "bot.c", "src"]


def test_build_bytes_is_a_league_setting_and_a_tournament_sandbox_limit(tmp_path):
    league, _ = League.create(tmp_path / "league", "tron", ["empty_room"], seed=1)
    league.close()
    settings = tmp_path / "league" / "league.toml"
    assert "build_bytes = 268435456" in settings.read_text()
    settings.write_text(settings.read_text().replace("build_bytes = 268435456", "build_bytes = 8388608"))
    assert read_settings(tmp_path / "league").build_bytes == 8 * MB
    (tmp_path / "t.toml").write_text('maps = ["empty_room"]\nsandbox = {build_bytes = "8M"}\n')
    assert load_definition(tmp_path / "t.toml").sandbox == SandboxLimits(build_bytes=8 * MB)
    assert SandboxLimits().as_json() == {key: value for key, value in SandboxLimits(build_bytes=1).as_json().items()
                                         if key != "build_bytes"}


@pytest.mark.slow
@pytest.mark.needs("bwrap")
def test_a_league_submission_and_a_tournament_build_are_held_to_their_build_bytes(tmp_path):
    league, _ = League.create(tmp_path / "league", "tron", ["empty_room"], seed=1)
    league.close()
    settings = tmp_path / "league" / "league.toml"
    settings.write_text(settings.read_text().replace("build_bytes = 268435456", "build_bytes = 8388608"))
    with League.open(tmp_path / "league") as league:
        alice = league.authenticate(league.add_team("alice"))
        version = league.submit(alice, filler_folder(tmp_path / "submitted", 20, 3 * MB))
    assert version.status == "failed" and "at most 8,388,608 bytes: build_bytes" in version.build_log
    bots = tmp_path / "bots"
    filler_folder(bots / "filler", 20, 3 * MB)
    (tmp_path / "t.toml").write_text(f'maps = ["{REPO / "maps" / "empty_room.txt"}"]\n'
                                     'bots = ["filler", "random", "wallhugger"]\ngames = 1\nworkers = 1\n'
                                     'sandbox = {build_bytes = "8M"}\n')
    result = CliRunner().invoke(app, ["tournament", str(tmp_path / "t.toml"), "--bots-dir", str(bots),
                                      "--db", str(tmp_path / "runs.db")])
    assert result.exit_code == 0, result.output
    assert "bot filler left out: its build failed:" in result.output and "build_bytes" in result.output
    assert large_files(bots) == []
