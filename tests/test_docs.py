"""The documentation stays a front door and a site: the README is short with the set-up commands first, and no
page links outside the repository except to public web sites, nor to a file or heading that isn't there."""

import ipaddress
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.helpers import REPO

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def pages():
    """The README, the changelog and every page of the documentation site."""
    return [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").rglob("*.md"))]


def links(text):
    """Every link and image target of a Markdown text, leaving out code blocks and code spans."""
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    return LINK.findall(prose) + REFERENCE.findall(prose)


def heading_anchors(path: Path):
    """The anchors of a Markdown file's headings, as MkDocs and GitHub make them."""
    anchors = set()
    for heading in re.findall(r"^#+ (.+)$", FENCE.sub("", path.read_text()), re.MULTILINE):
        slug = re.sub(r"[^\w\s-]", "", heading.strip().lower())
        anchors.add(re.sub(r"\s+", "-", slug))
    return anchors


def link_problem(page: Path, target: str):
    """Why a link of ``page`` is not allowed, or None: public http(s) sites, or files of the repository."""
    parts = urlsplit(target)
    if parts.scheme in ("http", "https"):
        host = parts.hostname or ""
        try:
            private = not ipaddress.ip_address(host).is_global
        except ValueError:
            private = host == "localhost" or host.endswith((".local", ".internal")) or "." not in host
        return f"{target}: not a public site" if private else None
    if parts.scheme or parts.netloc:
        return f"{target}: only http(s) links may leave the repository"
    if not parts.path:  # an anchor on the same page
        return None if parts.fragment in heading_anchors(page) else f"{target}: no such heading on the page"
    if parts.path.startswith("/"):
        return f"{target}: an absolute path"
    resolved = (page.parent / unquote(parts.path)).resolve()
    if not resolved.is_relative_to(REPO):
        return f"{target}: outside the repository"
    if not resolved.exists():
        return f"{target}: no such file"
    if parts.fragment and resolved.suffix == ".md" and parts.fragment not in heading_anchors(resolved):
        return f"{target}: no such heading in {resolved.relative_to(REPO)}"
    return None


@pytest.mark.parametrize("page", pages(), ids=lambda page: page.relative_to(REPO).as_posix())
def test_every_link_stays_in_the_repository_or_goes_to_a_public_site(page):
    problems = [problem for target in links(page.read_text()) if (problem := link_problem(page, target))]
    assert problems == [], f"{page.relative_to(REPO)}: {problems}"


def test_link_rules(tmp_path, monkeypatch):
    tmp_path = tmp_path.resolve()
    monkeypatch.setattr("tests.test_docs.REPO", tmp_path)
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text("# Page\n\n## A heading, here\n")
    (tmp_path / "docs" / "other.md").write_text("# Other\n")
    text = ("[a](other.md) [b](#a-heading-here) ![c](other.md#other) [d](https://pytest.org/en/stable/) "
            "`[e](/etc/passwd)`\n```\n[f](../../x)\n```\n[g]: http://10.0.0.5:8000/\n")
    assert links(text) == ["other.md", "#a-heading-here", "other.md#other", "https://pytest.org/en/stable/",
                           "http://10.0.0.5:8000/"]
    outside = "../../shared/papers/x.txt"
    problem = link_problem
    assert [problem(page, target) for target in ("other.md", "#a-heading-here", "other.md#other")] == [None] * 3
    assert problem(page, "https://pytest.org/en/stable/") is None
    assert problem(page, "http://10.0.0.5:8000/") == "http://10.0.0.5:8000/: not a public site"
    assert problem(page, "http://localhost:8000/") == "http://localhost:8000/: not a public site"
    assert problem(page, "file:///etc/passwd") == "file:///etc/passwd: only http(s) links may leave the repository"
    assert problem(page, "/etc/passwd") == "/etc/passwd: an absolute path"
    assert problem(page, outside) == f"{outside}: outside the repository"
    assert problem(page, "missing.md") == "missing.md: no such file"
    assert problem(page, "#nowhere") == "#nowhere: no such heading on the page"
    assert problem(page, "other.md#nowhere") == "other.md#nowhere: no such heading in docs/other.md"


def test_links_are_checked_from_their_own_folder(tmp_path, monkeypatch):
    tmp_path = tmp_path.resolve()
    monkeypatch.setattr("tests.test_docs.REPO", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n")
    (tmp_path / "README.md").write_text("# Front\n")
    assert link_problem(tmp_path / "README.md", "docs/page.md") is None
    assert link_problem(tmp_path / "docs" / "page.md", "docs/page.md") == "docs/page.md: no such file"
    assert link_problem(tmp_path / "docs" / "page.md", "../README.md") is None


def test_the_readme_is_a_short_front_door_with_the_set_up_commands_first():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 300
    before_first_section = readme.split("\n## ", 1)[0]
    assert "```sh\npip install -c constraints.txt -e . && arena tournament maps/center_block.txt\n```" in \
        before_first_section
    assert "```sh\npip install -c constraints.txt -e '.[test]' && pytest\n```" in before_first_section


def test_every_page_of_the_site_is_in_its_navigation():
    config = (REPO / "mkdocs.yml").read_text()
    for page in (REPO / "docs").rglob("*.md"):
        assert page.relative_to(REPO / "docs").as_posix() in config, f"{page} is in no menu of mkdocs.yml"
