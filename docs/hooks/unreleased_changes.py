"""MkDocs hook: the changelog page shows the changes not yet released, read from ``changelog.d/``.

At a release ``towncrier build`` moves them into ``CHANGELOG.md``; until then each is one file named
``+slug.TYPE.md`` (or ``NUMBER.TYPE.md``), and this hook lists them under "Unreleased" the way towncrier will.
"""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- towncrier release notes start -->"


def unreleased_section() -> str:
    """The unreleased changes as a Markdown section, by type in the configured order ("" if there are none)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["towncrier"]
    folder = ROOT / config["directory"]
    parts = []
    for kind in config["type"]:
        entries = [path.read_text().strip() for path in sorted(folder.glob(f"*.{kind['directory']}.md"))]
        if entries:
            bullets = "\n".join("- " + entry.replace("\n", "\n  ") for entry in entries)
            parts.append(f"### {kind['name']}\n\n{bullets}\n")
    return "## Unreleased\n\n" + "\n".join(parts) if parts else ""


INCLUDE = '--8<-- "CHANGELOG.md"'


def on_page_markdown(markdown, page, config, files):
    """On the changelog page (which includes ``CHANGELOG.md``), put the unreleased changes at towncrier's
    marker."""
    if INCLUDE not in markdown:
        return markdown
    changelog = (ROOT / "CHANGELOG.md").read_text()
    return markdown.replace(INCLUDE, changelog.replace(MARKER, unreleased_section(), 1), 1)
