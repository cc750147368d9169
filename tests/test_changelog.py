"""The changelog: one fragment file per unreleased change in ``changelog.d/``, rendered by towncrier into
``CHANGELOG.md`` at a release; dated releases with no entry twice; and the commit-message check."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRAGMENTS = ROOT / "changelog.d"
HOOK = ROOT / ".githooks" / "commit-msg"


def fragment_types() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["towncrier"]
    return {kind["directory"] for kind in config["type"]}


def fragment_problems(names: list[str], types: set[str]) -> list[str]:
    """The fragment file names towncrier would not take as ``+slug.TYPE.md`` or ``NUMBER.TYPE.md``."""
    return [name for name in names
            if not (match := re.fullmatch(r"(\+[a-z0-9-]+|\d+)\.([a-z]+)\.md", name)) or match[2] not in types]


def test_every_fragment_is_named_for_a_change_type():
    names = sorted(path.name for path in FRAGMENTS.iterdir() if path.name != ".gitignore")
    assert names, "changelog.d/ holds the unreleased changes"
    assert fragment_problems(names, fragment_types()) == []


def test_the_name_checker_sees_a_wrong_fragment():
    assert fragment_problems(["+ok.added.md", "12.fixed.md", "+x.feature.md", "notes.md", "+Caps.added.md"],
                             {"added", "fixed"}) == ["+x.feature.md", "notes.md", "+Caps.added.md"]


def test_each_fragment_is_one_entry_without_its_own_bullet():
    for path in FRAGMENTS.glob("*.md"):
        text = path.read_text()
        assert text.strip(), f"{path.name} is empty"
        assert not text.startswith(("- ", "* ", "#")), f"{path.name}: towncrier adds the bullet and the heading"


def test_towncrier_renders_every_fragment_into_the_next_release(tmp_path):
    draft = subprocess.run([sys.executable, "-m", "towncrier", "build", "--draft", "--version", "9.9.9"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert re.search(r"^## \[9\.9\.9\] - \d{4}-\d{2}-\d{2}$", draft, re.MULTILINE)
    flat = " ".join(draft.split())
    for path in FRAGMENTS.glob("*.md"):
        assert " ".join(path.read_text().split()) in flat, f"{path.name} is missing from the draft"


def test_every_release_is_dated_and_no_entry_is_there_twice():
    text = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## (.*)$", text, re.MULTILINE)
    assert releases and all(re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", r) for r in releases), releases
    assert "<!-- towncrier release notes start -->\n" in text
    entries = re.findall(r"^- (.*(?:\n  .*)*)", text, re.MULTILINE)
    assert len(entries) == len(set(entries))


def hook(tmp_path: Path, message: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message)
    return subprocess.run([sys.executable, str(HOOK), str(path)], capture_output=True, text=True)


def test_the_commit_hook_takes_a_subject_of_72_characters(tmp_path):
    subject = "Store: " + "x" * 65
    assert len(subject) == 72
    done = hook(tmp_path, f"{subject}\n\nWhy it changed.\n# Please enter the commit message\n")
    assert (done.returncode, done.stderr) == (0, "")


def test_the_commit_hook_refuses_a_long_subject_and_a_second_line(tmp_path):
    done = hook(tmp_path, "Store: " + "x" * 66 + "\nno blank line\n")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "commit message: the subject is 73 characters; keep it to 72 (say the rest in the body)",
        "commit message: leave the second line blank: the subject is one line"]
