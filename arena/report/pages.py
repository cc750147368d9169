"""One set of pages: the Jinja2 environment every arena HTML page is rendered with.

The templates are in ``arena/report/templates/``, the assets they use in ``arena/report/static/``:

- ``base.html``, the layout every page extends: it sets the title (``{% block title %}``), puts the page's
  markup in ``{% block content %}`` and its scripts in ``{% block scripts %}``, and adds the one stylesheet
  ``static/arena.css``. A page written to a file inlines the stylesheet (and its scripts, with
  :func:`asset`), so it opens offline; a server renders with ``static_url="/static"`` (and serves
  ``static/`` there), and the same templates link the assets instead.
- ``charts.html``: the chart macros (``chart``, ``sparkline``) that draw the layouts of
  :mod:`arena.report.charts` as inline SVG.
- ``tables.html``: the table macros (``table``, ``standings``) every page's tables come from.

So a page is ``{% extends "base.html" %}`` with a ``content`` block that imports the macros it needs; a fix
to the stylesheet, a table or a chart shows in the report, the replay pages and the league's pages alike.
Another package adds its own templates with :func:`environment` ``(extra_directories)``: they extend and
import these ones by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

if TYPE_CHECKING:
    from jinja2 import Environment

STATIC = "static"
"""The folder of :mod:`arena.report` holding the assets (``arena.css``, ``replay_viewer.js``)."""


def static_directory() -> Path:
    """The folder of the assets, for a server to serve as ``/static``."""
    return Path(str(files("arena.report").joinpath(STATIC)))


@cache
def asset(name: str) -> Markup:
    """The text of asset ``name`` (``arena.css``, ``replay_viewer.js``), marked safe to put in a page as is."""
    return Markup(files("arena.report").joinpath(STATIC, name).read_text(encoding="utf-8"))


@cache
def environment(extra_directories: tuple[str, ...] = ()) -> Environment:
    """The environment the pages render with: arena's templates, after those of ``extra_directories`` (whose
    templates may extend and import arena's by name). Everything inserted is escaped unless marked safe."""
    # Imported here, the first time a page is rendered: commands that make no page don't load Jinja2.
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PackageLoader, StrictUndefined, select_autoescape

    loaders = [FileSystemLoader(list(extra_directories))] if extra_directories else []
    env = Environment(loader=ChoiceLoader([*loaders, PackageLoader("arena.report", "templates")]),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.globals["asset"] = asset
    env.globals["static_url"] = None
    return env


def render(template: str, extra_directories: Sequence[str] = (), **context: Any) -> str:
    """Render page ``template`` with ``context``; ``static_url`` in it links the assets instead of inlining them."""
    return environment(tuple(extra_directories)).get_template(template).render(**context)


def call_macro(template: str, macro: str, *args: Any) -> str:
    """The text of macro ``macro`` of ``template`` called with ``args`` (for Python code that builds HTML)."""
    module = environment().get_template(template).module
    return str(getattr(module, macro)(*args))
