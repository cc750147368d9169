"""What some tests need from the machine beyond Python: programs on PATH and a Chromium to drive.

A test that lacks one skips with a one-line reason saying how to install it; under ``ARENA_TESTS_STRICT=1``
(see :mod:`tests.strict_skips`) that skip is a failure instead. A test names the programs it needs with
``@pytest.mark.needs("gcc", "node")``, or calls :func:`need_programs` or :func:`need_chromium`; this module is
also the pytest plugin that reads the mark (tests/conftest.py loads it).
"""

import json
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

SAVED_DIRECTORIES = "ARENA_TESTS_USER_DIRECTORIES"
"""Where tests/conftest.py keeps, as JSON, the values its session replaced with temporary directories, so a
parallel worker (started with the session's environment) still knows the user's own."""


def _user_environ() -> dict[str, str]:
    environ = dict(os.environ)
    saved = environ.pop(SAVED_DIRECTORIES, None)
    for name, value in (json.loads(saved) if saved else {}).items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return environ


# The environment as the user set it, taken before the test session points the caches at temporary
# directories, so Playwright's own browsers are looked for where the user installed them.
USER_ENVIRON = _user_environ()

DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ON_PATH = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_HINT = "apt-get install chromium, or pip install playwright && playwright install chromium"

# Debian's packages that put each program on PATH
APT_PACKAGES = {"gcc": ("gcc", "libc6-dev"), "node": ("nodejs",), "bwrap": ("bubblewrap",), "stockfish": ("stockfish",),
                "ethereal-chess": ("ethereal-chess",), "gnuchess": ("gnuchess",)}
GAMES_DIRECTORY = "/usr/games"
"""Where Debian puts games' programs (chess engines), often not on PATH: looked in after PATH."""

# A Chromium inside a Playwright browser directory (Linux's layouts, then macOS's), and its headless shell,
# which is all a browser installed with --only-shell has
PLAYWRIGHT_CHROMIUMS = (
    "chromium-*/chrome-linux64/chrome",
    "chromium-*/chrome-linux/chrome",
    "chromium-*/chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "chromium-*/chrome-mac/Chromium.app/Contents/MacOS/Chromium",
)
PLAYWRIGHT_HEADLESS_SHELLS = (
    "chromium_headless_shell-*/chrome-headless-shell-*/chrome-headless-shell",
    "chromium_headless_shell-*/chrome-linux/headless_shell",
)


def pytest_runtest_setup(item):
    """A test marked ``needs("gcc", ...)`` skips unless those programs are on PATH."""
    for mark in item.iter_markers("needs"):
        need_programs(*mark.args)


def need_programs(*names: str) -> None:
    """Skip the calling test unless every program in ``names`` is on PATH, saying how to install the rest."""
    missing = [name for name in names if program_path(name) is None]
    if missing:
        packages = " ".join(package for name in missing for package in APT_PACKAGES.get(name, (name,)))
        pytest.skip(f"needs {' and '.join(missing)} on PATH: apt-get install {packages}")


def program_path(name: str) -> str | None:
    """Where the program ``name`` is: on PATH, else in Debian's /usr/games; ``None`` if in neither."""
    return shutil.which(name) or shutil.which(name, path=GAMES_DIRECTORY)


def need_chromium() -> str:
    """The path of a Chromium for Playwright to drive; skips the calling test when there is none, or no
    Playwright."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip(f"needs the playwright package and Chromium: pip install playwright, and {CHROMIUM_HINT}")
    found = find_chromium()
    if found is None:
        pytest.skip(f"needs Chromium: {CHROMIUM_HINT}")
    return str(found)


def find_chromium(environ: Mapping[str, str] = USER_ENVIRON, debian: Path = DEBIAN_CHROMIUM) -> Path | None:
    """Where a Chromium is: Debian's, Playwright's own (its newest, a full browser before a headless shell), or
    one on PATH; None if there is none."""
    if _executable(debian):
        return debian
    for directory in playwright_browser_dirs(environ):
        for patterns in (PLAYWRIGHT_CHROMIUMS, PLAYWRIGHT_HEADLESS_SHELLS):
            found = [path for pattern in patterns for path in directory.glob(pattern)]
            for path in sorted(found, key=lambda path: _revision(path, directory), reverse=True):
                if _executable(path):
                    return path
    for name in CHROMIUM_ON_PATH:
        path = shutil.which(name, path=environ.get("PATH", os.defpath))
        if path is not None:
            return Path(path)
    return None


def playwright_browser_dirs(environ: Mapping[str, str] = USER_ENVIRON) -> list[Path]:
    """The directories ``playwright install`` puts browsers in, for the user whose environment is ``environ``."""
    chosen = environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if chosen == "0":  # browsers kept inside the playwright package itself
        try:
            import playwright
        except ImportError:
            return []
        return [Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers"]
    if chosen:
        return [Path(chosen).expanduser()]
    home = Path(environ.get("HOME") or Path.home())
    if sys.platform == "darwin":
        return [home / "Library" / "Caches" / "ms-playwright"]
    if sys.platform == "win32":
        return [Path(environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "ms-playwright"]
    return [Path(environ.get("XDG_CACHE_HOME") or home / ".cache") / "ms-playwright"]


def _revision(path: Path, directory: Path) -> int:
    """The revision Playwright names a browser's directory after (``chromium-1255``)."""
    number = path.relative_to(directory).parts[0].rpartition("-")[2]
    return int(number) if number.isdigit() else -1


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)
