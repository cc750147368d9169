"""Tests that need a program skip saying how to install it, and ARENA_TESTS_STRICT=1 turns every skip into a
failure; Chromium is found where users have it."""

import os
import sys
from pathlib import Path

from tests.helpers import USER_DIRECTORIES
from tests.needs import find_chromium, playwright_browser_dirs

pytest_plugins = ["pytester"]

MISSING = "arena-no-such-program"
SKIPPING = f"""
import pytest

from tests.needs import need_programs


@pytest.mark.needs("sh", "{MISSING}")
def test_marked():
    pass


def test_asks():
    need_programs("{MISSING}")


def test_skips_for_its_own_reason():
    pytest.skip("no reason at all")


def test_has_all_it_needs():
    need_programs("sh")


@pytest.mark.xfail(reason="known")
def test_expected_to_fail():
    assert False
"""


def run(pytester, monkeypatch, strict, *files):
    if strict is None:
        monkeypatch.delenv("ARENA_TESTS_STRICT", raising=False)
    else:
        monkeypatch.setenv("ARENA_TESTS_STRICT", strict)
    for name, text in files:
        pytester.makepyfile(**{name: text})
    return pytester.runpytest("-p", "tests.needs", "-p", "tests.strict_skips", "-rs", "-W", "ignore")


def test_a_missing_program_skips_with_how_to_install_it(pytester, monkeypatch):
    result = run(pytester, monkeypatch, None, ("test_skipping", SKIPPING))
    assert result.parseoutcomes() == {"passed": 1, "skipped": 3, "xfailed": 1}
    assert result.ret == 0
    result.stdout.fnmatch_lines([f"SKIPPED [[]2[]] *: needs {MISSING} on PATH: apt-get install {MISSING}"])
    result = run(pytester, monkeypatch, "0", ("test_skipping", SKIPPING))
    assert result.parseoutcomes() == {"passed": 1, "skipped": 3, "xfailed": 1}


def test_strict_mode_fails_every_skip(pytester, monkeypatch):
    result = run(pytester, monkeypatch, "1", ("test_skipping", SKIPPING))
    # the mark skips in the test's setup (an error), the calls in the test itself (a failure)
    assert result.parseoutcomes() == {"passed": 1, "failed": 2, "errors": 1, "xfailed": 1}
    assert result.ret == 1
    result.stdout.fnmatch_lines([
        f"skipped, which ARENA_TESTS_STRICT=1 makes a failure: needs {MISSING} on PATH: apt-get install {MISSING}",
        "skipped, which ARENA_TESTS_STRICT=1 makes a failure: no reason at all"])


def test_strict_mode_fails_a_module_that_skips_whole(pytester, monkeypatch):
    module = ("test_whole", "import pytest\npytest.skip('not here', allow_module_level=True)\n\n"
                            "def test_never():\n    pass\n")
    assert run(pytester, monkeypatch, None, module).parseoutcomes() == {"skipped": 1}
    result = run(pytester, monkeypatch, "1", module)
    assert result.parseoutcomes() == {"errors": 1}
    result.stdout.fnmatch_lines(["skipped, which ARENA_TESTS_STRICT=1 makes a failure: not here"])


def executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_chromium_is_found_as_debian_playwright_or_path_has_it(tmp_path):
    debian = tmp_path / "usr" / "bin" / "chromium"
    browsers = tmp_path / "browsers"
    on_path = tmp_path / "bin"
    environ = {"PLAYWRIGHT_BROWSERS_PATH": str(browsers), "PATH": str(on_path), "HOME": str(tmp_path / "home")}
    assert find_chromium(environ, debian) is None
    chrome = executable(on_path / "google-chrome")
    assert find_chromium(environ, debian) == chrome
    executable(browsers / "chromium_headless_shell-1255" / "chrome-headless-shell-linux64" / "chrome-headless-shell")
    shell = executable(browsers / "chromium_headless_shell-1300" / "chrome-headless-shell-linux64"
                       / "chrome-headless-shell")
    assert find_chromium(environ, debian) == shell  # Playwright's own before PATH's, its newest revision
    (browsers / "chromium-1400" / "chrome-linux64").mkdir(parents=True)
    (browsers / "chromium-1400" / "chrome-linux64" / "chrome").write_text("")  # not executable: unfinished
    older = executable(browsers / "chromium-999" / "chrome-linux64" / "chrome")
    assert find_chromium(environ, debian) == older  # a full Chromium before a headless shell
    newer = executable(browsers / "chromium-1255" / "chrome-linux" / "chrome")
    assert find_chromium(environ, debian) == newer  # revision 1255 is newer than 999, though it sorts before it
    executable(debian)
    assert find_chromium(environ, debian) == debian


def test_playwright_keeps_its_browsers_where_its_environment_says():
    home = {"HOME": "/home/user"}
    linux = [Path("/home/user/.cache/ms-playwright")] if sys.platform == "linux" else playwright_browser_dirs(home)
    assert playwright_browser_dirs(home) == linux
    if sys.platform == "linux":
        assert playwright_browser_dirs({**home, "XDG_CACHE_HOME": "/x"}) == [Path("/x/ms-playwright")]
    assert playwright_browser_dirs({**home, "PLAYWRIGHT_BROWSERS_PATH": "/b"}) == [Path("/b")]
    package = playwright_browser_dirs({**home, "PLAYWRIGHT_BROWSERS_PATH": "0"})
    assert [path.name for path in package] == [".local-browsers"]


def test_caches_and_settings_are_kept_out_of_the_home_directory():
    home = Path.home()
    defaults = [home / ".cache", home / ".config", home / ".local"]
    for name in USER_DIRECTORIES:
        assert not any(Path(os.environ[name]).is_relative_to(default) for default in defaults), name
    import matplotlib

    assert matplotlib.get_cachedir() == matplotlib.get_configdir() == os.environ["MPLCONFIGDIR"]
