"""One set of pages: the report, the replay pages, their index and the playability page share one layout, one
stylesheet and one chart module, inlined in a written page and linked from a server."""

import re

from arena.play.referee import play
from arena.report.charts import point_chart, sparkline, sparkline_layout
from arena.report.pages import asset, render, static_directory
from arena.report.playability import playability_page
from arena.report.replay_page import IndexEntry, build_index_html, build_replay_html
from arena.stats.playability import PlayabilityRow
from arena.tournament.single_game import single_game


def a_record(registry):
    _, _, setup = single_game(["chaser", "floodfill"], registry, map_spec="center_block", seed=5, time_limit=5.0)
    return play(setup, registry).record(setup)


def inline_style(page: str) -> str:
    return re.search(r"<style>(.*?)</style>", page, re.DOTALL).group(1)


def test_every_page_inlines_the_one_stylesheet(shipped_registry):
    record = a_record(shipped_registry)
    sheet = (static_directory() / "arena.css").read_text()
    assert "svg.chart" in sheet and "ul.players" in sheet and sheet == str(asset("arena.css"))
    row = PlayabilityRow("all", 10, 4.0, 1.0, 0.5, (0.2, 0.8), 0.5, (0.2, 0.8), 1.0, 0.1, 9, 0, 0.0, 0.5, 0.0)
    pages = [build_replay_html(record, shipped_registry), build_index_html("games", [IndexEntry(1, record, "a.html")]),
             playability_page("t", [row], "none")]
    for page in pages:
        assert page.startswith("<!DOCTYPE html>") and inline_style(page) == sheet
        assert "<link" not in page and " src=" not in page  # nothing to fetch


def test_a_server_links_the_assets_instead(shipped_registry):
    page = build_replay_html(a_record(shipped_registry), shipped_registry, static_url="/static")
    assert '<link rel="stylesheet" href="/static/arena.css">' in page
    assert '<script src="/static/replay_viewer.js"></script>' in page
    assert "<style>" not in page and str(asset("replay_viewer.js")) not in page
    assert (static_directory() / "replay_viewer.js").is_file()


def test_another_package_s_page_extends_the_layout_and_draws_the_charts(tmp_path):
    (tmp_path / "board.html").write_text(
        '{% extends "base.html" %}{% import "charts.html" as charts %}{% import "tables.html" as tables %}'
        "{% block title %}Board{% endblock %}"
        '{% block content %}{{ tables.standings(["#", "bot"], rows) }}{{ charts.sparkline(spark) }}{% endblock %}')
    page = render("board.html", extra_directories=[str(tmp_path)], rows=[["1", "<alice>/hugger"]],
                  spark=sparkline_layout([1.0, 2.0]))
    assert "<title>Board</title>" in page and inline_style(page) == str(asset("arena.css"))
    assert '<td class="name">&lt;alice&gt;/hugger</td>' in page  # escaped
    assert '<table class="standings">' in page and 'points="1.0,19.0 99.0,1.0"' in page


def test_a_sparkline_fills_its_box_oldest_first():
    assert sparkline_layout([3.0, 1.0, 2.0], width=12, height=6).points == "1.0,1.0 6.0,5.0 11.0,3.0"
    assert sparkline_layout([2.0], width=12, height=6).last == ("1.0", "5.0")
    assert sparkline([]).startswith('<svg class="sparkline"') and "polyline" not in sparkline([])


def test_a_chart_without_data_says_so_and_names_are_escaped():
    assert point_chart("empty", {}, "run") == "<p>empty: no data.</p>"
    assert 'data-name="a&lt;b"' in point_chart("t", {"a<b": [(0, 1.0)]}, "run")
