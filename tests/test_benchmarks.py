"""The speed measurements write their figures as JSON with ``--json FILE``, through the shared helper."""

import json
import subprocess
import sys

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


def test_without_json_a_speed_measurement_writes_no_file(tmp_path):
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "rating_speed.py"), "--games", "50"], check=True,
                   capture_output=True, cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []
