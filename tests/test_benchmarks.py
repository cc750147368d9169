"""The speed measurements write their figures as JSON with ``--json FILE``, through the shared helper."""

import json
import subprocess
import sys

import pytest

from arena.league.facade import League
from tests.helpers import REPO


def test_a_speed_measurement_writes_its_figures_as_json(tmp_path):
    out = tmp_path / "figures.json"
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "rating_speed.py"), "--games", "100", "--bots", "4",
                    "--json", str(out)], check=True, capture_output=True, cwd=tmp_path)
    document = json.loads(out.read_text())
    assert document["script"] == "rating_speed.py"
    assert document["arguments"] == {"games": 100, "bots": 4, "seed": 0}
    assert [(figure["name"], figure["unit"]) for figure in document["figures"]] == [
        ("closed form", "games/s"), ("trueskill package", "games/s")]
    assert all(figure["value"] > 0 for figure in document["figures"])


def test_the_queue_lookup_benchmark_times_the_index_and_the_scan(tmp_path):
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "queue_lookup.py"), "--queued", "200",
                           "--lookups", "5", "--json", str(out)], check=True, capture_output=True, text=True,
                          cwd=tmp_path)
    document = json.loads(out.read_text())
    assert document["arguments"] == {"queued": 200, "lookups": 5}
    assert [(figure["name"], figure["unit"]) for figure in document["figures"]] == [
        ("with the index", "us"), ("without it", "us")]
    assert done.stdout.splitlines()[0] == "200 ranked games queued, 5 look-ups near the end of the queue"


def test_the_two_sides_of_a_tournament_are_timed_apart(tmp_path):
    out = tmp_path / "sides.json"
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "tournament_sides.py"), "--games", "20", "--json",
                    str(out)], check=True, capture_output=True, cwd=tmp_path)
    figures = json.loads(out.read_text())["figures"]
    assert [(figure["name"], figure["unit"]) for figure in figures] == [
        ("worker side", "CPU us/game"), ("parent side", "CPU us/game")]
    assert all(figure["value"] > 0 for figure in figures)
    assert list(tmp_path.iterdir()) == [out]  # the parent's database was a temporary one


@pytest.mark.skipif(sys.platform != "linux", reason="the measurement reads /proc")
def test_a_commands_cpu_time_is_told_apart_by_process(tmp_path):
    out = tmp_path / "cpu.json"
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "command_cpu.py"), "--games", "200", "--runs", "1",
                    "--json", str(out)], check=True, capture_output=True, cwd=tmp_path)
    figures = {figure["name"]: figure["value"] for figure in json.loads(out.read_text())["figures"]}
    assert list(figures) == ["wall", "parent CPU", "busiest worker CPU", "all other processes' CPU",
                             "games per second"]
    assert figures["parent CPU"] > 0 and figures["busiest worker CPU"] > 0  # the worker was seen apart
    assert figures["busiest worker CPU"] <= figures["all other processes' CPU"]
    assert figures["games per second"] == pytest.approx(200 / figures["wall"])
    assert list(tmp_path.iterdir()) == [out]


def test_without_json_a_speed_measurement_writes_no_file(tmp_path):
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "rating_speed.py"), "--games", "50"], check=True,
                   capture_output=True, cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_league_load_benchmark_runs_small_and_stops_by_itself(tmp_path):
    out = tmp_path / "load.json"
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "league_load.py"), "--games", "40", "--step",
                           "20", "--clients", "2", "--seconds", "2", "--league", str(tmp_path / "league"), "--json",
                           str(out)], check=True, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    document = json.loads(out.read_text())
    figures = {figure["name"]: figure["value"] for figure in document["figures"]}
    assert list(figures) == ["fill to 20 games", "fill to 20 games, CPU", "fill to 40 games", "fill to 40 games, CPU",
                             "fill, last step / first step", "fill, last step / first step, CPU",
                             "afresh / and /api/leaderboard", "afresh /bots/TEAM/BOT", "afresh /api/bots/TEAM/BOT",
                             "afresh /games", "afresh /games/ID", "afresh the ladder's waiting()", "latency p50",
                             "latency p95", "latency p99", "requests", "errors", "games stored during the load"]
    assert [line.split(":")[0] for line in done.stdout.splitlines()[:3]] == [
        "games 0 to 20", "games 20 to 40", "last 20 / first 20"]
    assert figures["errors"] == 0 and figures["requests"] > 0
    assert 0 < figures["latency p50"] <= figures["latency p95"] <= figures["latency p99"]
    with League.open(tmp_path / "league") as league:
        assert league.store.conn.execute("SELECT count(*) FROM games").fetchone()[0] >= 40


def test_the_start_up_measurement_times_each_short_command(tmp_path):
    out = tmp_path / "startup.json"
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "startup.py"), "--runs", "1", "--json", str(out)],
                   check=True, capture_output=True, cwd=tmp_path)
    figures = json.loads(out.read_text())["figures"]
    assert [(figure["name"], figure["unit"]) for figure in figures] == [
        ("python alone", "ms"), ("arena --version", "ms"), ("arena tournament, 2 games", "ms")]
    assert all(figure["value"] > 0 for figure in figures)
    assert list(tmp_path.iterdir()) == [out]  # the tournaments' databases were temporary


@pytest.mark.slow
def test_the_start_up_measurement_runs_a_baseline_checkout_beside_this_code(tmp_path):
    baseline, marks = tmp_path / "baseline", tmp_path / "baseline-runs"
    (baseline / "arena").mkdir(parents=True)
    (baseline / "arena" / "__init__.py").write_text("")
    (baseline / "arena" / "__main__.py").write_text(f"open({str(marks)!r}, 'a').write('run\\n')\n")
    out = tmp_path / "startup.json"
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "startup.py"), "--runs", "2", "--baseline",
                           str(baseline), "--json", str(out)], check=True, capture_output=True, text=True, cwd=tmp_path)
    names = [figure["name"] for figure in json.loads(out.read_text())["figures"]]
    assert names == [f"{command}, {code}" for command in ("python alone", "arena --version",
                                                          "arena tournament, 2 games")
                     for code in ("baseline", "this code")]
    assert done.stdout.splitlines()[0].split() == ["command", "baseline", "this", "code", "ratio"]
    assert marks.read_text() == "run\n" * 6  # the baseline's arena ran each arena command, once more to warm up
